import { PARTNER_APP_IDS, SOURCE_PARTNER_22 } from '@kaipiao/shared';

/**
 * Partner sign-on (apps 1003, 1014) and source 22 (spec §4, §9). The sandbox pages live under
 * /sandbox/*; a real deployment points KAIPIAO_SSO_BASE at the partner's host.
 */
export function partnerLogoutUrl(base: string, source: string): string | null {
  if (source === SOURCE_PARTNER_22) return `${base}/sandbox/sso/logout?source=22`;
  if ((PARTNER_APP_IDS as readonly string[]).includes(source))
    return `${base}/sandbox/sso/login?app_id=${source}`;
  return null;
}
