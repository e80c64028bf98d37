import { and, asc, desc, eq, ilike, inArray, like, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clients, goods, taxClassCodes } from '../../db/schema/index.ts';
import type { TaxClassSeed } from './tax-class-data.ts';

export type GoodsRow = typeof goods.$inferSelect;
export type GoodsValues = Omit<typeof goods.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;
export type TaxClassRow = typeof taxClassCodes.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Conn = Db | Tx;

/** `%` and `_` typed by a user match themselves. */
export const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

// ---------------------------------------------------------------- classification codes

export async function upsertTaxClassCodes(db: Db, seeds: readonly TaxClassSeed[]): Promise<void> {
  if (seeds.length === 0) return;
  await db
    .insert(taxClassCodes)
    .values(
      seeds.map((s) => ({
        code: s.code,
        name: s.name,
        shortName: s.shortName,
        rates: s.rates,
        levyRates: s.levyRates,
        preferentialOptions: s.preferential,
        isSummary: s.isSummary ?? false,
        specialBusiness: s.specialBusiness ?? null,
        keywords: s.keywords ?? '',
      })),
    )
    .onConflictDoUpdate({
      target: taxClassCodes.code,
      set: {
        name: sql`excluded.name`,
        shortName: sql`excluded.short_name`,
        rates: sql`excluded.rates`,
        levyRates: sql`excluded.levy_rates`,
        preferentialOptions: sql`excluded.preferential_options`,
        isSummary: sql`excluded.is_summary`,
        specialBusiness: sql`excluded.special_business`,
        keywords: sql`excluded.keywords`,
        updatedAt: sql`now()`,
      },
    });
}

export async function findTaxClass(db: Conn, code: string): Promise<TaxClassRow | undefined> {
  const [row] = await db.select().from(taxClassCodes).where(eq(taxClassCodes.code, code)).limit(1);
  return row;
}

export async function allTaxClasses(db: Conn): Promise<TaxClassRow[]> {
  return db.select().from(taxClassCodes);
}

/** Usable (non-summary) codes by name, 简称 or keyword (contains) or code (prefix). */
export async function searchTaxClasses(db: Db, keyword: string, limit: number): Promise<TaxClassRow[]> {
  const kw = likeEscape(keyword);
  const where: SQL[] = [eq(taxClassCodes.isSummary, false)];
  if (kw) {
    where.push(
      or(
        like(taxClassCodes.code, `${kw}%`),
        ilike(taxClassCodes.name, `%${kw}%`),
        ilike(taxClassCodes.shortName, `%${kw}%`),
        ilike(taxClassCodes.keywords, `%${kw}%`),
      )!,
    );
  }
  return db
    .select()
    .from(taxClassCodes)
    .where(and(...where))
    .orderBy(
      // names that start with the keyword first, then by code
      ...(kw ? [desc(sql`${taxClassCodes.name} ilike ${`${kw}%`}`)] : []),
      asc(taxClassCodes.code),
    )
    .limit(limit);
}

// ---------------------------------------------------------------- goods

export async function taxpayerTypeOf(db: Db, clientId: number): Promise<'general' | 'small'> {
  const [row] = await db
    .select({ t: clients.taxpayerType })
    .from(clients)
    .where(eq(clients.id, clientId))
    .limit(1);
  return row?.t === 'small' ? 'small' : 'general';
}

const goodsColumns = { goods, taxClassName: taxClassCodes.name };
export type GoodsWithClass = { goods: GoodsRow; taxClassName: string | null };

function keywordFilter(keyword: string): SQL | undefined {
  const kw = likeEscape(keyword);
  if (!kw) return undefined;
  return or(
    ilike(goods.name, `%${kw}%`),
    ilike(goods.shortName, `%${kw}%`),
    like(goods.taxClassCode, `${kw}%`),
  );
}

export async function listGoods(
  db: Db,
  clientId: number,
  q: { keyword: string; page: number; pageSize: number },
): Promise<{ rows: GoodsWithClass[]; total: number }> {
  const where = and(eq(goods.clientId, clientId), keywordFilter(q.keyword));
  const [rows, [count]] = await Promise.all([
    db
      .select(goodsColumns)
      .from(goods)
      .leftJoin(taxClassCodes, eq(taxClassCodes.code, goods.taxClassCode))
      .where(where)
      .orderBy(desc(goods.isDefault), desc(goods.updatedAt), desc(goods.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ n: sql<number>`count(*)::int` }).from(goods).where(where),
  ]);
  return { rows, total: count?.n ?? 0 };
}

