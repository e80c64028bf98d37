import { maskPhone, PASSWORD_VALID_DAYS, TOKEN_TTL_SECONDS, type UserInfo } from '@kaipiao/shared';
import type { Db } from '../../db/client.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { insertSession } from '../session/repo.ts';
import type { UserRow } from './repo.ts';

export type IssueOptions = { source?: string; platform?: string };

/** What the user info is made of: the user row without its password hash (a cache keeps this). */
export type UserInfoRow = Omit<UserRow, 'passwordHash'>;

export function toUserInfo(
  user: UserInfoRow,
  session: { source: string; platform: string; orgId: number | null },
): UserInfo {
  const ageDays = (Date.now() - user.passwordChangedAt.getTime()) / 86_400_000;
  return {
    user_id: user.id,
    account: user.account,
    nickname: user.nickname,
    mobile: maskPhone(user.mobile),
    plain_mobile: user.mobile,
    need_contract: user.needContract,
    tax_rate_change_tips: user.taxRateChangeTips,
    is_weak_password: user.isWeakPassword ? 1 : 0,
    password_expired: ageDays > PASSWORD_VALID_DAYS ? 1 : 0,
    source: session.source,
    platform: session.platform,
    org_id: session.orgId,
  };
}

/** A new session: random token to the client, only its hash stored (architecture.md §7). */
export async function issueSession(db: Db, user: UserRow, opts: IssueOptions = {}) {
  const token = randomToken(32);
  const source = opts.source ?? '';
  const platform = opts.platform ?? '';
  await insertSession(db, {
    tokenHash: sha256(token),
    userId: user.id,
    orgId: user.lastOrgId,
    source,
    platform,
    expiresAt: new Date(Date.now() + TOKEN_TTL_SECONDS * 1000),
  });
  return {
    token,
    expires_in: TOKEN_TTL_SECONDS,
    user: toUserInfo(user, { source, platform, orgId: user.lastOrgId }),
  };
}
