import { BATCH_CODE, BATCH_SHEETS, CODE, INVOICE_CODE, MONEY_MSG, MSG } from '@kaipiao/shared';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../../test/clock.ts';
import {
  bigBatchFile,
  type CellMap,
  fillTemplate,
  invoiceRow,
  lineRow,
} from '../../../test/fixtures/batches.ts';
import { type Fixture, invoicingFixture } from '../../../test/fixtures/invoices.ts';
import { buildTestApp, call } from '../../../test/helper.ts';
import { holdLock } from '../../../test/race.ts';
import { download, upload } from '../../../test/xlsx-helpers.ts';
import { clients, orgs } from '../../db/schema/index.ts';
import { CLAIM_ROWS } from './runner.ts';

describe('batch issuing (/v3/batch-invoice/*)', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  let template: Buffer;
  let seq = 0;
  const clock = testClock();

  const scope = () => f.scope(f.ids.software, f.ids.hq);
  const get = (path: string, token = f.admin) => call(t.app, 'GET', `/v3/batch-invoice/${path}`, { token });
  const post = (path: string, body: unknown, token = f.admin) =>
    call(t.app, 'POST', `/v3/batch-invoice/${path}?${scope()}`, { token, body });
  const progress = async (id: number) => (await get(`progress?${scope()}&batch_id=${id}`)).json.data;
  const invoiceCount = async () =>
    Number((await t.db.execute<{ n: number }>(sql`select count(*)::int as n from invoices`)).rows[0]!.n);
  const batchCount = async () =>
    Number((await t.db.execute<{ n: number }>(sql`select count(*)::int as n from batches`)).rows[0]!.n);

  const send = (file: Buffer | string, opts: { filename?: string; device?: number; type?: string } = {}) =>
    upload(
      t.app,
      `/v3/batch-invoice/upload?${scope()}&device_id=${opts.device ?? f.ids.digital}&invoice_type=${opts.type ?? '82'}`,
      f.admin,
      { filename: opts.filename ?? 'batch.xlsx', content: file },
    );

  /** A file of `n` invoices (2 lines each) filled into the real template. */
  const file = async (
    n: number,
    over: { inv?: (i: number) => CellMap; line?: (i: number) => CellMap } = {},
  ) => {
    const p = `R${++seq}x`;
    const invoices: CellMap[] = [];
    const lines: CellMap[] = [];
    for (let i = 1; i <= n; i++) {
      invoices.push(invoiceRow(`${p}${i}`, over.inv?.(i)));
      lines.push(lineRow(`${p}${i}`, over.line?.(i)));
      lines.push(lineRow(`${p}${i}`, { 项目名称: '运维服务', 数量: null, 单价: null, 金额: '99.99' }));
    }
    return fillTemplate(template, invoices, lines);
  };

  const runToEnd = async (id: number) => {
    await t.app.batchRunner!.idle(id);
    return progress(id);
  };

  /**
   * Starts a batch and acts while its first rows are being issued: the test holds the device's
   * row (every issue on it reserves the device's quota there), so the runner's lanes stop inside
   * the issuing of their first rows until `act` has run — no sleeps, no channel latency.
   */
  const midRun = async (batchId: number, act: () => Promise<void>) => {
    const device = await holdLock(t.url, 'select id from tax_devices where id = $1 for no key update', [
      f.ids.digital,
    ]);
    try {
      await post('start', { batch_id: batchId });
      await device.waiters(1); // a row is in flight
      await act();
    } finally {
      await device.release();
    }
  };

  beforeAll(async () => {
    t = await buildTestApp({ clock });
    f = await invoicingFixture(t.app, t.db);
    const res = await download(t.app, `/v3/batch-invoice/template?${scope()}`, f.admin);
    expect(res.status).toBe(200);
    template = res.body;
  });

  describe('template', () => {
    it('has 发票信息 and 商品明细 keyed by 流水号, a help sheet, notes and drop-down lists', async () => {
      const res = await download(t.app, `/v3/batch-invoice/template?${scope()}`, f.admin);
      expect(res.headers['content-type']).toContain('spreadsheetml');
      expect(String(res.headers['content-disposition'])).toContain(encodeURIComponent('批量开票模板.xlsx'));
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(res.body as unknown as ExcelJS.Buffer);
      const names = wb.worksheets.map((w) => w.name);
      expect(names).toEqual(
        expect.arrayContaining([BATCH_SHEETS.invoices, BATCH_SHEETS.lines, BATCH_SHEETS.help]),
      );
      const inv = wb.getWorksheet(BATCH_SHEETS.invoices)!;
      const heads = (inv.getRow(1).values as unknown[]).slice(1);
      expect(heads.slice(0, 4)).toEqual(['流水号*', '发票种类', '购买方类型*', '购买方名称*']);
      const lines = wb.getWorksheet(BATCH_SHEETS.lines)!;
      expect((lines.getRow(1).values as unknown[]).slice(1)).toEqual(
        expect.arrayContaining([
          '流水号*',
          '项目名称*',
          '税收分类编码*',
          '数量',
          '单价',
          '金额',
          '税率*',
          '优惠政策标识',
        ]),
      );
      // the buyer-type list of column C
      expect(inv.getCell('C2').dataValidation).toMatchObject({
        type: 'list',
        formulae: ['"企业,个人/非企业单位"'],
      });
      expect(inv.getCell('A1').note).toBeTruthy();
    });
  });

  describe('upload, dry run and issuing', () => {
    it('round-trips the template: filled rows validate, dry run counts, every invoice issued once', async () => {
      const before = await invoiceCount();
      const buf = await file(5);
      const res = await send(buf);
      expect(res.json.code).toBe(0);
      const dr = res.json.data;
      expect(dr).toMatchObject({
        status: 'ready',
        source_count: 5,
        invoice_count: 5,
        line_count: 10,
        split_sources: 0,
        bookkeeping_active: true,
        notice: null,
        duplicate_of: null,
      });
      expect(dr.total_with_tax).toBe('5799.95'); // 5 × (1060 + 99.99)
      expect(dr.quota).toMatchObject({ kind: 'quota', needed: dr.total_amount, enough: true });
      expect(await invoiceCount()).toBe(before);

      const started = await post('start', { batch_id: dr.batch_id });
      expect(started.json.code).toBe(0);
      const p = await runToEnd(dr.batch_id);
      expect(p).toMatchObject({ status: 'done', total: 5, issued: 5, failed: 0, percent: 100 });
      expect(await invoiceCount()).toBe(before + 5);

      const rows = (await get(`rows?${scope()}&batch_id=${dr.batch_id}&page_size=10`)).json.data;
      expect(rows.total).toBe(5);
      for (const r of rows.list) {
        expect(r.status).toBe('issued');
        expect(r.invoice_no).toMatch(/^\d{20}$/);
        expect(r.serial_no).toMatch(/^B\d{6}-\d{5}$/);
      }
      const inv = await t.db.execute<{ source: string; n: number }>(
        sql`select source, count(*)::int as n from invoices where serial_no like ${`B${String(dr.batch_id).padStart(6, '0')}-%`} group by source`,
      );
      expect(inv.rows).toEqual([{ source: 'batch', n: 5 }]);

      // the result download: number and status per row
      const result = await download(
        t.app,
        `/v3/batch-invoice/result?${scope()}&batch_id=${dr.batch_id}`,
        f.admin,
      );
      expect(result.status).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(result.body as unknown as ExcelJS.Buffer);
      const ws = wb.worksheets[0]!;
      expect(ws.rowCount).toBe(6);
      const row2 = (ws.getRow(2).values as unknown[]).slice(1);
      expect(row2).toContain('已开具');
      expect(row2).toContain(rows.list[0].invoice_no);

      // the same file again is pointed out
      const again = await send(buf);
      expect(again.json.code).toBe(0);
      expect(again.json.data.duplicate_of).toMatchObject({ batch_id: dr.batch_id, status: 'done' });

      // history
      const list = (await get(`list?${scope()}`)).json.data;
      expect(list.list[0].batch_id).toBe(again.json.data.batch_id);
      expect(list.list.find((b: { batch_id: number }) => b.batch_id === dr.batch_id)).toMatchObject({
        status: 'done',
        issued: 5,
      });
      await post('cancel', { batch_id: again.json.data.batch_id });
    });

    it('splits invoices over the per-invoice limit and the line limit, with derived serials', async () => {
      await f.dev('device', { device_id: f.ids.digital, per_invoice_limit: '1000.00' });
      try {
        const p = `SPLIT${++seq}x`;
        const lines: CellMap[] = [
          // 2,500.00 incl. tax at 6% → 2,358.49 excl.: three pieces by quantity (5 × 500 → 2/2/1)
          lineRow(`${p}1`, { 数量: '5', 单价: '500', 金额: '2500' }),
          lineRow(`${p}2`, { 数量: '1', 单价: '100', 金额: '100' }),
        ];
        const res = await send(
          await fillTemplate(template, [invoiceRow(`${p}1`), invoiceRow(`${p}2`)], lines),
        );
        expect(res.json.code).toBe(0);
        const dr = res.json.data;
        expect(dr).toMatchObject({ source_count: 2, invoice_count: 4, split_sources: 1 });
        expect(dr.splits).toEqual([
          expect.objectContaining({
            source_serial: `${p}1`,
            parts: 3,
            reasons: ['amount'],
            total_amount: '2358.50',
          }),
        ]);
        const rows = (await get(`rows?${scope()}&batch_id=${dr.batch_id}`)).json.data.list;
        const base = `B${String(dr.batch_id).padStart(6, '0')}`;
        expect(rows.map((r: { serial_no: string }) => r.serial_no)).toEqual([
          `${base}-00001-1`,
          `${base}-00001-2`,
          `${base}-00001-3`,
          `${base}-00002`,
        ]);
        for (const r of rows.slice(0, 3)) expect(Number(r.total_amount)).toBeLessThanOrEqual(1000);
        // the parts add up to the file's invoice
        const sum = rows
          .slice(0, 3)
          .reduce((s: number, r: { total_with_tax: string }) => s + Number(r.total_with_tax) * 100, 0);
        expect(sum).toBe(250000);
        await post('start', { batch_id: dr.batch_id });
        expect(await runToEnd(dr.batch_id)).toMatchObject({ status: 'done', issued: 4 });
      } finally {
        await f.dev('device', { device_id: f.ids.digital, per_invoice_limit: '1000000.00' });
      }
    });

    it('splits a paper invoice of more than 8 lines into invoices of at most 8', async () => {
      const p = `PAPER${++seq}x`;
      const lines = Array.from({ length: 10 }, (_, i) => lineRow(`${p}1`, { 项目名称: `服务${i + 1}` }));
      const res = await send(
        await fillTemplate(template, [invoiceRow(`${p}1`, { 发票种类: '增值税普通发票' })], lines),
        {
          device: f.ids.goldenMain,
          type: '007',
        },
      );
      expect(res.json.code).toBe(0);
      expect(res.json.data).toMatchObject({
        invoice_count: 2,
        splits: [expect.objectContaining({ reasons: ['lines'] })],
      });
      expect(res.json.data.quota.kind).toBe('stock');
      expect(res.json.data.quota.stock).toEqual([
        expect.objectContaining({ invoice_type: '007', needed: 2 }),
      ]);
      await post('cancel', { batch_id: res.json.data.batch_id });
    });
  });

  describe('malformed files: a report, nothing stored, nothing issued', () => {
    const refused = async (res: Awaited<ReturnType<typeof send>>, code: number) => {
      expect(res.status).toBe(200);
      expect(res.json.code).toBe(code);
      expect(res.json.data.errors.length).toBeGreaterThan(0);
      for (const e of res.json.data.errors) {
        expect(e).toEqual({
          sheet: expect.any(String),
          row: expect.any(Number),
          column: expect.any(String),
          message: expect.any(String),
        });
      }
      return res.json.data.errors as { sheet: string; row: number; column: string; message: string }[];
    };
    let counts: { invoices: number; batches: number };
    beforeAll(async () => {
      counts = { invoices: await invoiceCount(), batches: await batchCount() };
    });
    const nothingHappened = async () => {
      expect(await invoiceCount()).toBe(counts.invoices);
      expect(await batchCount()).toBe(counts.batches);
    };

    it('refuses a file that is not Excel, an old .xls and an empty file', async () => {
      let errs = await refused(
        await send('流水号,购买方名称\n1,张三\n', { filename: 'batch.csv' }),
        BATCH_CODE.NOT_EXCEL,
      );
      expect(errs[0]!.message).toContain('.xlsx');
      errs = await refused(
        await send(Buffer.from('d0cf11e0a1b11ae1000000', 'hex'), { filename: 'old.xls' }),
        BATCH_CODE.NOT_EXCEL,
      );
      expect(errs[0]!.message).toContain('.xls');
      await refused(await send(Buffer.alloc(0)), BATCH_CODE.NOT_EXCEL);
      // a zip that is not a workbook
      await refused(await send(Buffer.from('504b0304deadbeef', 'hex')), BATCH_CODE.NOT_EXCEL);
      await nothingHappened();
    });

    it('refuses wrong columns and a workbook without the template sheets', async () => {
      const wb = new ExcelJS.Workbook();
      wb.addWorksheet(BATCH_SHEETS.invoices).addRow(['编号', '客户', '金额']);
      wb.addWorksheet(BATCH_SHEETS.lines).addRow(['流水号', '项目名称']);
      const errs = await refused(await send(Buffer.from(await wb.xlsx.writeBuffer())), BATCH_CODE.BAD_HEADER);
      expect(errs[0]).toMatchObject({ sheet: '发票信息', row: 1 });
      expect(errs[0]!.message).toContain('缺少「流水号」');

      const other = new ExcelJS.Workbook();
      other.addWorksheet('Sheet1').addRow(['流水号']);
      const errs2 = await refused(
        await send(Buffer.from(await other.xlsx.writeBuffer())),
        BATCH_CODE.BAD_HEADER,
      );
      expect(errs2[0]!.message).toContain('找不到工作表');
      await nothingHappened();
    });

    it('refuses a filled template whose 商品明细 header was edited (wrong and duplicated columns)', async () => {
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load((await file(2)) as unknown as ExcelJS.Buffer);
      const header = wb.getWorksheet(BATCH_SHEETS.lines)!.getRow(1);
      const amountCol = (header.values as unknown[]).indexOf('金额');
      header.getCell(1).value = '单据编号'; // was 流水号
      header.getCell(amountCol).value = '项目名称'; // a second 项目名称, no 金额
      const errs = await refused(await send(Buffer.from(await wb.xlsx.writeBuffer())), BATCH_CODE.BAD_HEADER);
      expect(errs[0]).toMatchObject({ sheet: '商品明细', row: 1 });
      expect(errs[0]!.message).toContain('缺少「流水号」');
      expect(errs[0]!.message).toContain('「项目名称」列重复');
      await nothingHappened();
    });

    it('refuses empty sheets', async () => {
      await refused(await send(template), BATCH_CODE.EMPTY);
      const onlyInvoices = await fillTemplate(template, [invoiceRow('E1')], []);
      const errs = await refused(await send(onlyInvoices), BATCH_CODE.EMPTY);
      expect(errs[0]!.sheet).toBe('商品明细');
      await nothingHappened();
    });

    it('reports bad numbers, formulas and broken rows with sheet, row and column', async () => {
      const p = `BAD${++seq}x`;
      const buf = await fillTemplate(
        template,
        [
          invoiceRow(`${p}1`),
          invoiceRow(`${p}2`, { 购买方类型: '公司' }),
          invoiceRow(`${p}3`, { 购买方纳税人识别号: '91330100MA2B3C4D5X' }),
          invoiceRow(`${p}1`),
          invoiceRow(`${p}5`, { 单价金额含税: { formula: 'IF(1,"是","否")' } }),
        ],
        [
          lineRow(`${p}1`, { 金额: 'abc', 数量: null, 单价: null }),
          lineRow(`${p}1`, { 数量: '-1' }),
          lineRow(`${p}2`, { 金额: '10.001', 数量: null, 单价: null }),
          lineRow(`${p}3`, { 税率: '7%' }),
          lineRow(`${p}3`, { 金额: { formula: 'C2*D2' } }),
          lineRow(`${p}3`, { 金额: '1000' }),
          lineRow(`${p}5`, { 税收分类编码: '304020101' }),
          lineRow('NOPE', {}),
        ],
      );
      const errs = await refused(await send(buf), BATCH_CODE.ROWS_INVALID);
      const at = (sheet: string, row: number, column: string) =>
        errs.find((e) => e.sheet === sheet && e.row === row && e.column === column)?.message;
      expect(at('发票信息', 3, '购买方类型')).toContain('企业');
      expect(at('发票信息', 4, '购买方纳税人识别号')).toContain('校验位');
      expect(at('发票信息', 5, '流水号')).toContain('重复');
      expect(at('发票信息', 6, '单价金额含税')).toContain('公式');
      expect(at('商品明细', 2, '金额')).toBe('金额须为数字');
      expect(at('商品明细', 3, '数量')).toBe('数量须大于0');
      expect(at('商品明细', 4, '金额')).toBe('金额最多2位小数');
      expect(at('商品明细', 5, '税率')).toContain('7%');
      expect(at('商品明细', 6, '金额')).toContain('公式');
      expect(at('商品明细', 7, '金额')).toContain('数量×单价');
      expect(at('商品明细', 8, '税收分类编码')).toContain('19位');
      expect(at('商品明细', 9, '流水号')).toContain('NOPE');
      await nothingHappened();
    });

    it('refuses more than 100,000 item rows and more than 10,000 invoices', async () => {
      const tooManyLines = await bigBatchFile({ invoices: 1, extraLines: 100_000 });
      const errs = await refused(await send(tooManyLines), BATCH_CODE.TOO_MANY);
      expect(errs[0]).toMatchObject({ sheet: '商品明细', row: 100_002 });
      expect(errs[0]!.message).toContain('100000');
      const tooManyInvoices = await bigBatchFile({ invoices: 10_001 });
      const errs2 = await refused(await send(tooManyInvoices), BATCH_CODE.TOO_MANY);
      expect(errs2[0]).toMatchObject({ sheet: '发票信息', row: 10_002 });
      await nothingHappened();
    }, 120_000);

    it('refuses a kind the device cannot issue and a device of another store', async () => {
      const errs = await refused(
        await send(await file(1, { inv: () => ({ 发票种类: '增值税专用发票' }) })),
        BATCH_CODE.ROWS_INVALID,
      );
      expect(errs[0]).toMatchObject({ sheet: '发票信息', column: '发票种类' });
      const res = await send(await file(1), { device: f.ids.goldenBranch, type: '007' });
      expect(res.json.code).toBe(INVOICE_CODE.DEVICE_NOT_BOUND);
      await nothingHappened();
    });

    describe("a small-scale business's 3% rows: the template has no reason column", () => {
      const lodging = { 项目名称: '住宿费', 税收分类编码: '3070402000000000000', 单位: '天' };
      const hotelUpload = async (rates: string[]) => {
        const p = `SS${++seq}x`;
        const buf = await fillTemplate(
          template,
          rates.map((_, i) => invoiceRow(`${p}${i + 1}`)),
          rates.map((rate, i) => lineRow(`${p}${i + 1}`, { ...lodging, 税率: rate })),
        );
        return upload(
          t.app,
          `/v3/batch-invoice/upload?${f.scope(f.ids.hotel, f.ids.bs)}&device_id=${f.ids.hotelDigital}&invoice_type=82`,
          f.admin,
          { filename: 'batch.xlsx', content: buf },
        );
      };
      afterEach(() => clock.release());

      it('refuses them while the 1% reduction runs (its last second, 2027-12-31 Beijing)', async () => {
        clock.set('2027-12-31T15:59:59Z');
        const errs = await refused(await hotelUpload(['3%', '1%']), BATCH_CODE.ROWS_INVALID);
        // the 3% invoice only, on its 发票信息 row; the 1% one passes
        expect(errs).toEqual([
          { sheet: '发票信息', row: 2, column: '', message: MONEY_MSG.SMALL_SCALE_REASON_REQUIRED },
        ]);
        await nothingHappened();
      });

      it('takes them once it has ended (00:00 on 2028-01-01 Beijing), and refuses 1% instead', async () => {
        clock.set('2027-12-31T16:00:00Z');
        const res = await hotelUpload(['3%', '1%']);
        const errs = await refused(res, BATCH_CODE.ROWS_INVALID);
        expect(errs.map((e) => e.message)).not.toContain(MONEY_MSG.SMALL_SCALE_REASON_REQUIRED);
        expect(errs).toEqual([
          expect.objectContaining({ sheet: '商品明细', row: 3, message: expect.stringContaining('税率') }),
        ]);
        await nothingHappened();
        const ok = await hotelUpload(['3%']);
        expect(ok.json.code, JSON.stringify(ok.json)).toBe(0);
        expect(ok.json.data).toMatchObject({ status: 'ready', invoice_count: 1 });
        const cancelled = await call(
          t.app,
          'POST',
          `/v3/batch-invoice/cancel?${f.scope(f.ids.hotel, f.ids.bs)}`,
          { token: f.admin, body: { batch_id: ok.json.data.batch_id } },
        );
        expect(cancelled.json.data.status).toBe('cancelled');
      });
    });
  });

  describe('claims', () => {
    it('a claim skips the rows another runner holds: it neither waits for them nor takes them', async () => {
      const dr = (await send(await file(8))).json.data;
      // another runner's claim in flight: its statement has locked the first four rows, not yet committed
      const other = await holdLock(
        t.url,
        'select seq from batch_rows where batch_id = $1 and seq <= 4 order by seq for update',
        [dr.batch_id],
      );
      try {
        await post('start', { batch_id: dr.batch_id });
        const first = await Promise.race([
          runToEnd(dr.batch_id),
          other.waiters(1).then(() => 'a lane waited for the rows another runner holds'),
        ]);
        expect(first).toMatchObject({ status: 'running', issued: 4, pending: 4 });
        const rows = await t.db.execute<{ seq: number; status: string }>(
          sql`select seq, status from batch_rows where batch_id = ${dr.batch_id} order by seq`,
        );
        expect(rows.rows.map((r) => r.status)).toEqual([
          ...Array(4).fill('pending'),
          ...Array(4).fill('issued'),
        ]);
      } finally {
        await other.release();
      }
      t.app.batchRunner!.ensure(dr.batch_id);
      expect(await runToEnd(dr.batch_id)).toMatchObject({ status: 'done', issued: 8 });
      const made = await t.db.execute<{ n: number }>(
        sql`select count(*)::int as n from invoices where serial_no like ${`B${String(dr.batch_id).padStart(6, '0')}-%`}`,
      );
      expect(made.rows[0]!.n).toBe(8);
    });
  });

  describe('pause, resume, cancel, retry', () => {
    it('pauses mid-run (issued rows stay, the rest wait), resumes to the end', async () => {
      const dr = (await send(await file(40))).json.data;
      await midRun(dr.batch_id, async () => {
        const paused = await post('pause', { batch_id: dr.batch_id });
        expect(paused.json.data).toMatchObject({ status: 'paused', pause_reason: 'user' });
      });
      const p = await runToEnd(dr.batch_id);
      expect(p.status).toBe('paused');
      // the rows in flight when it paused are issued (one per lane at most); the rest wait
      expect(p.issued).toBeGreaterThan(0);
      expect(p.issued).toBeLessThanOrEqual(t.app.batchRunner!.opts.lanes);
      expect(p.issued + p.pending).toBe(40);
      expect((await post('pause', { batch_id: dr.batch_id })).json.code).toBe(BATCH_CODE.BAD_STATE);
      await post('resume', { batch_id: dr.batch_id });
      expect(await runToEnd(dr.batch_id)).toMatchObject({ status: 'done', issued: 40 });
    });

    it('cancels: the rest is skipped and never issued', async () => {
      const before = await invoiceCount();
      const dr = (await send(await file(30))).json.data;
      await midRun(dr.batch_id, async () => {
        expect((await post('cancel', { batch_id: dr.batch_id })).json.data.status).toBe('cancelled');
      });
      const p = await runToEnd(dr.batch_id);
      expect(p.status).toBe('cancelled');
      expect(p.issued).toBeGreaterThan(0);
      expect(p.issued).toBeLessThanOrEqual(t.app.batchRunner!.opts.lanes);
      expect(p.issued + p.skipped).toBe(30);
      expect(await invoiceCount()).toBe(before + p.issued);
      expect((await post('resume', { batch_id: dr.batch_id })).json.code).toBe(BATCH_CODE.BAD_STATE);
    });

    it('settles an "unknown" channel answer by asking the channel for the serial', async () => {
      const dr = (await send(await file(3))).json.data;
      await f.dev('control', {
        device_id: f.ids.digital,
        fault: 'unknown',
        fault_count: 1,
        unknown_visible_after_s: 0,
      });
      await post('start', { batch_id: dr.batch_id });
      const p = await runToEnd(dr.batch_id);
      expect(p).toMatchObject({ status: 'done', issued: 3, failed: 0 });
      const ev = await t.db.execute<{ n: number }>(sql`
        select count(*)::int as n from invoice_events e join invoices i on i.id = e.invoice_id
        where e.kind = 'reconciled' and i.serial_no like ${`B${String(dr.batch_id).padStart(6, '0')}-%`}`);
      expect(ev.rows[0]!.n).toBe(1);
    });

    it('retries failed rows with the same serials: one invoice each', async () => {
      const dr = (await send(await file(6))).json.data;
      await f.dev('control', {
        device_id: f.ids.digital,
        fault: 'error',
        fault_code: '70001',
        fault_message: '税局系统繁忙',
        fault_count: 2,
      });
      await post('start', { batch_id: dr.batch_id });
      let p = await runToEnd(dr.batch_id);
      expect(p).toMatchObject({ status: 'done', issued: 4, failed: 2 });
      const failed = (await get(`rows?${scope()}&batch_id=${dr.batch_id}&status=failed`)).json.data.list;
      expect(failed[0].error_message).toContain('税局系统繁忙');
      const serials = failed.map((r: { serial_no: string }) => r.serial_no);

      const retried = await post('retry', { batch_id: dr.batch_id });
      expect(retried.json.data.status).toBe('running');
      p = await runToEnd(dr.batch_id);
      expect(p).toMatchObject({ status: 'done', issued: 6, failed: 0 });
      const inv = await t.db.execute<{ serial_no: string; status: string }>(
        sql`select serial_no, status from invoices where serial_no = any(${`{${serials.join(',')}}`}::text[])`,
      );
      expect(inv.rows).toHaveLength(2);
      expect(inv.rows.every((r) => r.status === 'issued')).toBe(true);
      expect((await post('retry', { batch_id: dr.batch_id })).json.code).toBe(BATCH_CODE.NOTHING_TO_RETRY);
    });

    it('refuses to start when the quota cannot cover the batch', async () => {
      const dr = (await send(await file(2))).json.data;
      await f.dev('device', { device_id: f.ids.digital, monthly_quota: '100.00', quota_used: '0.00' });
      try {
        const dry = (await get(`dry-run?${scope()}&batch_id=${dr.batch_id}`)).json.data;
        expect(dry.quota).toMatchObject({ kind: 'quota', remaining: '100.00', enough: false });
        const res = await post('start', { batch_id: dr.batch_id });
        expect(res.json.code).toBe(BATCH_CODE.QUOTA_INSUFFICIENT);
        expect(res.json.message).toContain('100.00');
      } finally {
        await f.dev('device', { device_id: f.ids.digital, monthly_quota: '10000000.00' });
      }
      await post('cancel', { batch_id: dr.batch_id });
    });
  });

  describe('bookkeeping service expired (spec §1)', () => {
    const setExpiry = async (at: Date | null) => {
      const [c] = await t.db.select().from(clients).where(eq(clients.id, f.ids.software));
      await t.db.update(orgs).set({ bookkeepingExpiresAt: at }).where(eq(orgs.id, c!.orgId));
    };

    it('pauses a running batch with the notice, refuses to start or upload, resumes once restored', async () => {
      try {
        const dr = (await send(await file(20))).json.data;
        const waiting = (await send(await file(2))).json.data;
        // expires while the first rows are in flight: the lanes finish the rows they hold, claim no more
        await midRun(dr.batch_id, () => setExpiry(new Date(Date.now() - 1000)));

        let p = await runToEnd(dr.batch_id);
        expect(p).toMatchObject({
          status: 'paused',
          pause_reason: 'bookkeeping',
          notice: MSG.GRAY_BOOKKEEPING,
        });
        expect(p.issued).toBeGreaterThan(0);
        expect(p.issued).toBeLessThanOrEqual(t.app.batchRunner!.opts.lanes * CLAIM_ROWS.first);
        expect(p.issued + p.pending).toBe(20);
        const start = await post('start', { batch_id: waiting.batch_id });
        expect(start.json).toMatchObject({
          code: BATCH_CODE.BOOKKEEPING_EXPIRED,
          message: MSG.GRAY_BOOKKEEPING,
        });
        expect((await post('resume', { batch_id: dr.batch_id })).json.code).toBe(
          BATCH_CODE.BOOKKEEPING_EXPIRED,
        );
        expect((await send(await file(1))).json.code).toBe(BATCH_CODE.BOOKKEEPING_EXPIRED);
        // the page still shows the paused batch and why
        const list = (await get(`list?${scope()}`)).json;
        expect(list.code).toBe(0);
        expect(list.data.list.find((b: { batch_id: number }) => b.batch_id === dr.batch_id).notice).toBe(
          MSG.GRAY_BOOKKEEPING,
        );

        await setExpiry(null);
        await t.app.batchRunner!.sweep();
        p = await runToEnd(dr.batch_id);
        expect(p).toMatchObject({ status: 'done', issued: 20, pause_reason: '', notice: null });
        await post('cancel', { batch_id: waiting.batch_id });
      } finally {
        await setExpiry(null);
      }
    });
  });

  describe('crash recovery in-process', () => {
    it('re-drives rows a dead runner left issuing, including an invoice it left half-issued', async () => {
      const dr = (await send(await file(4))).json.data;
      // rows 1-2 claimed by a runner whose process died (its liveness lock is not held by anyone)
      await t.db.execute(
        sql`update batch_rows set status = 'issuing', worker = 12345, attempts = 1 where batch_id = ${dr.batch_id} and seq <= 2`,
      );
      // row 1's invoice was inserted and the process died before the channel answered
      const [row1] = (
        await t.db.execute<{ request: any }>(
          sql`select request from batch_rows where batch_id = ${dr.batch_id} and seq = 1`,
        )
      ).rows;
      const first = await f.issue(row1!.request);
      expect(first.json.code).toBe(0);
      await t.db.execute(sql`
        update invoices set status = 'issuing', invoice_no = null, issued_at = null
        where serial_no = ${row1!.request.serial_no}`);
      await t.db.execute(
        sql`delete from channel_sandbox_issues where serial_no = ${row1!.request.serial_no}`,
      );
      // running last: the runner's own sweep (every 2 s) must not see the batch before its rows are set
      await t.db.execute(
        sql`update batches set status = 'running', started_at = now() where id = ${dr.batch_id}`,
      );

      // the first call may join a sweep that began before the batch was running
      await t.app.batchRunner!.sweep();
      await t.app.batchRunner!.sweep();
      const p = await runToEnd(dr.batch_id);
      expect(p).toMatchObject({ status: 'done', issued: 4, failed: 0 });
      const inv = await t.db.execute<{ n: number }>(
        sql`select count(*)::int as n from invoices where serial_no like ${`B${String(dr.batch_id).padStart(6, '0')}-%`} and status = 'issued'`,
      );
      expect(inv.rows[0]!.n).toBe(4);
    });
  });

  describe('access', () => {
    it('answers 17001 for a batch of another business, and the summary view cannot upload', async () => {
      const sent = await send(await file(1));
      expect(sent.json.code, JSON.stringify(sent.json)).toBe(0);
      const dr = sent.json.data;
      const other = await call(
        t.app,
        'GET',
        `/v3/batch-invoice/progress?${f.scope(f.ids.hotel, f.ids.bs)}&batch_id=${dr.batch_id}`,
        { token: f.admin },
      );
      expect(other.json.code).toBe(BATCH_CODE.NOT_FOUND);
      const cancel = await call(t.app, 'POST', `/v3/batch-invoice/cancel?${f.scope(f.ids.hotel, f.ids.bs)}`, {
        token: f.admin,
        body: { batch_id: dr.batch_id },
      });
      expect(cancel.json.code).toBe(BATCH_CODE.NOT_FOUND);
      const summary = await upload(
        t.app,
        `/v3/batch-invoice/upload?client_id=${f.ids.software}&sid=-1&device_id=${f.ids.digital}&invoice_type=82`,
        f.admin,
        { filename: 'a.xlsx', content: await file(1) },
      );
      expect(summary.json.code).toBe(CODE.SWITCH_STORE);
      await post('cancel', { batch_id: dr.batch_id });
    });
  });
});
