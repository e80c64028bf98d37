import { AUTH_CODE, isWeakPassword, PATTERNS } from '@kaipiao/shared';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { hashPassword, verifyPassword } from '../../lib/crypto.ts';
import { decryptPassword } from './keys.ts';
import * as repo from './repo.ts';
import { verifySmsCode } from './sms-codes.ts';

export type ResetPasswordInput = { mobile_code: string; new_password: string; password_confirm: string };

/**
 * spec §5 change password: SMS to the user's own mobile, the new password twice, different from
 * the old one (spec §9). Every rule is checked before the SMS code is used up, so a typo does not
 * cost the user another code. Ends the user's other sessions; returns their token hashes.
 */
export async function resetPassword(
  db: Db,
  dataDir: string,
  session: { userId: number; tokenHash: string },
  input: ResetPasswordInput,
): Promise<string[]> {
  const user = await repo.findUserById(db, session.userId);
  // Stryker disable next-line ConditionalExpression: unreachable, the session lookup joins the active user (401 before this handler)
  if (!user) throw new AppError(401);
  const next = await decryptPassword(db, input.new_password);
  const confirm = await decryptPassword(db, input.password_confirm);
  if (!PATTERNS.password.test(next)) throw new AppError(AUTH_CODE.PASSWORD_RULE);
  if (next !== confirm) throw new AppError(AUTH_CODE.PASSWORD_MISMATCH);
  if (await verifyPassword(next, user.passwordHash)) throw new AppError(AUTH_CODE.PASSWORD_SAME_AS_OLD);
  await verifySmsCode(db, dataDir, user.mobile, 'reset_password', input.mobile_code);
  await repo.updatePassword(db, user.id, await hashPassword(next), isWeakPassword(next));
  return repo.deleteOtherSessions(db, user.id, session.tokenHash);
}
