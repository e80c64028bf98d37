import { AUTH_CODE, SMS_RESEND_SECONDS, startOfBeijingDay } from '@kaipiao/shared';
import { and, count, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { smsCodes } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { type Clock, systemClock } from '../../lib/clock.ts';
import { codeMatches, hashCode } from '../../lib/code-hash.ts';
import { numericCode } from '../../lib/crypto.ts';
import type { SmsProvider } from '../../providers/sms.ts';

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
    // Stryker disable next-line StringLiteral: an emptied key is one coarser lock; the same sends still queue
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sms-ip:${ip}`}))`);
    // Stryker disable next-line StringLiteral: as above
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sms:${mobile}`}))`);
    const now = clock();
    const [last] = await tx
      .select({ createdAt: smsCodes.createdAt })
      .from(smsCodes)
      .where(eq(smsCodes.mobile, mobile))
      .orderBy(desc(smsCodes.createdAt))
      .limit(1);
    if (last) {
      const wait = SMS_LIMITS.resendSeconds - Math.floor((now.getTime() - last.createdAt.getTime()) / 1000);
      if (wait > 0) {
        throw new AppError(AUTH_CODE.SMS_TOO_FREQUENT, `短信发送过于频繁，请${wait}秒后再试`, {
          number: wait,
        });
      }
    }
    const since = startOfBeijingDay(now);
    const [byMobile] = await tx
      .select({ n: count() })
      .from(smsCodes)
      .where(and(eq(smsCodes.mobile, mobile), gt(smsCodes.createdAt, since)));
    const [byIp] = await tx
      .select({ n: count() })
      .from(smsCodes)
      .where(and(eq(smsCodes.ip, ip), gt(smsCodes.createdAt, since)));
    // Stryker disable next-line OptionalChaining: count() always returns one row
    if ((byMobile?.n ?? 0) >= SMS_LIMITS.perMobilePerDay || (byIp?.n ?? 0) >= SMS_LIMITS.perIpPerDay) {
      throw new AppError(AUTH_CODE.SMS_DAILY_CAP);
    }
    const [row] = await tx
      .insert(smsCodes)
      .values({
        mobile,
        purpose,
        ip,
        codeHash,
        createdAt: now,
        expiresAt: new Date(now.getTime() + SMS_LIMITS.ttlMinutes * 60_000),
      })
      .returning({ id: smsCodes.id });
    return row!.id;
  });
  try {
    await sms.send({
      mobile,
      code,
      content: `【开票台】您的${PURPOSE_TEXT[purpose]}验证码为${code}，${SMS_LIMITS.ttlMinutes}分钟内有效，请勿泄露给他人。`,
    });
  } catch {
    // not delivered: it neither starts the wait nor counts against the caps
    await db.delete(smsCodes).where(eq(smsCodes.id, id));
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
  const newest = db
    .select({ id: smsCodes.id })
    .from(smsCodes)
    .where(
      and(
        eq(smsCodes.mobile, mobile),
        eq(smsCodes.purpose, purpose),
        isNull(smsCodes.usedAt),
        gt(smsCodes.expiresAt, new Date()),
      ),
    )
    .orderBy(desc(smsCodes.createdAt), desc(smsCodes.id))
    .limit(1);
  // the row conditions are re-checked on the locked row, so parallel tries queue up here
  const [row] = await db
    .update(smsCodes)
    .set({ attempts: sql`${smsCodes.attempts} + 1` })
    .where(
      and(
        sql`${smsCodes.id} = (${newest})`,
        isNull(smsCodes.usedAt),
        lt(smsCodes.attempts, SMS_LIMITS.maxAttempts),
      ),
    )
    .returning({ id: smsCodes.id, codeHash: smsCodes.codeHash });
  if (!row || !(await codeMatches(dataDir, mobile, code, row.codeHash))) {
    throw new AppError(AUTH_CODE.BAD_SMS_CODE);
  }
  const used = await db
    .update(smsCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(smsCodes.id, row.id), isNull(smsCodes.usedAt)))
    .returning({ id: smsCodes.id });
  if (used.length === 0) throw new AppError(AUTH_CODE.BAD_SMS_CODE);
}
