import { and, eq, gt, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  authorityRules,
  clientStores,
  clients,
  employeeScopes,
  employees,
  orgs,
  sessions,
  users,
} from '../../db/schema/index.ts';

export type SessionRow = typeof sessions.$inferSelect;

/** The session of a token, while it has not expired and its user is not disabled. */
export async function findLiveSession(db: Db, tokenHash: string): Promise<SessionRow | null> {
  const rows = await db
    .select({ session: sessions })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, new Date()), eq(users.status, 'active')),
    )
    .limit(1);
  return rows[0]?.session ?? null;
}

export async function insertSession(db: Db, row: typeof sessions.$inferInsert) {
  await db.insert(sessions).values(row);
}

export async function deleteSession(db: Db, tokenHash: string) {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

export async function setSessionOrg(db: Db, tokenHash: string, orgId: number) {
  await db.update(sessions).set({ orgId }).where(eq(sessions.tokenHash, tokenHash));
}

export async function findClient(db: Db, clientId: number) {
  const rows = await db
    .select({ client: clients, org: orgs })
    .from(clients)
    .innerJoin(orgs, eq(orgs.id, clients.orgId))
    .where(eq(clients.id, clientId))
    .limit(1);
  return rows[0] ?? null;
}

export async function findEmployee(db: Db, userId: number, orgId: number) {
  const rows = await db
    .select({ employee: employees, ruleUrls: authorityRules.urls })
    .from(employees)
    .leftJoin(authorityRules, eq(authorityRules.id, employees.authorityRuleId))
    .where(and(eq(employees.userId, userId), eq(employees.orgId, orgId), eq(employees.status, 'active')))
    .limit(1);
  return rows[0] ?? null;
}

export async function listScopes(db: Db, employeeId: number, clientId?: number) {
  const where = clientId
    ? and(eq(employeeScopes.employeeId, employeeId), eq(employeeScopes.clientId, clientId))
    : eq(employeeScopes.employeeId, employeeId);
  return db.select().from(employeeScopes).where(where);
}

export async function listOrgsOfUser(db: Db, userId: number) {
  return db
    .select({ id: orgs.id, name: orgs.name, isGroupAdmin: employees.isGroupAdmin, role: employees.role })
    .from(employees)
    .innerJoin(orgs, eq(orgs.id, employees.orgId))
    .where(and(eq(employees.userId, userId), eq(employees.status, 'active')))
    .orderBy(orgs.id);
}

export async function listClientsOfOrgs(db: Db, orgIds: number[]) {
  if (orgIds.length === 0) return [];
  return db.select().from(clients).where(inArray(clients.orgId, orgIds)).orderBy(clients.id);
}

export async function listActiveStores(db: Db, clientId: number) {
  return db
    .select()
    .from(clientStores)
    .where(and(eq(clientStores.clientId, clientId), eq(clientStores.status, 'active')))
    .orderBy(clientStores.id);
}

export async function findUser(db: Db, userId: number) {
  const rows = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  return rows[0] ?? null;
}
