import { and, eq, gt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { loginAttempts, sessions, trustedDevices, users, wecomUsers } from '../../db/schema/index.ts';

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
