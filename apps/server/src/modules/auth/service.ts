import { AUTH_CODE, isWeakPassword, PATTERNS } from '@kaipiao/shared';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { hashPassword, randomToken, sha256, verifyPassword } from '../../lib/crypto.ts';
import { consumeCaptcha } from './captcha.ts';
import { decryptPassword } from './keys.ts';
import * as repo from './repo.ts';
import { issueSession } from './session-issue.ts';
import { verifySmsCode } from './sms-codes.ts';

/** Password check with the attempt limit; the same answer for an unknown account and a wrong password. */
export async function checkPassword(db: Db, account: string, cipher: string): Promise<repo.UserRow> {
  const password = await decryptPassword(db, cipher);
  const user = await repo.findUserByAccount(db, account);
  if (!user) {
    await verifyPassword(
      password,
      'scrypt$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
    );
    throw new AppError(AUTH_CODE.BAD_CREDENTIALS);
  }
  if (user.lockedUntil && user.lockedUntil.getTime() > Date.now())
    throw new AppError(AUTH_CODE.ACCOUNT_LOCKED);
  if (!(await verifyPassword(password, user.passwordHash))) {
    await repo.recordFailedLogin(db, user.id);
    throw new AppError(user.failedLogins + 1 >= 5 ? AUTH_CODE.ACCOUNT_LOCKED : AUTH_CODE.BAD_CREDENTIALS);
  }
  if (user.status !== 'active') throw new AppError(AUTH_CODE.ACCOUNT_DISABLED);
  await repo.clearFailedLogins(db, user.id);
  return user;
}

export async function needsPhoneVerification(
  db: Db,
  user: repo.UserRow,
  secureId?: string,
): Promise<boolean> {
  if (!user.mfaRequired) return false;
  return !(secureId && (await repo.isTrustedDevice(db, user.id, sha256(secureId))));
}

export type AccountLoginInput = {
  account: string;
  password: string;
  picture_code: string;
  unique_code: string;
  secure_id?: string;
};

export async function accountLogin(db: Db, input: AccountLoginInput) {
  await consumeCaptcha(db, input.unique_code, input.picture_code);
  const user = await checkPassword(db, input.account, input.password);
  if (await needsPhoneVerification(db, user, input.secure_id)) throw new AppError(AUTH_CODE.MFA_REQUIRED);
  return issueSession(db, user);
}

/** spec §2/§4 two-factor: does this account, on this device, need the phone dialog? */
export async function mfaCheck(db: Db, account: string, secureId?: string) {
  const user = await repo.findUserByAccount(db, account);
  // unknown accounts answer like known ones without two-factor: no account probing
  return {
    need_verify: user && (await needsPhoneVerification(db, user, secureId)) ? (1 as const) : (0 as const),
  };
}

export type MfaLoginInput = { account: string; password: string; mobile: string; sms_code: string };

export async function mfaLogin(db: Db, input: MfaLoginInput) {
  const user = await checkPassword(db, input.account, input.password);
  if (user.mobile !== input.mobile) throw new AppError(AUTH_CODE.MOBILE_MISMATCH);
  await verifySmsCode(db, input.mobile, 'login', input.sms_code);
  const secureId = randomToken(24);
  await repo.trustDevice(db, user.id, sha256(secureId));
  return { ...(await issueSession(db, user)), secure_id: secureId };
}

/** spec §5 change password: SMS to the user's own mobile, new password twice, differs from the old. */
export async function resetPassword(
  db: Db,
  userId: number,
  input: { mobile_code: string; new_password: string; password_confirm: string },
) {
  const user = await repo.findUserById(db, userId);
  if (!user) throw new AppError(AUTH_CODE.BAD_CREDENTIALS);
  const next = await decryptPassword(db, input.new_password);
  const confirm = await decryptPassword(db, input.password_confirm);
  if (!PATTERNS.password.test(next)) throw new AppError(AUTH_CODE.PASSWORD_RULE);
  if (next !== confirm) throw new AppError(AUTH_CODE.PASSWORD_RULE, '两次输入的密码不一致，请重新输入');
  await verifySmsCode(db, user.mobile, 'reset_password', input.mobile_code);
  if (await verifyPassword(next, user.passwordHash)) throw new AppError(AUTH_CODE.PASSWORD_SAME_AS_OLD);
  await repo.updatePassword(db, user.id, await hashPassword(next), isWeakPassword(next));
}
