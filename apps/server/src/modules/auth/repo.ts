import { and, count, desc, eq, gt, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  loginAttempts,
  qrLogins,
  sessions,
  smsCodes,
  trustedDevices,
  users,
  wecomUsers,
} from '../../db/schema/index.ts';

export type UserRow = typeof users.$inferSelect;

export const LOCK_AFTER_FAILURES = 5;

export async function findUserByAccount(db: Db, account: string): Promise<UserRow | null> {
  const rows = await db.select().from(users).where(eq(users.account, account)).limit(1);
  return rows[0] ?? null;
}

export async function findUserById(db: Db, id: number): Promise<UserRow | null> {
  const rows = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0] ?? null;
}

/** Minutes an account name stays locked after LOCK_AFTER_FAILURES failed passwords in a row. */
export const LOCK_MINUTES = 15;

/**
 * Reserves one password attempt for `account` (a known or an unknown name) BEFORE the password is
 * checked, in one statement: an attempt counts as failed until a success deletes the row, so a
 * burst of parallel guesses gets exactly as many checks as guesses sent one after the other. The
 * attempt that reaches LOCK_AFTER_FAILURES locks the name for 15 minutes (a right password on that
 * very attempt still gets in and clears it). A lock that has run out starts the count again.
 * Returns null while the name is locked (nothing reserved, the password must not be checked),
 * else the attempt's number.
 */
export async function reserveLoginAttempt(db: Db, account: string): Promise<number | null> {
  const lapsed = sql`(${loginAttempts.lockedUntil} is not null and ${loginAttempts.lockedUntil} <= now())`;
  const next = sql`(case when ${lapsed} then 1 else ${loginAttempts.failures} + 1 end)`;
  const [row] = await db
    .insert(loginAttempts)
    .values({ account, failures: 1 })
    .onConflictDoUpdate({
      target: loginAttempts.account,
      set: {
        failures: next,
        lockedUntil: sql`case when ${next} >= ${LOCK_AFTER_FAILURES}
          then now() + make_interval(mins => ${LOCK_MINUTES}) when ${lapsed} then null else ${loginAttempts.lockedUntil} end`,
        updatedAt: sql`now()`,
      },
      setWhere: sql`${loginAttempts.lockedUntil} is null or ${loginAttempts.lockedUntil} <= now()`,
    })
    .returning({ failures: loginAttempts.failures });
  // opportunistic cleanup: names not tried for a day and not locked start from scratch
  if (Math.random() < 0.02) {
    await db
      .delete(loginAttempts)
      .where(
        sql`${loginAttempts.updatedAt} < now() - interval '1 day' and (${loginAttempts.lockedUntil} is null or ${loginAttempts.lockedUntil} <= now())`,
      );
  }
  return row ? row.failures : null;
}

/** A right password: the name's count starts again. */
export async function clearLoginAttempts(db: Db, account: string) {
  await db.delete(loginAttempts).where(eq(loginAttempts.account, account));
}

export async function updatePassword(db: Db, userId: number, passwordHash: string, isWeak: boolean) {
  await db
    .update(users)
    .set({ passwordHash, isWeakPassword: isWeak, passwordChangedAt: new Date() })
    .where(eq(users.id, userId));
}

/** An upgraded hash of the same password (a stronger cost); not over a password changed meanwhile. */
export async function replacePasswordHash(db: Db, userId: number, oldHash: string, newHash: string) {
  const rows = await db
    .update(users)
    .set({ passwordHash: newHash })
    .where(and(eq(users.id, userId), eq(users.passwordHash, oldHash)))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Ends every session of the user but the one given; returns the ended token hashes. */
export async function deleteOtherSessions(db: Db, userId: number, keepTokenHash: string): Promise<string[]> {
  const rows = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.tokenHash, keepTokenHash)))
    .returning({ tokenHash: sessions.tokenHash });
  return rows.map((r) => r.tokenHash);
}

