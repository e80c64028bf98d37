import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users, wecomUsers } from '../../db/schema/index.ts';

/** The accounts a person trying the demo can pick on the sandbox pages. */
export async function listAccounts(db: Db) {
  return db
    .select({ id: users.id, account: users.account, nickname: users.nickname })
    .from(users)
    .where(eq(users.status, 'active'))
    .orderBy(asc(users.id))
    .limit(20);
}

export async function findAccount(db: Db, account: string) {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.account, account)).limit(1);
  return rows[0] ?? null;
}

export async function listWecomMembers(db: Db) {
  return db
    .select({
      corpId: wecomUsers.corpId,
      qwUserId: wecomUsers.qwUserId,
      role: wecomUsers.role,
      account: users.account,
    })
    .from(wecomUsers)
    .leftJoin(users, eq(users.id, wecomUsers.userId))
    .orderBy(asc(wecomUsers.corpId), asc(wecomUsers.qwUserId))
    .limit(50);
}
