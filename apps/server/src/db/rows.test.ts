import { randomBytes } from 'node:crypto';
import { getTableColumns, getTableName, is, sql, Table } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, expectTypeOf, inject, it } from 'vitest';
import { connectDb, type Db } from './client.ts';
import { type RawRow, snakeCase } from './rows.ts';
import type { exportRecords, invoiceFiles, invoiceLines, invoices, taxDevices } from './schema/index.ts';
import * as schema from './schema/index.ts';

/** The one kind a runtime value has, in the words the row types use. */
const kindOf = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? `${v.length ? kindOf(v[0]) : 'empty'}[]`
      : Buffer.isBuffer(v)
        ? 'Buffer'
        : v instanceof Date
          ? 'Date'
          : typeof v;

/** A psql-style call on the test server's maintenance database. */
async function admin(statement: string) {
  const c = new pg.Client(inject('pgAdminUrl'));
  await c.connect();
  await c.query(statement);
  await c.end();
}

// the database alone (a clone of the seeded template), through the same client the app uses
const name = `t_${randomBytes(6).toString('hex')}`;
let db: Db;
beforeAll(async () => {
  await admin(`create database ${name} template ${inject('pgDemoTemplate')}`);
  const handle = connectDb(inject('pgAdminUrl').replace(/\/[^/]*$/, `/${name}`), 2);
  db = handle.db;
  afterAll(async () => {
    await handle.close();
    await admin(`drop database if exists ${name} with (force)`);
  });
  // one issued invoice with a quantity line and a special-business block (the seeded tenant has none)
  await db.execute(sql`
    with d as (select d.id, d.client_id, s.store_id from tax_devices d
        join device_stores s on s.device_id = d.id order by d.id limit 1),
      i as (insert into invoices (client_id, store_id, device_id, serial_no, request_hash, invoice_type,
          status, issued_at, buyer_name, seller_name, seller_tax_code, total_amount, total_tax,
          total_with_tax, specific_business_code, specific_business)
        select client_id, store_id, id, 'ROWS-TEST', '', '82', 'issued', now(), '买方', '卖方',
          '91330106MA2KC7LM1A', '100.00', '6.00', '106.00', '03', '{"place": "杭州"}'::jsonb from d
        returning id, client_id)
    insert into invoice_lines (invoice_id, line_no, client_id, tax_class_code, short_name, item_name,
        full_name, quantity, unit_price, amount, tax_rate, tax_amount, amount_with_tax)
    select id, 1, client_id, '3040201010000000000', '信息技术服务', '软件开发服务',
      '*信息技术服务*软件开发服务', 2, 50, '100.00', '0.06', '6.00', '106.00' from i`);
});

describe('RawRow: the keys are the database columns', () => {
  it('snake-cases every key of every table to a column of that table, and names every column', async () => {
    const tables = (Object.values(schema) as unknown[]).filter((t): t is Table => is(t, Table));
    expect(tables.length).toBeGreaterThan(30);
    const res = await db.execute<{ table_name: string; column_name: string }>(sql`
      select table_name, column_name from information_schema.columns where table_schema = 'public'`);
    const actual = new Map<string, string[]>();
    for (const r of res.rows) actual.set(r.table_name, [...(actual.get(r.table_name) ?? []), r.column_name]);
    for (const t of tables) {
      const keys = Object.keys(getTableColumns(t)).map(snakeCase).sort();
      expect({ table: getTableName(t), columns: keys }).toEqual({
        table: getTableName(t),
        columns: (actual.get(getTableName(t)) ?? []).sort(),
      });
    }
  });

  it('types the keys as the column names', () => {
    expectTypeOf<keyof RawRow<typeof invoiceLines>>().toEqualTypeOf<
      | 'invoice_id'
      | 'line_no'
      | 'client_id'
      | 'line_kind'
      | 'goods_id'
      | 'tax_class_code'
      | 'short_name'
      | 'item_name'
      | 'full_name'
      | 'spec'
      | 'unit'
      | 'quantity'
      | 'unit_price'
      | 'unit_price_with_tax'
      | 'amount'
      | 'tax_rate'
      | 'tax_amount'
      | 'amount_with_tax'
      | 'preferential_code'
      | 'zero_rate_flag'
    >();
    expect(snakeCase('unitPriceWithTax')).toBe('unit_price_with_tax');
  });
});

