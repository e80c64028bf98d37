import { AUTH_CODE, CODE } from '@kaipiao/shared';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { randomToken, sha256, verifyPassword } from '../../lib/crypto.ts';
import { addHit, countHits } from '../../lib/rate-counter.ts';
import { consumeCaptcha } from './captcha.ts';
import { decryptPassword } from './keys.ts';
import * as repo from './repo.ts';
import { issueSession } from './session-issue.ts';
import { verifySmsCode } from './sms-codes.ts';

/** Failed logins one IP may make per window, whatever the accounts (architecture.md §7). */
export const LOGIN_IP_LIMIT = { failures: 20, windowSeconds: 15 * 60 } as const;
const ipKey = (ip: string) => `login-fail:${ip}`;
// burns the same scrypt time as a real check, so an unknown account is not told apart by timing
const DUMMY_HASH = 'scrypt$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/** Refuses an IP that has failed too often (envelope 10029). */
export async function assertLoginAllowed(db: Db, ip: string): Promise<void> {
  if ((await countHits(db, ipKey(ip), LOGIN_IP_LIMIT.windowSeconds)) >= LOGIN_IP_LIMIT.failures) {
    throw new AppError(CODE.RATE_LIMITED);
  }
}

/** Password check with the attempt limits; the same answer for an unknown account and a wrong password. */
export async function checkPassword(db: Db, account: string, cipher: string, ip: string) {
  const password = await decryptPassword(db, cipher);
  const user = await repo.findUserByAccount(db, account);
  if (!user) {
    await verifyPassword(password, DUMMY_HASH);
    await addHit(db, ipKey(ip), LOGIN_IP_LIMIT.windowSeconds);
    throw new AppError(AUTH_CODE.BAD_CREDENTIALS);
  }
  if (user.lockedUntil && user.lockedUntil.getTime() > Date.now())
    throw new AppError(AUTH_CODE.ACCOUNT_LOCKED);
  if (!(await verifyPassword(password, user.passwordHash))) {
    await addHit(db, ipKey(ip), LOGIN_IP_LIMIT.windowSeconds);
    const locked = await repo.recordFailedLogin(db, user.id);
    throw new AppError(locked ? AUTH_CODE.ACCOUNT_LOCKED : AUTH_CODE.BAD_CREDENTIALS);
  }
  if (user.status !== 'active') throw new AppError(AUTH_CODE.ACCOUNT_DISABLED);
  if (user.failedLogins > 0 || user.lockedUntil) await repo.clearFailedLogins(db, user.id);
  return user;
}

/** Two-factor (spec §4): an account that requires it needs the phone unless the device is trusted. */
export async function needsPhoneVerification(db: Db, user: repo.UserRow, secureId?: string) {
  if (!user.mfaRequired) return false;
  return !(secureId && (await repo.isTrustedDevice(db, user.id, sha256(secureId))));
}

/** A passed phone check makes the device trusted: its secure_id skips the check next time. */
export async function trustNewDevice(db: Db, userId: number): Promise<string> {
  const secureId = randomToken(24);
  await repo.trustDevice(db, userId, sha256(secureId));
  return secureId;
}

export type AccountLoginInput = {
  account: string;
  password: string;
  picture_code: string;
  unique_code: string;
  secure_id?: string;
};

export async function accountLogin(db: Db, input: AccountLoginInput, ip: string) {
  await assertLoginAllowed(db, ip);
  await consumeCaptcha(db, input.unique_code, input.picture_code);
  const user = await checkPassword(db, input.account, input.password, ip);
  if (await needsPhoneVerification(db, user, input.secure_id)) throw new AppError(AUTH_CODE.MFA_REQUIRED);
  return issueSession(db, user);
}

/** spec §2/§4 two-factor: does this account, on this device, need the phone dialog? */
export async function mfaCheck(db: Db, account: string, secureId?: string) {
  const user = await repo.findUserByAccount(db, account);
  // unknown accounts answer like known ones without two-factor
  const need = user ? await needsPhoneVerification(db, user, secureId) : false;
  return { need_verify: need ? (1 as const) : (0 as const) };
}

export type MfaLoginInput = { account: string; password: string; mobile: string; sms_code: string };

/** The phone-verification dialog's submit: password again, the account's own mobile, its SMS code. */
export async function mfaLogin(db: Db, input: MfaLoginInput, ip: string) {
  await assertLoginAllowed(db, ip);
  const user = await checkPassword(db, input.account, input.password, ip);
  if (user.mobile !== input.mobile) throw new AppError(AUTH_CODE.MOBILE_MISMATCH);
  await verifySmsCode(db, input.mobile, 'login', input.sms_code);
  const secureId = await trustNewDevice(db, user.id);
  return { ...(await issueSession(db, user)), secure_id: secureId };
}
