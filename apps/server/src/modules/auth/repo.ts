import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { trustedDevices, users } from '../../db/schema/index.ts';

export type UserRow = typeof users.$inferSelect;

export async function findUserByAccount(db: Db, account: string): Promise<UserRow | null> {
  const rows = await db.select().from(users).where(eq(users.account, account)).limit(1);
  return rows[0] ?? null;
}

export async function findUserById(db: Db, id: number): Promise<UserRow | null> {
  const rows = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0] ?? null;
}

/** Counts a failed password; the 5th in a row locks the account for 15 minutes. */
export async function recordFailedLogin(db: Db, userId: number) {
  await db
    .update(users)
    .set({
      failedLogins: sql`${users.failedLogins} + 1`,
      lockedUntil: sql`case when ${users.failedLogins} + 1 >= 5 then now() + interval '15 minutes' else ${users.lockedUntil} end`,
    })
    .where(eq(users.id, userId));
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
