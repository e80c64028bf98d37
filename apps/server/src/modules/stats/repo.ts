import { startOfBeijingDay } from '@kaipiao/shared';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clients, homePromptStates, users } from '../../db/schema/index.ts';
import { BEIJING_TZ } from '../../lib/beijing-sql.ts';
import type { StoreScope } from '../../lib/scope.ts';
import { nextDay } from '../query/scope.ts';

/**
 * The statistics' SQL (issue 3 item 8): sums over issued invoices, and the home page's prompt
 * states. Only `status = 'issued'` counts (red invoices carry negative amounts, so sums net them
 * out); days are Beijing-time calendar days. Reads go through invoices_stat_idx (partial on
 * status = 'issued', covering the summed columns). The rules that read these rows are service.ts's.
 */

/** The business and the stores summed (lib/scope.ts): `storeIds` null = every store. */
export type StatScope = StoreScope;

function issuedIn(scope: StatScope, from: string, to: string): SQL {
  const parts: SQL[] = [
    sql`i.client_id = ${scope.clientId}`,
    sql`i.status = 'issued'`,
    sql`i.issued_at >= ${startOfBeijingDay(from).toISOString()}::timestamptz`,
    sql`i.issued_at < ${startOfBeijingDay(nextDay(to)).toISOString()}::timestamptz`,
  ];
  if (scope.storeIds !== null) {
    parts.push(sql`i.store_id = any(${`{${scope.storeIds.join(',') || '0'}}`}::int[])`);
  }
  return sql.join(parts, sql` and `);
}

export type SumRow = {
  n: number | string;
  amount: string | null;
  tax: string | null;
  with_tax: string | null;
};

const SUM_COLUMNS = sql.raw(
  'count(*) as n, sum(i.total_amount) as amount, sum(i.total_tax) as tax, sum(i.total_with_tax) as with_tax',
);

export type GroupedRow = SumRow & {
  g_period: number;
  g_type: number;
  g_store: number;
  g_dir: number;
  period: string | null;
  invoice_type: string | null;
  store_id: number | null;
  direction: string | null;
};

export type RateRow = {
  tax_rate: string;
  zero_rate_flag: string;
  n: number;
  amount: string;
  tax: string;
  with_tax: string;
};

/**
 * The sums of issued invoices in [from, to] in one pass, grouped by (period, direction), kind, store
 * and direction and overall (grouping sets; `g_*` = 1 where a column is rolled up); the lines summed
 * by rate; and the business's store names.
 */
export async function selectStatRows(
  db: Db,
  scope: StatScope,
  q: { date_from: string; date_to: string; granularity: 'day' | 'month' },
) {
  const where = issuedIn(scope, q.date_from, q.date_to);
  const fmt = q.granularity === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM';
  const period = sql`to_char(i.issued_at at time zone ${BEIJING_TZ}, ${sql.raw(`'${fmt}'`)})`;
  const [grouped, rates, stores] = await Promise.all([
    db.execute<GroupedRow>(sql`
      select grouping(${period}) as g_period, grouping(i.invoice_type) as g_type,
        grouping(i.store_id) as g_store, grouping(i.direction) as g_dir,
        ${period} as period, i.invoice_type, i.store_id, i.direction, ${SUM_COLUMNS}
      from invoices i
      where ${where}
      group by grouping sets ((${period}, i.direction), (i.invoice_type), (i.store_id), (i.direction), ())`),
    db.execute<RateRow>(sql`
      select l.tax_rate, l.zero_rate_flag, count(*) as n, sum(l.amount) as amount, sum(l.tax_amount) as tax,
        sum(l.amount_with_tax) as with_tax
      from invoices i join invoice_lines l on l.invoice_id = i.id
      where ${where}
      group by l.tax_rate, l.zero_rate_flag`),
    db.execute<{ id: number; name: string }>(
      sql`select id, name from client_stores where client_id = ${scope.clientId}`,
    ),
  ]);
  return { grouped: grouped.rows, rates: rates.rows, stores: stores.rows };
}

/** Count and sums of issued invoices in [from, to]; `types` narrows to some kinds. */
export async function selectIssuedSums(
  db: Db,
  scope: StatScope,
  from: string,
  to: string,
  types?: readonly string[],
): Promise<SumRow | undefined> {
  const typeCond = types ? sql` and i.invoice_type = any(${`{${types.join(',')}}`}::text[])` : sql``;
  const res = await db.execute<SumRow>(
    sql`select ${SUM_COLUMNS} from invoices i where ${issuedIn(scope, from, to)}${typeCond}`,
  );
  return res.rows[0];
}

/** The same sums split by direction: one row per direction that has invoices ('blue', 'red'). */
export async function selectIssuedSumsByDirection(
  db: Db,
  scope: StatScope,
  from: string,
  to: string,
): Promise<(SumRow & { direction: string })[]> {
  const res = await db.execute<SumRow & { direction: string }>(
    sql`select i.direction, ${SUM_COLUMNS} from invoices i where ${issuedIn(scope, from, to)} group by i.direction`,
  );
  return res.rows;
}

export async function selectTaxpayerType(db: Db, clientId: number): Promise<string | undefined> {
  const rows = await db
    .select({ taxpayerType: clients.taxpayerType })
    .from(clients)
    .where(eq(clients.id, clientId));
  return rows[0]?.taxpayerType;
}

/** The user's home prompt states in the business. */
export async function selectPromptStates(db: Db, userId: number, clientId: number) {
  return db
    .select()
    .from(homePromptStates)
    .where(and(eq(homePromptStates.userId, userId), eq(homePromptStates.clientId, clientId)));
}

/** users.tax_rate_change_tips: 1 while the user has not closed the tip for every business. */
export async function selectTaxRateTips(db: Db, userId: number): Promise<number | undefined> {
  const rows = await db.select({ tips: users.taxRateChangeTips }).from(users).where(eq(users.id, userId));
  return rows[0]?.tips;
}

/** The small-scale notice confirmed today, and never shown again once `never` was asked. */
export async function confirmSmallScaleNotice(
  db: Db,
  v: { userId: number; clientId: number; never: boolean; today: string },
): Promise<void> {
  await db
    .insert(homePromptStates)
    .values({
      userId: v.userId,
      clientId: v.clientId,
      prompt: 'small_scale_notice',
      never: v.never,
      confirmedOn: v.today,
    })
    .onConflictDoUpdate({
      target: [homePromptStates.userId, homePromptStates.clientId, homePromptStates.prompt],
      set: {
        never: sql`${homePromptStates.never} or ${v.never}`,
        confirmedOn: v.today,
        updatedAt: new Date(),
      },
    });
}

/** The tax-rate tip closed for one business of the user. */
export async function closeTaxRateTipFor(db: Db, userId: number, clientId: number): Promise<void> {
  await db
    .insert(homePromptStates)
    .values({ userId, clientId, prompt: 'tax_rate_tip', never: true })
    .onConflictDoUpdate({
      target: [homePromptStates.userId, homePromptStates.clientId, homePromptStates.prompt],
      set: { never: true, updatedAt: new Date() },
    });
}

/** The tax-rate tip closed for every business of the user. */
export async function closeTaxRateTips(db: Db, userId: number): Promise<void> {
  await db.update(users).set({ taxRateChangeTips: 0 }).where(eq(users.id, userId));
}