/** Every goods item matching `keyword`, for export (capped). */
export async function allGoods(db: Db, clientId: number, keyword: string, cap = 50_000) {
  return db
    .select(goodsColumns)
    .from(goods)
    .leftJoin(taxClassCodes, eq(taxClassCodes.code, goods.taxClassCode))
    .where(and(eq(goods.clientId, clientId), keywordFilter(keyword)))
    .orderBy(desc(goods.isDefault), asc(goods.id))
    .limit(cap);
}

export async function findGoods(db: Conn, clientId: number, id: number): Promise<GoodsWithClass | undefined> {
  const [row] = await db
    .select(goodsColumns)
    .from(goods)
    .leftJoin(taxClassCodes, eq(taxClassCodes.code, goods.taxClassCode))
    .where(and(eq(goods.clientId, clientId), eq(goods.id, id)))
    .limit(1);
  return row;
}

export async function findDefaultGoods(db: Db, clientId: number): Promise<GoodsWithClass | undefined> {
  const [row] = await db
    .select(goodsColumns)
    .from(goods)
    .leftJoin(taxClassCodes, eq(taxClassCodes.code, goods.taxClassCode))
    .where(and(eq(goods.clientId, clientId), eq(goods.isDefault, true)))
    .limit(1);
  return row;
}

export async function clearDefault(tx: Conn, clientId: number, exceptId?: number): Promise<void> {
  await tx
    .update(goods)
    .set({ isDefault: false })
    .where(
      and(
        eq(goods.clientId, clientId),
        eq(goods.isDefault, true),
        exceptId ? sql`${goods.id} <> ${exceptId}` : undefined,
      ),
    );
}

export async function setDefault(tx: Conn, clientId: number, id: number, isDefault: boolean): Promise<void> {
  await tx
    .update(goods)
    .set({ isDefault, updatedAt: sql`now()` })
    .where(and(eq(goods.clientId, clientId), eq(goods.id, id)));
}

export async function insertGoods(tx: Conn, values: GoodsValues): Promise<GoodsRow> {
  const [row] = await tx.insert(goods).values(values).returning();
  return row!;
}

export async function updateGoods(
  tx: Conn,
  clientId: number,
  id: number,
  values: GoodsValues,
): Promise<GoodsRow | undefined> {
  const [row] = await tx
    .update(goods)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(goods.clientId, clientId), eq(goods.id, id)))
    .returning();
  return row;
}

export async function deleteGoods(db: Db, clientId: number, ids: number[]): Promise<number> {
  const rows = await db
    .delete(goods)
    .where(and(eq(goods.clientId, clientId), inArray(goods.id, ids)))
    .returning({ id: goods.id });
  return rows.length;
}

/** Insert-or-update by (business, name, spec); reports how many rows were new. */
export async function upsertGoods(
  tx: Conn,
  values: GoodsValues[],
): Promise<{ created: number; updated: number }> {
  let created = 0;
  for (let i = 0; i < values.length; i += 500) {
    const chunk = values.slice(i, i + 500);
    const rows = await tx
      .insert(goods)
      .values(chunk)
      .onConflictDoUpdate({
        target: [goods.clientId, goods.name, goods.spec],
        set: {
          taxClassCode: sql`excluded.tax_class_code`,
          shortName: sql`excluded.short_name`,
          unit: sql`excluded.unit`,
          price: sql`excluded.price`,
          priceIncludesTax: sql`excluded.price_includes_tax`,
          taxRate: sql`excluded.tax_rate`,
          preferentialCode: sql`excluded.preferential_code`,
          zeroRateFlag: sql`excluded.zero_rate_flag`,
          isDefault: sql`excluded.is_default or ${goods.isDefault}`,
          updatedAt: sql`now()`,
        },
      })
      .returning({ inserted: sql<boolean>`(xmax = 0)` });
    created += rows.filter((r) => r.inserted).length;
  }
  return { created, updated: values.length - created };
}
