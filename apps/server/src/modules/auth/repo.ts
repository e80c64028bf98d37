import { and, eq, gt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sessions, trustedDevices, users, wecomUsers } from '../../db/schema/index.ts';

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

/**
 * Counts a failed password in one statement; the 5th in a row locks the account for 15 minutes.
 * A lock that has run out starts the count again, so one slip after it does not re-lock.
 * Returns whether the account is now locked.
 */
export async function recordFailedLogin(db: Db, userId: number): Promise<boolean> {
  const lapsed = sql`(${users.lockedUntil} is not null and ${users.lockedUntil} <= now())`;
  const next = sql`(case when ${lapsed} then 1 else ${users.failedLogins} + 1 end)`;
  const [row] = await db
    .update(users)
    .set({
      failedLogins: next,
      lockedUntil: sql`case when ${next} >= ${LOCK_AFTER_FAILURES} then now() + interval '15 minutes'
        when ${lapsed} then null else ${users.lockedUntil} end`,
    })
    .where(eq(users.id, userId))
    .returning({ lockedUntil: users.lockedUntil });
  return Boolean(row?.lockedUntil && row.lockedUntil.getTime() > Date.now());
}

export async function clearFailedLogins(db: Db, userId: number) {
  await db.update(users).set({ failedLogins: 0, lockedUntil: null }).where(eq(users.id, userId));
}

export async function updatePassword(db: Db, userId: number, passwordHash: string, isWeak: boolean) {
  await db
    .update(users)
    .set({ passwordHash, isWeakPassword: isWeak, passwordChangedAt: new Date() })
    .where(eq(users.id, userId));
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
