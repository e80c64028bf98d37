import { AUTH_CODE } from '@kaipiao/shared/errors/codes';
import { safeRedirect } from '../../../lib/redirect.ts';

export { safeRedirect };

// spec §4 login routing, as pure decisions: what the login URL asks for, and where each answer
// of the server leads. The login page runs the calls and follows these decisions.

export const HOME_PATH = '/home/index';
export const MOBILE_HOME_PATH = '/m-home/index';
export const SWITCH_STORE_PATH = '/user/switch-store';
export const WXWORK_REGISTER_PATH = '/user/wxwork-register';
/** the work app's (sandbox) enterprise login, for an expired work-app code (40029) */
export const ENTERPRISE_LOGIN_URL = '/sandbox/wecom/login';

export type LoginEntry =
  | { kind: 'form' }
  | { kind: 'secure-id'; token?: string; ticket?: string; app_id?: string; source?: string }
  | { kind: 'wecom'; code: string; appid?: string };

const value = (search: URLSearchParams, key: string) => search.get(key)?.trim() || undefined;

/** Token or ticket (single sign-on) → secure-id check; work-app code → user lookup; else the form. */
export function readLoginEntry(search: URLSearchParams): LoginEntry {
  const token = value(search, 'token');
  const ticket = value(search, 'ticket');
  if (token || ticket) {
    const app_id = value(search, 'app_id');
    return { kind: 'secure-id', token, ticket, app_id, source: value(search, 'source') };
  }
  const code = value(search, 'code');
  if (code) return { kind: 'wecom', code, appid: value(search, 'appid') };
  return { kind: 'form' };
}

export type SecureIdAnswer = { auth_status: 1 | 2; token?: string; mobile?: string; source: string };
export type SecureIdOutcome =
  | { kind: 'signed-in'; token: string; source: string }
  | { kind: 'verify-phone'; mobile?: string; token?: string; ticket?: string; app_id?: string }
  | { kind: 'failed' };

/** auth_status 1 → authenticated, store the token and source; otherwise verify the phone. */
export function decideSecureId(
  answer: SecureIdAnswer,
  entry: Extract<LoginEntry, { kind: 'secure-id' }>,
): SecureIdOutcome {
  if (answer.auth_status === 1) {
    const token = answer.token ?? entry.token;
    if (!token) return { kind: 'failed' };
    return { kind: 'signed-in', token, source: answer.source || entry.source || '' };
  }
  return {
    kind: 'verify-phone',
    mobile: answer.mobile,
    token: entry.token,
    ticket: entry.ticket,
    app_id: entry.app_id,
  };
}

export type WecomAnswer = {
  corp_id: string;
  qw_user_id: string;
  is_register: 0 | 1;
  role: number;
  token?: string;
};
export type WecomOutcome =
  | { kind: 'home'; token: string }
  | { kind: 'redirect'; to: string }
  | { kind: 'enterprise-login'; url: string }
  | { kind: 'failed' };

/** Registered with a token → home; unregistered without token, or role 0 → add employee; else register. */
export function decideWecom(result: { data: WecomAnswer } | { errorCode: number }): WecomOutcome {
  if ('errorCode' in result) {
    if (result.errorCode === AUTH_CODE.WECOM_CODE_INVALID) {
      return { kind: 'enterprise-login', url: ENTERPRISE_LOGIN_URL };
    }
    return { kind: 'failed' };
  }
  const { data } = result;
  if (data.is_register === 1 && data.token) return { kind: 'home', token: data.token };
  const query = new URLSearchParams({ corp_id: data.corp_id, qw_user_id: data.qw_user_id });
  if ((data.is_register === 0 && !data.token) || data.role === 0) {
    return { kind: 'redirect', to: `${WXWORK_REGISTER_PATH}?type=add-employee&${query}` };
  }
  return { kind: 'redirect', to: `${WXWORK_REGISTER_PATH}?${query}` };
}

export function homePath(isMobile: boolean): string {
  return isMobile ? MOBILE_HOME_PATH : HOME_PATH;
}

/** After signing in: the redirect param, else store switching without a business, else home. */
export function landingPath(opts: {
  redirect?: string | null;
  hasBusiness: boolean;
  isMobile: boolean;
}): string {
  const redirect = safeRedirect(opts.redirect);
  if (redirect) return redirect;
  if (!opts.hasBusiness) return SWITCH_STORE_PATH;
  return opts.isMobile ? MOBILE_HOME_PATH : '/';
}

const KEPT_ON_CANCEL = ['taxCode', 'source', 'targetModule'] as const;

/** Cancelling phone verification returns to login keeping taxCode, source and targetModule (spec §4). */
export function cancelVerificationPath(search: URLSearchParams): string {
  const kept = new URLSearchParams();
  for (const key of KEPT_ON_CANCEL) {
    const v = search.get(key);
    if (v) kept.set(key, v);
  }
  const query = kept.toString();
  return query ? `/user/login?${query}` : '/user/login';
}
