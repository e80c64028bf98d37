import { computeLine, computeTotals } from '@kaipiao/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  clientStores,
  clients,
  invoiceEvents,
  invoiceLines,
  invoices,
  taxDevices,
  users,
} from '../../db/schema/index.ts';
import { DEMO } from '../../db/seed/demo.ts';

/**
 * A small, fully known set of invoices for the library and statistics tests (amounts chosen so the
 * expected sums can be checked by hand). Times are Beijing time.
 */

export type Fixture = {
  software: number;
  hotel: number;
  stores: Record<'HQ' | 'BJ' | 'SH' | 'BS', number>;
  admin: number;
  clerk: number;
  ids: Record<string, number>;
  numbers: Record<string, string>;
};

type Spec = {
  key: string;
  client: 'software' | 'hotel';
  store: 'HQ' | 'BJ' | 'SH' | 'BS';
  type: string;
  direction?: 'blue' | 'red';
  status?: string;
  redStatus?: string;
  at: Date;
  buyer: string;
  buyerTaxCode?: string;
  /** tax-exclusive amounts and rates; negative for red */
  lines: { amount: string; rate: string }[];
  original?: string;
  user: 'admin' | 'clerk';
};

const bj = (s: string) => new Date(`${s}+08:00`);

export const SPECS: Spec[] = [
  {
    key: 'A',
    client: 'software',
    store: 'HQ',
    type: '82',
    at: bj('2026-11-10T10:00:00'),
    buyer: '杭州星河网络科技有限公司',
    buyerTaxCode: '91330106MA2STAR01X',
    lines: [{ amount: '1000.00', rate: '0.06' }],
    user: 'clerk',
  },
  {
    key: 'B',
    client: 'software',
    store: 'BJ',
    type: '81',
    redStatus: 'full',
    at: bj('2026-11-11T10:00:00'),
    buyer: '上海云帆信息技术有限公司',
    buyerTaxCode: '91310115MA1YUNFAN2',
    lines: [{ amount: '2000.00', rate: '0.06' }],
    user: 'admin',
  },
  {
    key: 'C',
    client: 'software',
    store: 'BJ',
    type: '81',
    direction: 'red',
    at: bj('2026-11-12T10:00:00'),
    buyer: '上海云帆信息技术有限公司',
    buyerTaxCode: '91310115MA1YUNFAN2',
    lines: [{ amount: '-2000.00', rate: '0.06' }],
    original: 'B',
    user: 'admin',
  },
  {
    key: 'D',
    client: 'software',
    store: 'SH',
    type: '82',
    at: bj('2026-10-05T15:30:00'),
    buyer: '北京星河科技有限公司',
    lines: [
      { amount: '300.00', rate: '0.06' },
      { amount: '200.00', rate: '0.13' },
    ],
    user: 'admin',
  },
  {
    key: 'E',
    client: 'software',
    store: 'HQ',
    type: '82',
    status: 'failed',
    at: bj('2026-11-12T14:00:00'),
    buyer: '杭州西溪数据服务有限公司',
    lines: [{ amount: '800.00', rate: '0.06' }],
    user: 'clerk',
  },
  {
    key: 'F',
    client: 'software',
    store: 'HQ',
    type: '026',
    redStatus: 'partial',
    at: bj('2026-11-01T09:00:00'),
    buyer: '张伟',
    lines: [{ amount: '100.00', rate: '0.06' }],
    user: 'clerk',
  },
  {
    key: 'G',
    client: 'software',
    store: 'HQ',
    type: '026',
    direction: 'red',
    at: bj('2026-11-03T09:00:00'),
    buyer: '张伟',
    lines: [{ amount: '-50.00', rate: '0.06' }],
    original: 'F',
    user: 'clerk',
  },
  {
    key: 'H',
    client: 'hotel',
    store: 'BS',
    type: '82',
    at: new Date(Date.now() - 60_000),
    buyer: '杭州星河网络科技有限公司',
    lines: [{ amount: '300.00', rate: '0.01' }],
    user: 'admin',
  },
];

/** Expected sums of the issued software invoices (A B C D F G) from 2026-10-01 to 2026-11-30. */
export const SOFTWARE_TOTALS = { count: 6, amount: '1550.00', tax: '107.00', withTax: '1657.00' };

