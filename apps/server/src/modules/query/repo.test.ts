import { LIBRARY_COUNT_CAP, SMALL_SCALE_3_PERCENT_REASONS, SPECIFIC_BUSINESS } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, insertCopies, insertFixtures } from '../../../test/fixtures/query.ts';
import { buildTestApp } from '../../../test/helper.ts';
import type { ListRow } from './library-sql.ts';
import { getInvoiceDetail, listInvoices, toInvoiceRow } from './repo.ts';

/** The library's reads called directly (query/repo.ts): the row shape, the count cap, the detail's parts. */

const listRow = (over: Partial<ListRow>): ListRow =>
  ({
    id: '7',
    serial_no: 'S1',
    invoice_type: '82',
    invoice_code: '',
    invoice_no: '26332000000090000001',
    direction: 'blue',
    status: 'issued',
    red_status: 'none',
    buyer_name: '买方',
    buyer_tax_code: '',
    buyer_email: '',
    total_amount: '100.00',
    total_tax: '6.00',
    total_with_tax: '106.00',
    store_id: 1,
    store_name: '总部',
    source: 'web',
    issued_at: '2026-11-10 02:00:00+00',
    created_at: '2026-11-10 01:59:59+00',
    ...over,
  }) as ListRow;

describe('library row', () => {
  it('is red only when stored red, blue otherwise', () => {
    expect(toInvoiceRow(listRow({ direction: 'red' })).direction).toBe('red');
    expect(toInvoiceRow(listRow({ direction: 'blue' })).direction).toBe('blue');
    expect(toInvoiceRow(listRow({ direction: 'something' as 'blue' })).direction).toBe('blue');
  });
  it('shows no store name as empty text, and a known kind by its name', () => {
    const row = toInvoiceRow(listRow({ store_name: null as unknown as string }));
    expect(row.store_name).toBe('');
    expect(row.invoice_type_name).toBe('电子发票（普通发票）');
    expect(row.invoice_id).toBe(7);
  });
});

