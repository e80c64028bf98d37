import { AUTH_CODE, SMS_RESEND_SECONDS, startOfBeijingDay } from '@kaipiao/shared';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { type Clock, systemClock } from '../../lib/clock.ts';
import { codeMatches, hashCode } from '../../lib/code-hash.ts';
import { numericCode } from '../../lib/crypto.ts';
import type { SmsProvider } from '../../providers/sms.ts';
import {
  deleteSmsCode,
  insertSmsCode,
  lastSmsCode,
  lockSmsSender,
  reserveSmsTry,
  smsCountsSince,
  useSmsCode,
} from './repo.ts';

export const SMS_LIMITS = {
  resendSeconds: SMS_RESEND_SECONDS,
  ttlMinutes: 5,
  perMobilePerDay: 10,
  perIpPerDay: 50,
  maxAttempts: 5,
} as const;

export type SmsPurpose = 'login' | 'reset_password' | 'bind_mobile' | 'secure_id';

/** What the code is for, in the SMS: 您的<purpose>验证码为… */
const PURPOSE_TEXT: Record<SmsPurpose, string> = {
  login: '登录',
  reset_password: '修改密码',
  bind_mobile: '绑定手机',
  secure_id: '身份',
};

/**
 * Sends a 6-digit code. The server enforces the 60 s resend wait and the daily caps per mobile
 * and per IP (architecture.md §7), whatever the page's countdown says. The checks and the insert
 * run under a per-IP and a per-mobile lock (taken in that order by every sender), so parallel
 * requests cannot both pass the wait or the same cap. The code is kept only as a salted HMAC. The
 * wait and the day (Beijing) are read on `clock` once the locks are held (lib/clock.ts).
 */
export async function sendSmsCode(
  db: Db,
  dataDir: string,
  sms: SmsProvider,
  mobile: string,
  purpose: SmsPurpose,
  ip: string,
  clock: Clock = systemClock,
) {
  const code = numericCode(6);
  const codeHash = await hashCode(dataDir, mobile, code);
  const id = await db.transaction(async (tx) => {
    await lockSmsSender(tx, ip, mobile);
    const now = clock();
    const last = await lastSmsCode(tx, mobile);
    if (last) {
      const wait = SMS_LIMITS.resendSeconds - Math.floor((now.getTime() - last.createdAt.getTime()) / 1000);
      if (wait > 0) {
        throw new AppError(AUTH_CODE.SMS_TOO_FREQUENT, `短信发送过于频繁，请${wait}秒后再试`, {
          number: wait,
        });
      }
    }
    const since = startOfBeijingDay(now);
    const { byMobile, byIp } = await smsCountsSince(tx, mobile, ip, since);
    // Stryker disable next-line OptionalChaining: count() always returns one row
    if ((byMobile?.n ?? 0) >= SMS_LIMITS.perMobilePerDay || (byIp?.n ?? 0) >= SMS_LIMITS.perIpPerDay) {
      throw new AppError(AUTH_CODE.SMS_DAILY_CAP);
    }
    return insertSmsCode(tx, {
      mobile,
      purpose,
      ip,
      codeHash,
      createdAt: now,
      expiresAt: new Date(now.getTime() + SMS_LIMITS.ttlMinutes * 60_000),
    });
  });
  try {
    await sms.send({
      mobile,
      code,
      content: `【开票台】您的${PURPOSE_TEXT[purpose]}验证码为${code}，${SMS_LIMITS.ttlMinutes}分钟内有效，请勿泄露给他人。`,
    });
  } catch {
    // not delivered: it neither starts the wait nor counts against the caps
    await deleteSmsCode(db, id);
    throw new AppError(AUTH_CODE.SMS_SEND_FAILED);
  }
  return { number: SMS_LIMITS.resendSeconds };
}

/**
 * Checks and consumes the newest live code for this mobile and purpose; 5 tries burn it. Each try
 * is reserved in one UPDATE before the code is compared, so a burst of parallel guesses gets no
 * more than 5 comparisons, like guesses sent one after the other.
 */
export async function verifySmsCode(
  db: Db,
  dataDir: string,
  mobile: string,
  purpose: SmsPurpose,
  code: string,
): Promise<void> {
  const row = await reserveSmsTry(db, mobile, purpose, SMS_LIMITS.maxAttempts);
  if (!row || !(await codeMatches(dataDir, mobile, code, row.codeHash))) {
    throw new AppError(AUTH_CODE.BAD_SMS_CODE);
  }
  if (!(await useSmsCode(db, row.id))) throw new AppError(AUTH_CODE.BAD_SMS_CODE);
}
