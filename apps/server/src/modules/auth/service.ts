import { AUTH_CODE, CODE, maskPhone } from '@kaipiao/shared';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import {
  hashPassword,
  passwordCost,
  passwordNeedsRehash,
  randomToken,
  sha256,
  verifyPassword,
} from '../../lib/crypto.ts';
import { takeHit } from '../../lib/rate-counter.ts';
import type { SmsProvider } from '../../providers/sms.ts';
import { consumeCaptcha } from './captcha.ts';
import { decryptPassword } from './keys.ts';
import { issueMfaTicket, readMfaTicket } from './mfa-ticket.ts';
import * as repo from './repo.ts';
import { issueSession } from './session-issue.ts';
import { sendSmsCode, verifySmsCode } from './sms-codes.ts';

/**
 * Failed logins one IP may make per window, whatever the accounts (architecture.md §7). Softer than
 * the account lock (5 in a row): an office behind one address is not shut out by one mistyped
 * account, only by a spray across ten of them.
 */
export const LOGIN_IP_LIMIT = { failures: 50, windowSeconds: 15 * 60 } as const;
const ipKey = (ip: string) => `login-fail:${ip}`;

// burns the same scrypt time as a real check, so an unknown account is not told apart by timing
const dummyHashes = new Map<number, Promise<string>>();
function dummyHash(): Promise<string> {
  const cost = passwordCost();
  let h = dummyHashes.get(cost.logN);
  // Stryker disable next-line ConditionalExpression: a fresh dummy hash each time only costs time; nothing else differs
  if (!h) {
    h = hashPassword(randomToken(), cost);
    dummyHashes.set(cost.logN, h);
  }
  return h;
}

/**
 * Password check with the attempt limits; the same answers for an unknown account and a wrong
 * password, and for a locked known name and a locked unknown one. Both limits are reserved in
 * PostgreSQL BEFORE scrypt runs (one atomic statement each), so parallel guesses are counted like
 * guesses in a row: the IP's failures per 15 minutes (10029), then the name's attempts (11003 once
 * the 5th in a row has failed). A right password gives the IP's reservation back and clears the
 * name's count; a hash of an older cost is upgraded on the way.
 */
export async function checkPassword(db: Db, account: string, cipher: string, ip: string, now: Date) {
  const password = await decryptPassword(db, cipher);
  const ipHit = await takeHit(db, ipKey(ip), LOGIN_IP_LIMIT.windowSeconds, LOGIN_IP_LIMIT.failures, now);
  if (!ipHit.allowed) throw new AppError(CODE.RATE_LIMITED);
  const attempt = await repo.reserveLoginAttempt(db, account);
  if (attempt === null) {
    // no password was checked: a locked account does not use up the office's allowance
    await ipHit.release();
    throw new AppError(AUTH_CODE.ACCOUNT_LOCKED);
  }
  const user = await repo.findUserByAccount(db, account);
  const right = await verifyPassword(password, user?.passwordHash ?? (await dummyHash()));
  if (!user || !right) {
    throw new AppError(
      attempt >= repo.LOCK_AFTER_FAILURES ? AUTH_CODE.ACCOUNT_LOCKED : AUTH_CODE.BAD_CREDENTIALS,
    );
  }
  await repo.clearLoginAttempts(db, account);
  await ipHit.release();
  if (user.status !== 'active') throw new AppError(AUTH_CODE.ACCOUNT_DISABLED);
  if (passwordNeedsRehash(user.passwordHash)) {
    const upgraded = await hashPassword(password);
    if (await repo.replacePasswordHash(db, user.id, user.passwordHash, upgraded)) {
      return { ...user, passwordHash: upgraded };
    }
  }
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

/**
 * spec §2 password login. An account with two-factor on an untrusted device gets 11007 with an
 * `mfa_ticket` (data), which the phone-verification dialog sends instead of the password.
 */
export async function accountLogin(db: Db, dataDir: string, input: AccountLoginInput, ip: string, now: Date) {
  await consumeCaptcha(db, input.unique_code, input.picture_code);
  const user = await checkPassword(db, input.account, input.password, ip, now);
  if (await needsPhoneVerification(db, user, input.secure_id)) {
    throw new AppError(AUTH_CODE.MFA_REQUIRED, undefined, {
      mfa_ticket: await issueMfaTicket(dataDir, user),
      /** the bound mobile, masked: the dialog shows where the code will go */
      mobile: maskPhone(user.mobile ?? ''),
    });
  }
  return issueSession(db, user);
}

/**
 * spec §2/§4 two-factor check. Answers an anonymous caller the same for every account name, known
 * or not, with two-factor or without (issue 21 L4): the need is told only after the password and
 * the picture code, by account-login's 11007.
 */
export function mfaCheck() {
  return { need_verify: 0 as const };
}

export type MfaLoginInput = { account: string; mfa_ticket: string; mobile?: string; sms_code: string };

/** The account a valid ticket names, active; else the ticket's or the account's refusal. */
async function ticketUser(db: Db, dataDir: string, ticket: string, account: string) {
  const user = await readMfaTicket(db, dataDir, ticket, account);
  if (!user) throw new AppError(AUTH_CODE.MFA_TICKET_INVALID);
  if (user.status !== 'active') throw new AppError(AUTH_CODE.ACCOUNT_DISABLED);
  return user;
}

/**
 * The dialog's code request: to the bound mobile of the account the ticket names, under the same
 * per-mobile and per-IP limits as every login code; answers the mobile masked.
 */
export async function mfaTicketSms(
  db: Db,
  dataDir: string,
  sms: SmsProvider,
  input: { account: string; mfa_ticket: string },
  ip: string,
  clock: Clock,
) {
  const user = await ticketUser(db, dataDir, input.mfa_ticket, input.account);
  if (!user.mobile) throw new AppError(AUTH_CODE.MFA_TICKET_INVALID);
  const sent = await sendSmsCode(db, dataDir, sms, user.mobile, 'login', ip, clock);
  return { ...sent, mobile: maskPhone(user.mobile) };
}

/**
 * The phone-verification dialog's submit: the ticket account-login gave after the password and
 * picture code, the account's own mobile and its SMS code. It checks no password (issue 21 N1).
 */
export async function mfaLogin(db: Db, dataDir: string, input: MfaLoginInput) {
  const user = await ticketUser(db, dataDir, input.mfa_ticket, input.account);
  if (!user.mobile || (input.mobile !== undefined && user.mobile !== input.mobile)) {
    throw new AppError(AUTH_CODE.MOBILE_MISMATCH);
  }
  await verifySmsCode(db, dataDir, user.mobile, 'login', input.sms_code);
  const secureId = await trustNewDevice(db, user.id);
  return { ...(await issueSession(db, user)), secure_id: secureId };
}
