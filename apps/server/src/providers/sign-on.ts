import { PARTNER_APP_IDS, SOURCE_PARTNER_22 } from '@kaipiao/shared';
import type { Db } from '../db/client.ts';
import { consumeTicket, issueTicket, peekTicket } from './sandbox-tickets.ts';

/** A partner-issued ticket (SSO) or login token from the login URL (spec §4). */
export type PartnerCredential = { kind: 'ticket' | 'token'; value: string; appId?: string };
/** Whom the partner signs in, and from which app (stored as the session's source). */
export type PartnerIdentity = { userId: number; appId: string };

/**
 * Partner sign-on (apps 1003, 1014) and source 22 (spec §4, §9). Checking a credential does not use
 * it up (the phone check may come first); consuming it is single-use.
 */
export type SignOnProvider = {
  inspect(cred: PartnerCredential): Promise<PartnerIdentity | null>;
  consume(cred: PartnerCredential): Promise<boolean>;
};

/** Where the console sends a partner's user on logout; null for our own logins. */
export function partnerLogoutUrl(base: string, source: string): string | null {
  if (source === SOURCE_PARTNER_22) return `${base}/sandbox/sso/logout?source=22`;
  if ((PARTNER_APP_IDS as readonly string[]).includes(source))
    return `${base}/sandbox/sso/login?app_id=${source}`;
  return null;
}

/** The sandbox partner: credentials it issued live in sso_tickets (see issueSandboxCredential). */
export function createSandboxSignOn(db: Db): SignOnProvider {
  const matches = (row: { appId: string; userId: number | null }, cred: PartnerCredential) =>
    row.userId !== null && (!cred.appId || cred.appId === row.appId);
  return {
    async inspect(cred) {
      const row = await peekTicket(db, cred.kind, cred.value);
      return row && matches(row, cred) ? { userId: row.userId!, appId: row.appId } : null;
    },
    async consume(cred) {
      const row = await peekTicket(db, cred.kind, cred.value);
      if (!row || !matches(row, cred)) return false;
      return (await consumeTicket(db, cred.kind, cred.value)) !== null;
    },
  };
}

/** Sandbox control: the partner signs `userId` in and hands back a ticket or login token. */
export function issueSandboxCredential(db: Db, userId: number, kind: 'ticket' | 'token', appId: string) {
  return issueTicket(db, kind, { userId, appId });
}