export async function insertFixtures(db: Db): Promise<Fixture> {
  const [software] = await db.select().from(clients).where(eq(clients.taxCode, DEMO.software.taxCode));
  const [hotel] = await db.select().from(clients).where(eq(clients.taxCode, DEMO.hotel.taxCode));
  const storeRows = await db.select().from(clientStores);
  const store = (clientId: number, code: string) =>
    storeRows.find((s) => s.clientId === clientId && s.code === code)!.id;
  const stores = {
    HQ: store(software!.id, 'HQ'),
    BJ: store(software!.id, 'BJ'),
    SH: store(software!.id, 'SH'),
    BS: store(hotel!.id, 'BS'),
  };
  const people = await db.select().from(users);
  const admin = people.find((u) => u.account === DEMO.admin.account)!.id;
  const clerk = people.find((u) => u.account === DEMO.clerk.account)!.id;
  const devices = await db.select().from(taxDevices);
  const deviceOf = (clientId: number) => devices.find((d) => d.clientId === clientId)?.id ?? 0;

  const ids: Record<string, number> = {};
  const numbers: Record<string, string> = {};
  let seq = 0;
  for (const s of SPECS) {
    seq += 1;
    const clientId = s.client === 'software' ? software!.id : hotel!.id;
    const lines = s.lines.map((l) =>
      computeLine({
        priceIncludesTax: false,
        taxRate: l.rate,
        amount: l.amount,
        quantity: null,
        price: null,
      }),
    );
    const totals = computeTotals(lines);
    const status = s.status ?? 'issued';
    const issued = status === 'issued';
    const invoiceNo = issued
      ? s.type === '026'
        ? String(90000000 + seq)
        : `2633200000009${String(seq).padStart(7, '0')}`
      : null;
    const [row] = await db
      .insert(invoices)
      .values({
        clientId,
        storeId: stores[s.store],
        deviceId: deviceOf(clientId),
        serialNo: `FIX-${s.key}-${seq}`,
        requestHash: 'fixture',
        invoiceType: s.type,
        direction: s.direction ?? 'blue',
        status,
        redStatus: s.redStatus ?? 'none',
        invoiceCode: s.type === '026' ? '033002600111' : '',
        invoiceNo,
        issuedAt: issued ? s.at : null,
        buyerTitleType: s.buyerTaxCode ? 2 : 1,
        buyerName: s.buyer,
        buyerTaxCode: s.buyerTaxCode ?? '',
        sellerName: s.client === 'software' ? DEMO.software.name : DEMO.hotel.name,
        sellerTaxCode: s.client === 'software' ? DEMO.software.taxCode : DEMO.hotel.taxCode,
        totalAmount: totals.totalAmount,
        totalTax: totals.totalTax,
        totalWithTax: totals.totalWithTax,
        originalInvoiceId: s.original ? ids[s.original] : null,
        errorCode: issued ? null : '13110',
        errorMessage: issued ? null : '税局开票失败，请稍后重试',
        createdBy: s.user === 'admin' ? admin : clerk,
        createdAt: new Date(s.at.getTime() - 1000),
      })
      .returning({ id: invoices.id });
    ids[s.key] = row!.id;
    if (invoiceNo) numbers[s.key] = invoiceNo;
    await db.insert(invoiceLines).values(
      lines.map((l, i) => ({
        invoiceId: row!.id,
        lineNo: i + 1,
        clientId,
        taxClassCode: '3040201010000000000',
        shortName: '信息技术服务',
        itemName: '软件开发服务',
        fullName: '*信息技术服务*软件开发服务',
        amount: l.amount,
        taxRate: s.lines[i]!.rate,
        taxAmount: l.taxAmount,
        amountWithTax: l.amountWithTax,
      })),
    );
    await db.insert(invoiceEvents).values([
      {
        invoiceId: row!.id,
        clientId,
        kind: 'created',
        userId: s.user === 'admin' ? admin : clerk,
        createdAt: new Date(s.at.getTime() - 1000),
      },
      {
        invoiceId: row!.id,
        clientId,
        kind: issued ? 'issued' : 'failed',
        userId: null,
        detail: issued ? { invoice_no: invoiceNo } : { code: '13110' },
        createdAt: s.at,
      },
    ]);
  }
  return { software: software!.id, hotel: hotel!.id, stores, admin, clerk, ids, numbers };
}

/**
 * `n` copies of fixture invoice `sourceId` (its lines too), for tests that need more rows than one
 * export batch or the library's count cap. Each copy gets its own serial and number, `buyer` as buyer
 * name (to select them by filter) and an issue time `spacing` seconds apart per `tie` copies (copies
 * sharing a time are ordered by id), counting back from the source's; `first` numbers a later call's
 copies after an earlier one's. Lines get a quantity and price.
 */
export async function insertCopies(
  db: Db,
  sourceId: number,
  n: number,
  opts: { buyer: string; tie?: number; first?: number },
): Promise<number[]> {
  const tie = opts.tie ?? 1;
  const first = opts.first ?? 1;
  const cols = async (table: string) =>
    (
      await db.execute<{ column_name: string }>(
        sql`select column_name from information_schema.columns
          where table_schema = current_schema() and table_name = ${table} and column_name <> 'id'
          order by ordinal_position`,
      )
    ).rows.map((r) => r.column_name);
  const override: Record<string, SQL> = {
    serial_no: sql`'COPY-' || s.serial_no || '-' || g`,
    invoice_no: sql`case when s.invoice_no is null then null else '2699' || lpad(g::text, 16, '0') end`,
    buyer_name: sql`${opts.buyer}`,
    issued_at: sql`s.issued_at - ((g - 1) / ${tie}::int) * interval '1 second'`,
    created_at: sql`s.created_at - ((g - 1) / ${tie}::int) * interval '1 second'`,
  };
  const invCols = await cols('invoices');
  const inserted = await db.execute<{ id: number }>(sql`
    insert into invoices (${sql.raw(invCols.join(', '))})
    select ${sql.join(
      invCols.map((c) => override[c] ?? sql.raw(`s.${c}`)),
      sql`, `,
    )}
    from invoices s, generate_series(${first}::int, ${first + n - 1}::int) g where s.id = ${sourceId}
    order by g
    returning id`);
  const ids = inserted.rows.map((r) => Number(r.id));
  const lineCols = (await cols('invoice_lines')).filter((c) => c !== 'invoice_id');
  const lineOverride: Record<string, SQL> = {
    quantity: sql`2`,
    unit_price: sql`l.amount / 2`,
  };
  await db.execute(sql`
    insert into invoice_lines (invoice_id, ${sql.raw(lineCols.join(', '))})
    select c.id, ${sql.join(
      lineCols.map((c) => lineOverride[c] ?? sql.raw(`l.${c}`)),
      sql`, `,
    )}
    from unnest(${`{${ids.join(',')}}`}::bigint[]) c(id), invoice_lines l where l.invoice_id = ${sourceId}`);
  return ids;
}
