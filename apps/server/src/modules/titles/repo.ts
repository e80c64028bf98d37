import { and, asc, desc, eq, ilike, inArray, like, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { buyerTitles, clients } from '../../db/schema/index.ts';
import { likeEscape } from '../goods/repo.ts';

export type TitleRow = typeof buyerTitles.$inferSelect;
export type TitleValues = Omit<
  typeof buyerTitles.$inferInsert,
  'id' | 'createdAt' | 'updatedAt' | 'useCount' | 'lastUsedAt'
>;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Conn = Db | Tx;

function filters(clientId: number, keyword: string, titleType?: number): SQL | undefined {
  const kw = likeEscape(keyword);
  return and(
    eq(buyerTitles.clientId, clientId),
    titleType ? eq(buyerTitles.titleType, titleType) : undefined,
    kw
      ? or(ilike(buyerTitles.name, `%${kw}%`), like(buyerTitles.taxCode, `${kw.toUpperCase()}%`))
      : undefined,
  );
}

export async function listTitles(
  db: Db,
  clientId: number,
  q: { keyword: string; titleType?: number; page: number; pageSize: number },
): Promise<{ rows: TitleRow[]; total: number }> {
  const where = filters(clientId, q.keyword, q.titleType);
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(buyerTitles)
      .where(where)
      .orderBy(desc(buyerTitles.updatedAt), desc(buyerTitles.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ n: sql<number>`count(*)::int` }).from(buyerTitles).where(where),
  ]);
  return { rows, total: count?.n ?? 0 };
}

export async function allTitles(
  db: Db,
  clientId: number,
  keyword: string,
  cap = 50_000,
): Promise<TitleRow[]> {
  return db
    .select()
    .from(buyerTitles)
    .where(filters(clientId, keyword))
    .orderBy(asc(buyerTitles.id))
    .limit(cap);
}

/**
 * Autocomplete: names starting with the keyword before names containing it, then tax-code
 * prefixes; most used and most recently used first.
 */
export async function searchTitles(
  db: Db,
  clientId: number,
  keyword: string,
  limit = 10,
): Promise<TitleRow[]> {
  const kw = likeEscape(keyword);
  return db
    .select()
    .from(buyerTitles)
    .where(filters(clientId, keyword))
    .orderBy(
      ...(kw ? [desc(sql`${buyerTitles.name} ilike ${`${kw}%`}`)] : []),
      desc(buyerTitles.useCount),
      sql`${buyerTitles.lastUsedAt} desc nulls last`,
      asc(buyerTitles.name),
    )
    .limit(limit);
}

export async function findTitle(db: Conn, clientId: number, id: number): Promise<TitleRow | undefined> {
  const [row] = await db
    .select()
    .from(buyerTitles)
    .where(and(eq(buyerTitles.clientId, clientId), eq(buyerTitles.id, id)))
    .limit(1);
  return row;
}

export async function findTitleByTaxCode(
  db: Db,
  clientId: number,
  taxCode: string,
): Promise<TitleRow | undefined> {
  const [row] = await db
    .select()
    .from(buyerTitles)
    .where(and(eq(buyerTitles.clientId, clientId), eq(buyerTitles.taxCode, taxCode)))
    .orderBy(desc(buyerTitles.useCount), desc(buyerTitles.updatedAt))
    .limit(1);
  return row;
}

export async function findTitleByName(
  db: Conn,
  clientId: number,
  name: string,
): Promise<TitleRow | undefined> {
  const [row] = await db
    .select()
    .from(buyerTitles)
    .where(and(eq(buyerTitles.clientId, clientId), eq(buyerTitles.name, name)))
    .limit(1);
  return row;
}

export async function insertTitle(db: Conn, values: TitleValues): Promise<TitleRow> {
  const [row] = await db.insert(buyerTitles).values(values).returning();
  return row!;
}

export async function updateTitle(
  db: Conn,
  clientId: number,
  id: number,
  values: TitleValues,
): Promise<TitleRow | undefined> {
  const [row] = await db
    .update(buyerTitles)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(buyerTitles.clientId, clientId), eq(buyerTitles.id, id)))
    .returning();
  return row;
}

export async function deleteTitles(db: Db, clientId: number, ids: number[]): Promise<number> {
  const rows = await db
    .delete(buyerTitles)
    .where(and(eq(buyerTitles.clientId, clientId), inArray(buyerTitles.id, ids)))
    .returning({ id: buyerTitles.id });
  return rows.length;
}

export async function incrementTitleUse(db: Conn, id: number): Promise<void> {
  await db
    .update(buyerTitles)
    .set({ useCount: sql`${buyerTitles.useCount} + 1`, lastUsedAt: sql`now()` })
    .where(eq(buyerTitles.id, id));
}

/** Counts one use of a title; unknown names are saved as new titles. */
export async function bumpTitleUse(db: Conn, values: TitleValues): Promise<TitleRow> {
  const [row] = await db
    .insert(buyerTitles)
    .values({ ...values, useCount: 1, lastUsedAt: sql`now()` })
    .onConflictDoUpdate({
      target: [buyerTitles.clientId, buyerTitles.name],
      set: { useCount: sql`${buyerTitles.useCount} + 1`, lastUsedAt: sql`now()` },
    })
    .returning();
  return row!;
}

export async function upsertTitles(
  db: Conn,
  values: TitleValues[],
): Promise<{ created: number; updated: number }> {
  let created = 0;
  for (let i = 0; i < values.length; i += 500) {
    const rows = await db
      .insert(buyerTitles)
      .values(values.slice(i, i + 500))
      .onConflictDoUpdate({
        target: [buyerTitles.clientId, buyerTitles.name],
        set: {
          titleType: sql`excluded.title_type`,
          taxCode: sql`excluded.tax_code`,
          address: sql`excluded.address`,
          phone: sql`excluded.phone`,
          bankName: sql`excluded.bank_name`,
          bankAccount: sql`excluded.bank_account`,
          email: sql`excluded.email`,
          mobile: sql`excluded.mobile`,
          updatedAt: sql`now()`,
        },
      })
      .returning({ inserted: sql<boolean>`(xmax = 0)` });
    created += rows.filter((r) => r.inserted).length;
  }
  return { created, updated: values.length - created };
}

/** A registered business by tax code (spec §7 get-info-by-tax-code). */
export async function findClientByTaxCode(db: Db, taxCode: string) {
  const [row] = await db
    .select({ id: clients.id, name: clients.name, industry: clients.industry })
    .from(clients)
    .where(eq(clients.taxCode, taxCode))
    .limit(1);
  return row;
}

/**
 * Counts one use per issued blue invoice among `ids` on its buyer's saved title (same business,
 * same name), in one statement (issued-hook.ts). A ranking hint, not a record: committed without
 * waiting for the WAL flush (`synchronous_commit` off for this transaction).
 */
export async function countTitleUses(db: Db, ids: readonly number[]): Promise<void> {
  await db.execute(sql`
    with cfg as (select set_config('synchronous_commit', 'off', true)),
    uses as (
      select i.client_id, i.buyer_name, count(*)::int as n
        from invoices i
       where i.id = any(${`{${ids.join(',')}}`}::bigint[]) and i.direction = 'blue'
       group by i.client_id, i.buyer_name)
    update buyer_titles t
       set use_count = t.use_count + u.n, last_used_at = now()
      from uses u
     where t.client_id = u.client_id and t.name = u.buyer_name and (select count(*) from cfg) = 1`);
}