export async function isTrustedDevice(db: Db, userId: number, secureIdHash: string): Promise<boolean> {
  const rows = await db
    .select({ h: trustedDevices.secureIdHash })
    .from(trustedDevices)
    .where(
      and(
        eq(trustedDevices.secureIdHash, secureIdHash),
        eq(trustedDevices.userId, userId),
        gt(trustedDevices.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export async function trustDevice(db: Db, userId: number, secureIdHash: string, days = 30) {
  await db
    .insert(trustedDevices)
    .values({ userId, secureIdHash, expiresAt: new Date(Date.now() + days * 86_400_000) })
    .onConflictDoNothing();
}

export async function findWecomUser(db: Db, corpId: string, qwUserId: string) {
  const rows = await db
    .select()
    .from(wecomUsers)
    .where(and(eq(wecomUsers.corpId, corpId), eq(wecomUsers.qwUserId, qwUserId)))
    .limit(1);
  return rows[0] ?? null;
}

/** A fresh login QR (qr-login.ts), waiting until `expiresAt`. */
export async function insertQrLogin(db: Db, id: string, expiresAt: Date) {
  await db.insert(qrLogins).values({ id, expiresAt });
}

/** Cleanup: login QRs expired more than a day ago. */
export async function deleteStaleQrLogins(db: Db) {
  await db.delete(qrLogins).where(lt(qrLogins.expiresAt, sql`now() - interval '1 day'`));
}

export async function findQrLogin(db: Db, id: string) {
  const [row] = await db.select().from(qrLogins).where(eq(qrLogins.id, id)).limit(1);
  return row;
}

/** Confirmed → consumed, once, while not expired; the user it was confirmed for (undefined when another poll took it). */
export async function consumeConfirmedQr(db: Db, id: string) {
  const [claimed] = await db
    .update(qrLogins)
    .set({ status: 'consumed' })
    .where(and(eq(qrLogins.id, id), eq(qrLogins.status, 'confirmed'), gt(qrLogins.expiresAt, new Date())))
    .returning({ userId: qrLogins.userId });
  return claimed;
}

/**
 * The phone's step on a live QR: scan (waiting → scanned) or confirm (waiting / scanned →
 * confirmed, by the user who scanned it or, not yet scanned, anyone); false when it did not apply.
 */
export async function moveQrLogin(
  db: Db,
  id: string,
  userId: number,
  step: 'scan' | 'confirm',
  next: 'scanned' | 'confirmed',
): Promise<boolean> {
  const notExpired = gt(qrLogins.expiresAt, new Date());
  const sameUser = or(isNull(qrLogins.userId), eq(qrLogins.userId, userId));
  const where =
    step === 'scan'
      ? and(eq(qrLogins.id, id), eq(qrLogins.status, 'waiting'), notExpired)
      : and(eq(qrLogins.id, id), inArray(qrLogins.status, ['waiting', 'scanned']), sameUser, notExpired);
  const rows = await db
    .update(qrLogins)
    .set({ status: next, userId })
    .where(where)
    .returning({ id: qrLogins.id });
  return rows.length > 0;
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * The SMS senders' locks (sms-codes.ts), per IP then per mobile, held to the end of the
 * transaction: parallel sends for either queue here.
 */
export async function lockSmsSender(tx: Tx, ip: string, mobile: string) {
  // Stryker disable next-line StringLiteral: an emptied key is one coarser lock; the same sends still queue
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sms-ip:${ip}`}))`);
  // Stryker disable next-line StringLiteral: as above
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sms:${mobile}`}))`);
}

/** When the newest code to this mobile was sent (undefined: never). */
export async function lastSmsCode(tx: Tx, mobile: string) {
  const [last] = await tx
    .select({ createdAt: smsCodes.createdAt })
    .from(smsCodes)
    .where(eq(smsCodes.mobile, mobile))
    .orderBy(desc(smsCodes.createdAt))
    .limit(1);
  return last;
}

/** Codes sent since `since` to the mobile and from the IP. */
export async function smsCountsSince(tx: Tx, mobile: string, ip: string, since: Date) {
  const [byMobile] = await tx
    .select({ n: count() })
    .from(smsCodes)
    .where(and(eq(smsCodes.mobile, mobile), gt(smsCodes.createdAt, since)));
  const [byIp] = await tx
    .select({ n: count() })
    .from(smsCodes)
    .where(and(eq(smsCodes.ip, ip), gt(smsCodes.createdAt, since)));
  return { byMobile, byIp };
}

export async function insertSmsCode(tx: Tx, c: typeof smsCodes.$inferInsert): Promise<number> {
  const [row] = await tx.insert(smsCodes).values(c).returning({ id: smsCodes.id });
  return row!.id;
}

/** A code not delivered: gone, so it neither starts the wait nor counts against the caps. */
export async function deleteSmsCode(db: Db, id: number) {
  await db.delete(smsCodes).where(eq(smsCodes.id, id));
}

/**
 * Reserves one try on the newest live code for this mobile and purpose (fewer than `maxAttempts`
 * so far), in one UPDATE: the row conditions are re-checked on the locked row, so parallel tries
 * queue up. The code's id and hash, or undefined when there is none left to try.
 */
export async function reserveSmsTry(db: Db, mobile: string, purpose: string, maxAttempts: number) {
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
      and(sql`${smsCodes.id} = (${newest})`, isNull(smsCodes.usedAt), lt(smsCodes.attempts, maxAttempts)),
    )
    .returning({ id: smsCodes.id, codeHash: smsCodes.codeHash });
  return row;
}

/** Marks the code used; false when another try used it first. */
export async function useSmsCode(db: Db, id: number): Promise<boolean> {
  const used = await db
    .update(smsCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(smsCodes.id, id), isNull(smsCodes.usedAt)))
    .returning({ id: smsCodes.id });
  return used.length > 0;
}