describe('RawRow: the values are what a raw execute returns', () => {
  it('an invoice line: int4/int2 numbers, numeric strings, null where the column allows it', async () => {
    const row = (
      await db.execute<RawRow<typeof invoiceLines>>(
        sql`select * from invoice_lines where quantity is not null and goods_id is null limit 1`,
      )
    ).rows[0];
    expectTypeOf(row.line_no).toEqualTypeOf<number>();
    expectTypeOf(row.line_kind).toEqualTypeOf<number>();
    expectTypeOf(row.invoice_id).toEqualTypeOf<number>();
    expectTypeOf(row.amount).toEqualTypeOf<string>();
    expectTypeOf(row.quantity).toEqualTypeOf<string | null>();
    expectTypeOf(row.goods_id).toEqualTypeOf<number | null>();
    expect({
      line_no: kindOf(row.line_no),
      line_kind: kindOf(row.line_kind),
      invoice_id: kindOf(row.invoice_id),
      amount: kindOf(row.amount),
      tax_rate: kindOf(row.tax_rate),
      quantity: kindOf(row.quantity),
      goods_id: kindOf(row.goods_id),
    }).toEqual({
      line_no: 'number',
      line_kind: 'number',
      invoice_id: 'number',
      amount: 'string',
      tax_rate: 'string',
      quantity: 'string',
      goods_id: 'null',
    });
  });

  it('an invoice: bigserial a number, timestamptz text (not the Date $inferSelect says), jsonb parsed', async () => {
    const row = (
      await db.execute<RawRow<typeof invoices>>(
        sql`select * from invoices where issued_at is not null and specific_business is not null limit 1`,
      )
    ).rows[0];
    expectTypeOf(row.id).toEqualTypeOf<number>();
    expectTypeOf(row.issued_at).toEqualTypeOf<string | null>();
    expectTypeOf(row.created_at).toEqualTypeOf<string>();
    expectTypeOf<(typeof invoices.$inferSelect)['createdAt']>().toEqualTypeOf<Date>();
    expectTypeOf(row.total_with_tax).toEqualTypeOf<string>();
    expectTypeOf(row.price_includes_tax).toEqualTypeOf<boolean>();
    expectTypeOf(row.buyer_title_type).toEqualTypeOf<number>();
    expectTypeOf(row.invoice_no).toEqualTypeOf<string | null>();
    expect({
      id: kindOf(row.id),
      issued_at: kindOf(row.issued_at),
      created_at: kindOf(row.created_at),
      total_with_tax: kindOf(row.total_with_tax),
      price_includes_tax: kindOf(row.price_includes_tax),
      buyer_title_type: kindOf(row.buyer_title_type),
      specific_business: kindOf(row.specific_business),
    }).toEqual({
      id: 'number',
      issued_at: 'string',
      created_at: 'string',
      total_with_tax: 'string',
      price_includes_tax: 'boolean',
      buyer_title_type: 'number',
      specific_business: 'object',
    });
    // the text is an instant: it parses back to the row's time
    expect(Number.isNaN(Date.parse(row.created_at))).toBe(false);
  });

  it('a tax device: text[] an array of strings, numeric strings, a nullable numeric', async () => {
    const row = (
      await db.execute<RawRow<typeof taxDevices>>(
        sql`select * from tax_devices where cardinality(invoice_types) > 0 and monthly_quota is null limit 1`,
      )
    ).rows[0];
    expectTypeOf(row.invoice_types).toEqualTypeOf<string[]>();
    expectTypeOf(row.monthly_quota).toEqualTypeOf<string | null>();
    expectTypeOf(row.online).toEqualTypeOf<boolean>();
    expect({
      invoice_types: kindOf(row.invoice_types),
      per_invoice_limit: kindOf(row.per_invoice_limit),
      monthly_quota: kindOf(row.monthly_quota),
      online: kindOf(row.online),
      created_at: kindOf(row.created_at),
    }).toEqual({
      invoice_types: 'string[]',
      per_invoice_limit: 'string',
      monthly_quota: 'null',
      online: 'boolean',
      created_at: 'string',
    });
  });

  it('an export record: int8[] elements stay strings while int4[] are numbers; a bytea is a Buffer', async () => {
    const inv = (
      await db.execute<Pick<RawRow<typeof invoices>, 'id' | 'client_id'>>(sql`
      select id, client_id from invoices order by id limit 1`)
    ).rows[0];
    await db.execute(sql`
      insert into export_records (client_id, kind, invoice_ids, store_ids, file_size, created_by, expires_at)
      values (${inv.client_id}, 'excel', '{41,42}', '{7}', 1024, 1, now() + interval '1 day')`);
    await db.execute(sql`
      insert into invoice_files (invoice_id, client_id, kind, file_name, content, size)
      values (${inv.id}, ${inv.client_id}, 'rows-test', 'a.bin', '\\x0102'::bytea, 2)`);
    const rec = (
      await db.execute<RawRow<typeof exportRecords>>(sql`
      select * from export_records where invoice_ids = '{41,42}'`)
    ).rows[0];
    const file = (
      await db.execute<RawRow<typeof invoiceFiles>>(sql`
      select * from invoice_files where kind = 'rows-test'`)
    ).rows[0];
    expectTypeOf(rec.invoice_ids).toEqualTypeOf<string[] | null>();
    expectTypeOf(rec.store_ids).toEqualTypeOf<number[] | null>();
    expectTypeOf(rec.file_size).toEqualTypeOf<number | null>();
    expectTypeOf(rec.expires_at).toEqualTypeOf<string>();
    expectTypeOf(file.content).toEqualTypeOf<Buffer>();
    expect({
      invoice_ids: rec.invoice_ids,
      store_ids: rec.store_ids,
      file_size: kindOf(rec.file_size),
      expires_at: kindOf(rec.expires_at),
      content: kindOf(file.content),
    }).toEqual({
      invoice_ids: ['41', '42'],
      store_ids: [7],
      file_size: 'number',
      expires_at: 'string',
      content: 'Buffer',
    });
  });
});