describe('library reads', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  const MANY = '计数上限测试购方有限公司';

  beforeAll(async () => {
    t = await buildTestApp({ env: { KAIPIAO_JOBS: 'off' } });
    f = await insertFixtures(t.db);
  });

  it('a scope of no stores finds nothing and says the count is exact', async () => {
    expect(await listInvoices(t.db, { clientId: f.software, storeIds: [] }, {}, 1, 10)).toEqual({
      list: [],
      total: 0,
      total_capped: false,
      page: 1,
      page_size: 10,
    });
  });

  it('counts exactly up to the cap, and says "capped" only beyond it', async () => {
    await insertCopies(t.db, f.ids.A!, LIBRARY_COUNT_CAP, { buyer: MANY });
    const at = await listInvoices(
      t.db,
      { clientId: f.software, storeIds: null },
      { buyer_name: MANY },
      1,
      10,
    );
    expect(at).toMatchObject({ total: LIBRARY_COUNT_CAP, total_capped: false });
    expect(at.list).toHaveLength(10);
    await insertCopies(t.db, f.ids.A!, 1, { buyer: MANY, first: LIBRARY_COUNT_CAP + 1 });
    const over = await listInvoices(
      t.db,
      { clientId: f.software, storeIds: null },
      { buyer_name: MANY },
      1,
      10,
    );
    expect(over).toMatchObject({ total: LIBRARY_COUNT_CAP, total_capped: true });
  });

  const detail = (id: number) => getInvoiceDetail(t.db, { clientId: f.software, storeIds: null }, id);

  it('names the documents of a red invoice as red, and counts only red invoices that took effect', async () => {
    const red = (await detail(f.ids.C!))!;
    expect(red.files.map((x) => [x.kind, x.ready, x.file_name])).toEqual([
      ['pdf', false, `电子发票（增值税专用发票）（红字）_${f.numbers.C}.pdf`],
      ['xml', false, `电子发票（增值税专用发票）（红字）_${f.numbers.C}.xml`],
    ]);
    expect(red.red).toBeNull();
    // B is fully reversed by C; a failed red invoice against B reverses nothing
    const before = (await detail(f.ids.B!))!.red!;
    await t.db.execute(sql`
      update invoices set original_invoice_id = ${f.ids.B}, direction = 'red' where id = ${f.ids.E}`);
    try {
      const after = (await detail(f.ids.B!))!.red!;
      expect(after.red_invoices.map((r) => r.invoice_id)).toContain(f.ids.E);
      expect(after.reddened_with_tax).toBe(before.reddened_with_tax);
      expect(after.remaining_with_tax).toBe(before.remaining_with_tax);
    } finally {
      await t.db.execute(
        sql`update invoices set original_invoice_id = null, direction = 'blue' where id = ${f.ids.E}`,
      );
    }
  });

  it('a failed invoice has no documents to offer; one with a stored file lists both kinds, named by its serial', async () => {
    expect((await detail(f.ids.E!))!.files).toEqual([]);
    await t.db.execute(sql`
      insert into invoice_files (invoice_id, client_id, kind, file_name, content, size)
      select id, client_id, 'pdf', 'stored.pdf', '\\x25504446'::bytea, 12 from invoices where id = ${f.ids.E}`);
    const files = (await detail(f.ids.E!))!.files;
    const serial = (
      await t.db.execute<{ serial_no: string }>(sql`select serial_no from invoices where id = ${f.ids.E}`)
    ).rows[0]!.serial_no;
    expect(files.map((x) => [x.kind, x.ready, x.file_name, x.size])).toEqual([
      ['pdf', true, 'stored.pdf', 12],
      ['xml', false, `电子发票（普通发票）_${serial}.xml`, null],
    ]);
  });

  it('an issued invoice with no issue time and no files offers none', async () => {
    await t.db.execute(sql`update invoices set issued_at = null where id = ${f.ids.A}`);
    try {
      expect((await detail(f.ids.A!))!.files).toEqual([]);
    } finally {
      await t.db.execute(
        sql`update invoices set issued_at = created_at + interval '1 second' where id = ${f.ids.A}`,
      );
    }
  });

  it('special business, the small-scale reason, an unknown author, an event by the system', async () => {
    await t.db.execute(sql`
      update invoices set specific_business_code = '03', specific_business = ${JSON.stringify({
        small_scale_reason: Object.keys(SMALL_SCALE_3_PERCENT_REASONS)[0],
      })}::jsonb, created_by = null where id = ${f.ids.D}`);
    await t.db.execute(sql`
      insert into invoice_events (invoice_id, client_id, kind, user_id, detail)
      values (${f.ids.D}, ${f.software}, 'downloaded', null, '{}'::jsonb)`);
    const d = (await detail(f.ids.D!))!;
    expect(d.specific_business).toEqual({
      code: '03',
      name: SPECIFIC_BUSINESS['03' as keyof typeof SPECIFIC_BUSINESS],
      data: { small_scale_reason: Object.keys(SMALL_SCALE_3_PERCENT_REASONS)[0] },
    });
    expect(d.invoice.small_scale_reason).toBe(Object.values(SMALL_SCALE_3_PERCENT_REASONS)[0]);
    expect(d.invoice.created_by_name).toBe('');
    const last = d.events.at(-1)!;
    expect(last).toMatchObject({ kind: 'downloaded', user_name: '系统' });
    expect(d.events.find((e) => e.kind === 'issued')!.detail).toEqual({ invoice_no: f.numbers.D });

    // an unknown code keeps its code as name; a reason that is not text, or unknown, shows none
    await t.db.execute(sql`
      update invoices set specific_business_code = 'ZZ', specific_business = '{"small_scale_reason": 1}'::jsonb
      where id = ${f.ids.D}`);
    const u = (await detail(f.ids.D!))!;
    expect(u.specific_business).toEqual({ code: 'ZZ', name: 'ZZ', data: { small_scale_reason: 1 } });
    expect(u.invoice.small_scale_reason).toBeNull();
    await t.db.execute(sql`
      update invoices set specific_business = '{"small_scale_reason": "nope"}'::jsonb where id = ${f.ids.D}`);
    expect((await detail(f.ids.D!))!.invoice.small_scale_reason).toBeNull();
    await t.db.execute(sql`update invoices set specific_business = null where id = ${f.ids.D}`);
    expect((await detail(f.ids.D!))!.specific_business).toEqual({ code: 'ZZ', name: 'ZZ', data: null });
    await t.db.execute(sql`update invoices set specific_business_code = null where id = ${f.ids.D}`);
    expect((await detail(f.ids.D!))!.specific_business).toBeNull();
  });
});
