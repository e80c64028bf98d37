import { BATCH_CODE, BATCH_KIND_LABELS, DEVICE_KINDS, MSG } from '@kaipiao/shared';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { batchFiles } from '../../../test/fixtures/batch-uploads.ts';
import { type CellMap, fillTemplate, invoiceRow, lineRow } from '../../../test/fixtures/batches.ts';
import { type Fixture, invoicingFixture } from '../../../test/fixtures/invoices.ts';
import { buildTestApp, call } from '../../../test/helper.ts';
import { clients, orgs } from '../../db/schema/index.ts';

/**
 * What an upload answers (batches/service.ts): the error report in sheet, row and column order,
 * capped at 1,000 with the full count; the stored file name; split parts numbered; the dry run's
 * device, kinds, quota (unlimited, used up) and the bookkeeping notice.
 */
describe('batch upload report and dry run', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  const files = batchFiles(
    () => t,
    () => f,
    'P',
  );

  beforeAll(async () => {
    t = await buildTestApp();
    f = await invoicingFixture(t.app, t.db);
  });

  const send = (content: Buffer, filename?: string) => files.send(content, { filename });
  const fileOf = (n: number, inv?: (i: number) => CellMap, line?: (i: number) => CellMap) =>
    files.file(n, inv, line);
  const batchCount = async () =>
    Number((await t.db.execute<{ n: number }>(sql`select count(*)::int as n from batches`)).rows[0]!.n);

  it('reports problems by sheet, row and column, whatever order they were found in', async () => {
    const before = await batchCount();
    const p = files.prefix();
    const file = await fillTemplate(
      await files.template(),
      [
        invoiceRow(`${p}1`),
        invoiceRow(`${p}2`, { 单价金额含税: '也许', 购买方类型: '公司', 发票种类: '手写发票' }),
      ],
      [lineRow('无此流水号'), lineRow(`${p}1`), lineRow(`${p}2`)],
    );
    const res = await send(file);
    expect(res.json.code).toBe(BATCH_CODE.ROWS_INVALID);
    expect(res.json.message).toBe('文件有4处错误，未开具任何发票，请按校验报告修改后重新上传');
    expect(
      res.json.data.errors.map(
        (e: { sheet: string; row: number; column: string }) => `${e.sheet}:${e.row}:${e.column}`,
      ),
    ).toEqual([
      '发票信息:3:发票种类',
      '发票信息:3:购买方类型',
      '发票信息:3:单价金额含税',
      '商品明细:2:流水号',
    ]);
    expect(res.json.data).toMatchObject({ error_count: 4, invoice_count: 2, line_count: 3 });
    expect(await batchCount()).toBe(before);
  });

  it('sorts problems found later (a code unknown to the table) before later rows found earlier', async () => {
    // row 4's malformed code is found while reading the file, row 3's unknown code (reported at
    // 商品简称, a column to the right) only when the codes are looked up: the report still reads top
    // to bottom, by row before column
    const res = await send(
      await fileOf(
        3,
        () => ({}),
        (i) => ({
          税收分类编码: i === 2 ? '1111111111111111111' : i === 3 ? '30402' : '3040201010000000000',
        }),
      ),
    );
    expect(res.json.code).toBe(BATCH_CODE.ROWS_INVALID);
    expect(
      res.json.data.errors.map(
        (e: { sheet: string; row: number; column: string }) => `${e.sheet}:${e.row}:${e.column}`,
      ),
    ).toEqual(['商品明细:3:商品简称', '商品明细:4:税收分类编码']);
  });

  it('a file whose codes are all malformed is reported, not failed', async () => {
    const res = await send(
      await fileOf(
        2,
        () => ({}),
        () => ({ 税收分类编码: '30402' }),
      ),
    );
    expect(res.json.code).toBe(BATCH_CODE.ROWS_INVALID);
    expect(res.json.data.errors).toEqual([
      { sheet: '商品明细', row: 2, column: '税收分类编码', message: '税收分类编码须为19位数字' },
      { sheet: '商品明细', row: 3, column: '税收分类编码', message: '税收分类编码须为19位数字' },
    ]);
  });

  it('shows the first 1,000 problems and counts them all', async () => {
    const res = await send(await fileOf(1001, () => ({ 购买方类型: '公司' })));
    expect(res.json.code).toBe(BATCH_CODE.ROWS_INVALID);
    expect(res.json.message).toBe('文件有1001处错误，未开具任何发票，请按校验报告修改后重新上传');
    expect(res.json.data.error_count).toBe(1001);
    expect(res.json.data.errors).toHaveLength(1000);
    expect(res.json.data.errors.at(-1)).toMatchObject({ sheet: '发票信息', row: 1001, column: '购买方类型' });
  });

  it('keeps the first 200 characters of a long file name', async () => {
    const name = `${'批'.repeat(250)}.xlsx`;
    const res = await send(await fileOf(1), name);
    expect(res.json.code, res.json.message).toBe(0);
    expect(res.json.data.file_name).toBe(name.slice(0, 200));
  });

  it('numbers the parts of a split invoice from 1 and names the device and kinds', async () => {
    await f.dev('device', { device_id: f.ids.digital, per_invoice_limit: '1500.00' });
    try {
      // 3 × 1,060.00 over a 1,500.00 limit (tax-exclusive 3,000.00): two parts
      const res = await send(
        await fileOf(
          1,
          () => ({}),
          () => ({ 数量: '6', 单价: '530', 金额: '3180' }),
        ),
      );
      expect(res.json.code, res.json.message).toBe(0);
      const dr = res.json.data;
      expect(dr).toMatchObject({
        invoice_count: 2,
        split_sources: 1,
        device: { device_id: f.ids.digital, kind_name: DEVICE_KINDS.digital, per_invoice_limit: '1500.00' },
        by_type: [{ invoice_type: '82', name: BATCH_KIND_LABELS['82'], count: 2 }],
      });
      expect(dr.splits).toEqual([
        expect.objectContaining({ parts: 2, reasons: ['amount'], total_amount: '3000.00' }),
      ]);
      const rows = await call(
        t.app,
        'GET',
        `/v3/batch-invoice/rows?${f.scope(f.ids.software, f.ids.hq)}&batch_id=${dr.batch_id}`,
        { token: f.admin },
      );
      expect(
        rows.json.data.list.map((r: { part_no: number; part_count: number }) => [r.part_no, r.part_count]),
      ).toEqual([
        [1, 2],
        [2, 2],
      ]);
    } finally {
      await f.dev('reset', { device_id: f.ids.digital });
    }
  });

  it('an invoice of exactly 2,000 lines split for its amount only: the lines are not a reason', async () => {
    await f.dev('device', { device_id: f.ids.digital, per_invoice_limit: '1500.00' });
    try {
      const p = files.prefix();
      // 2,000 lines of 1.06 (1.00 + 0.06 tax): 2,000.00 over the 1,500.00 limit, lines at the 数电 maximum
      const res = await send(
        await fillTemplate(
          await files.template(),
          [invoiceRow(`${p}1`)],
          Array.from({ length: 2000 }, () => lineRow(`${p}1`, { 数量: '1', 单价: '1.06', 金额: '1.06' })),
        ),
      );
      expect(res.json.code, res.json.message).toBe(0);
      expect(res.json.data.splits).toEqual([
        expect.objectContaining({
          source_serial: `${p}1`,
          parts: 2,
          reasons: ['amount'],
          total_amount: '2000.00',
        }),
      ]);
    } finally {
      await f.dev('reset', { device_id: f.ids.digital });
    }
  });

  it('orders the problems of one row by column, whatever step found them', async () => {
    const res = await send(
      // the invoice rule checks the e-mail before a personal name: found in that order, reported by column
      await fileOf(
        2,
        (i): CellMap =>
          i === 2
            ? { 购买方类型: '个人', 购买方名称: '王', 购买方纳税人识别号: '', 购买方邮箱: 'wang@' }
            : {},
      ),
    );
    expect(res.json.code).toBe(BATCH_CODE.ROWS_INVALID);
    expect(
      res.json.data.errors.map(
        (e: { sheet: string; row: number; column: string }) => `${e.sheet}:${e.row}:${e.column}`,
      ),
    ).toEqual(['发票信息:3:购买方名称', '发票信息:3:购买方邮箱']);
  });

  it('codes with stray characters are reported as malformed; two different codes are both looked up', async () => {
    const bad = await send(
      await fileOf(
        3,
        () => ({}),
        (i) => ({
          税收分类编码: ['}3040201010000000000', '3040201010000000000}', '3040201010000000000'][i - 1],
        }),
      ),
    );
    expect(bad.json.code).toBe(BATCH_CODE.ROWS_INVALID);
    expect(bad.json.data.errors).toEqual([
      { sheet: '商品明细', row: 2, column: '税收分类编码', message: '税收分类编码须为19位数字' },
      { sheet: '商品明细', row: 3, column: '税收分类编码', message: '税收分类编码须为19位数字' },
    ]);
    // software development and catering: two codes of the table in one file
    const two = await send(
      await fileOf(
        2,
        () => ({}),
        (i): CellMap =>
          i === 2 ? { 项目名称: '餐饮服务', 税收分类编码: '3070401000000000000', 商品简称: '餐饮服务' } : {},
      ),
    );
    expect(two.json.code, JSON.stringify(two.json.data?.errors)).toBe(0);
  });

  it('a small-scale business (the hotel) uploads 1% lines; a general taxpayer is refused them', async () => {
    const hotelStore = (
      await t.db.execute<{ id: number }>(
        sql`select id from client_stores where client_id = ${f.ids.hotel} order by id limit 1`,
      )
    ).rows[0]!.id;
    const onePercent = await fileOf(
      1,
      () => ({}),
      () => ({ 数量: '1', 单价: '101', 金额: '101', 税率: '1%' }),
    );
    const hotel = await files.send(onePercent, {
      clientId: f.ids.hotel,
      sid: hotelStore,
      device: f.ids.hotelDigital,
    });
    expect(hotel.json.code, JSON.stringify(hotel.json.data?.errors ?? hotel.json.message)).toBe(0);
    const general = await send(
      await fileOf(
        1,
        () => ({}),
        () => ({ 数量: '1', 单价: '101', 金额: '101', 税率: '1%' }),
      ),
    );
    expect(general.json.code).toBe(BATCH_CODE.ROWS_INVALID);
    expect(general.json.data.errors).toEqual([
      expect.objectContaining({ sheet: '商品明细', row: 2, column: '税率' }),
    ]);
  });

  it('the quota: unlimited, enough, and used up beyond the month’s amount (shown as 0.00 left)', async () => {
    try {
      await f.dev('device', { device_id: f.ids.digital, monthly_quota: null });
      const free = await send(await fileOf(2));
      expect(free.json.data.quota).toEqual({
        kind: 'quota',
        needed: '2000.00',
        remaining: null,
        enough: true,
        stock: [],
      });
      await f.dev('device', { device_id: f.ids.digital, monthly_quota: '5000.00', quota_used: '1000.00' });
      const some = await send(await fileOf(2));
      expect(some.json.data.quota).toMatchObject({ needed: '2000.00', remaining: '4000.00', enough: true });
      await f.dev('device', { device_id: f.ids.digital, monthly_quota: '5000.00', quota_used: '6000.00' });
      const none = await send(await fileOf(2));
      expect(none.json.data.quota).toMatchObject({ needed: '2000.00', remaining: '0.00', enough: false });
    } finally {
      await f.dev('reset', { device_id: f.ids.digital });
    }
  });

  it('a batch shows the bookkeeping notice while that service is expired or when it paused for it', async () => {
    const ok = await send(await fileOf(1));
    const id = ok.json.data.batch_id as number;
    const progress = async () =>
      (
        await call(
          t.app,
          'GET',
          `/v3/batch-invoice/progress?${f.scope(f.ids.software, f.ids.hq)}&batch_id=${id}`,
          {
            token: f.admin,
          },
        )
      ).json.data;
    expect((await progress()).notice).toBeNull();
    await t.db.execute(
      sql`update batches set pause_reason = 'bookkeeping', status = 'paused' where id = ${id}`,
    );
    expect((await progress()).notice).toBe(MSG.GRAY_BOOKKEEPING);
    await t.db.execute(sql`update batches set pause_reason = 'user' where id = ${id}`);
    expect((await progress()).notice).toBeNull();
    const [c] = await t.db.select().from(clients).where(eq(clients.id, f.ids.software));
    const [o] = await t.db.select().from(orgs).where(eq(orgs.id, c!.orgId));
    await t.db
      .update(orgs)
      .set({ bookkeepingExpiresAt: new Date(Date.now() - 60_000) })
      .where(eq(orgs.id, o!.id));
    try {
      expect((await progress()).notice).toBe(MSG.GRAY_BOOKKEEPING);
    } finally {
      await t.db
        .update(orgs)
        .set({ bookkeepingExpiresAt: o!.bookkeepingExpiresAt })
        .where(eq(orgs.id, o!.id));
    }
  });
});
