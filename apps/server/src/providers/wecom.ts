import type { Db } from '../db/client.ts';
import { consumeTicket, issueTicket } from './sandbox-tickets.ts';

/** The work-app (WeCom) member a login code stands for. */
export type WecomIdentity = { corpId: string; qwUserId: string };

/** Work-app adapter (spec §4 Code branch): a code is good for one exchange and expires. */
export type WecomProvider = { exchangeCode(code: string, appid?: string): Promise<WecomIdentity | null> };

export const SANDBOX_WECOM_APPID = 'sandbox';

export function createSandboxWecom(db: Db): WecomProvider {
  return {
    async exchangeCode(code, appid) {
      const row = await consumeTicket(db, 'wecom_code', code);
      if (!row || (appid && appid !== row.appId)) return null;
      const p = row.payload as { corp_id?: string; qw_user_id?: string };
      return p.corp_id && p.qw_user_id ? { corpId: p.corp_id, qwUserId: p.qw_user_id } : null;
    },
  };
}

/** Sandbox control: the work app authorises a member and redirects with this code. */
export function issueSandboxWecomCode(db: Db, corpId: string, qwUserId: string, appid = SANDBOX_WECOM_APPID) {
  return issueTicket(db, 'wecom_code', { appId: appid, payload: { corp_id: corpId, qw_user_id: qwUserId } });
}
