import { AUTH_CODE, PLATFORM_WXWORK } from '@kaipiao/shared';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { WecomProvider } from '../../providers/wecom.ts';
import * as repo from './repo.ts';
import { issueSession } from './session-issue.ts';

/**
 * spec §4 Code branch (POST /v3/enterprise-we-chat/get-qwuserid-and-corpid). A bad, used or
 * expired code is 40029. A member bound to an account with a role signs in on platform wxwork;
 * role 0 (known, not yet an employee) and unknown members get no token — the page routes them to
 * add-employee or register.
 */
export async function wecomLogin(db: Db, wecom: WecomProvider, input: { code: string; appid?: string }) {
  const who = await wecom.exchangeCode(input.code, input.appid);
  if (!who) throw new AppError(AUTH_CODE.WECOM_CODE_INVALID);
  const member = await repo.findWecomUser(db, who.corpId, who.qwUserId);
  const answer = {
    corp_id: who.corpId,
    qw_user_id: who.qwUserId,
    is_register: member ? (1 as const) : (0 as const),
    role: member?.role ?? 0,
  };
  if (!member || member.userId === null || member.role <= 0) return answer;
  const user = await repo.findUserById(db, member.userId);
  if (user?.status !== 'active') return answer;
  const session = await issueSession(db, user, { platform: PLATFORM_WXWORK });
  return { ...answer, token: session.token, user: session.user };
}
