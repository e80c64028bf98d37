import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  CODE,
  EXPORT_EXCEL_MAX,
  EXPORT_PDF_MAX,
  INVOICE_TYPES,
  QUERY_CODE,
  SESSION_CODE,
} from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Fixture, insertFixtures } from '../../../test/fixtures/query.ts';
import { buildTestApp, call, DEMO, login } from '../../../test/helper.ts';
import { AppError } from '../../lib/app-error.ts';
import { describeFilters, tooManyToExport } from './exports.ts';

describe('what an export record says it covers (describeFilters)', () => {
  it('names every filter, in order, and 全部发票 when there is none', () => {
    expect(describeFilters({}, null)).toBe('全部发票');
    expect(
      describeFilters(
        {
          date_from: '2026-11-01',
          date_to: '2026-11-30',
          // 'XX': a type code this version no longer knows, in a stored record's filters
          invoice_types: ['82', 'XX' as never],
          invoice_no: '0001',
          buyer_name: '星河',
          buyer_tax_code: '91330106',
          statuses: ['normal', 'full_red'],
          direction: 'red',
          amount_min: '10',
          amount_max: '99',
        },
        3,
      ),
    ).toBe(
      `已选3张；开票日期 2026-11-01 至 2026-11-30；${INVOICE_TYPES['82']}、XX；号码 0001；购方 “星河”；购方税号 91330106；正常、全额红冲；红字；价税合计 10 ~ 99`,
    );
    expect(describeFilters({ date_to: '2026-11-30', direction: 'blue', amount_max: '5' }, null)).toBe(
      '开票日期 … 至 2026-11-30；蓝字；价税合计 … ~ 5',
    );
    expect(
      describeFilters({ date_from: '2026-11-01', amount_min: '1', invoice_types: [], statuses: [] }, 0),
    ).toBe('已选0张；开票日期 2026-11-01 至 …；价税合计 1 ~ …');
  });
});

describe('the refusal of an export over its limit (tooManyToExport)', () => {
  // the route refuses a PDF export over its limit in the test below; 200,000 invoices for Excel's
  // is too many to insert for a test, so its message is checked here
  it('names the kind and its limit', () => {
    const excel = tooManyToExport('excel', EXPORT_EXCEL_MAX);
    expect(excel).toBeInstanceOf(AppError);
    expect({ code: excel.code, message: excel.message }).toEqual({
      code: QUERY_CODE.EXPORT_TOO_MANY,
      message: `Excel导出单次最多${EXPORT_EXCEL_MAX}张，当前超过${EXPORT_EXCEL_MAX}张，请缩小查询范围后再导出`,
    });
    expect(tooManyToExport('pdf_zip', 7).message).toBe(
      'PDF批量下载单次最多7张，当前超过7张，请缩小查询范围后再导出',
    );
  });
});

/**
 * The export routes' refusals and the record's life (exports.ts): dates the wrong way round, too many
 * invoices, three running at once, download of a record not found / not ready / expired / whose file
 * is gone / covering another store, and the list's expired state, summary and author.
 */
describe('invoice export rules', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let admin: string;
  let clerk: string;
  let f: Fixture;
  let dataDir: string;
  const q = (clientId: number) => `client_id=${clientId}&sid=-1`;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kp-export-rules-'));
    t = await buildTestApp({ env: { KAIPIAO_JOBS: 'off', KAIPIAO_DATA_DIR: dataDir } });
    admin = await login(t.app, DEMO.admin.account);
    clerk = await login(t.app, DEMO.clerk.account);
    f = await insertFixtures(t.db);
  });
  afterAll(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const create = (body: unknown, token = admin, clientId = f.software) =>
    call(t.app, 'POST', `/v3/invoice-export/create?${q(clientId)}`, { token, body });
  const list = async (token = admin, clientId = f.software) =>
    (await call(t.app, 'POST', `/v3/invoice-export/list?${q(clientId)}`, { token, body: {} })).json.data;
  const download = (recordId: number, token = admin) =>
    t.app.inject({
      method: 'GET',
      url: `/v3/invoice-export/download?${q(f.software)}&record_id=${recordId}`,
      headers: { 'access-token': token },
    });
  const waitDone = async (recordId: number) => {
    for (let i = 0; i < 120; i++) {
      const rec = (await list()).list.find((r: { record_id: number }) => r.record_id === recordId);
      if (rec && rec.status !== 'queued' && rec.status !== 'running') return rec;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`export ${recordId} did not finish`);
  };
  /** an export record written directly (a state the runner passes through too quickly to catch) */
  const record = async (set: {
    status: string;
    created?: string;
    expires?: string;
    stores?: number[] | null;
    file?: string;
  }) =>
    Number(
      (
        await t.db.execute<{ id: number }>(sql`
          insert into export_records (client_id, kind, status, filters, store_ids, created_by, created_at, expires_at,
            file_path, file_name)
          values (${f.software}, 'excel', ${set.status}, '{}'::jsonb,
            ${set.stores === undefined || set.stores === null ? null : sql`${`{${set.stores.join(',')}}`}::int[]`},
            ${f.admin}, now() - ${set.created ?? '0 minutes'}::interval, now() + ${set.expires ?? '7 days'}::interval,
            ${set.file ?? null}, 'x.xlsx')
          returning id`)
      ).rows[0]!.id,
    );

  it('refuses a date range that ends before it starts, in the list and the export', async () => {
    const filters = { date_from: '2026-11-30', date_to: '2026-11-01' };
    expect((await create({ kind: 'excel', filters })).json).toMatchObject({
      code: QUERY_CODE.DATE_RANGE_INVALID,
      message: '开始日期不能晚于结束日期',
    });
    const listed = await call(t.app, 'POST', `/v3/invoice-record/list?${q(f.software)}`, {
      token: admin,
      body: filters,
    });
    expect(listed.json.code).toBe(QUERY_CODE.DATE_RANGE_INVALID);
    // the same day at both ends is a range
    expect(
      (await create({ kind: 'excel', filters: { date_from: '2026-11-10', date_to: '2026-11-10' } })).json
        .code,
    ).toBe(0);
  });

  it(`refuses a PDF download of more than ${EXPORT_PDF_MAX} invoices, naming the limit; exactly the limit is taken`, async () => {
    // EXPORT_PDF_MAX + 1 issued copies of invoice A in a store of their own
    const copy = (n: number) => sql`
      insert into invoices (client_id, store_id, device_id, serial_no, request_hash, invoice_type, direction, status,
        issued_at, buyer_name, seller_name, seller_tax_code, total_amount, total_tax, total_with_tax, invoice_no)
      select client_id, store_id, device_id, 'BULK' || g, 'bulk', invoice_type, direction, status, issued_at,
        '批量购方', seller_name, seller_tax_code, total_amount, total_tax, total_with_tax, '771' || lpad(g::text, 17, '0')
      from invoices, generate_series(1, ${n}) g where id = ${f.ids.A}`;
    await t.db.execute(copy(EXPORT_PDF_MAX));
    const bulk = { kind: 'pdf_zip', filters: { buyer_name: '批量购方' } };
    const many = await t.db.execute(
      sql`select count(*)::int as n from invoices where buyer_name = '批量购方'`,
    );
    expect(many.rows[0]).toEqual({ n: EXPORT_PDF_MAX });
    await t.db.execute(
      sql`update invoices set status = 'failed' where buyer_name = '批量购方' and serial_no = 'BULK1'`,
    );
    await t.db.execute(sql`
      insert into invoices (client_id, store_id, device_id, serial_no, request_hash, invoice_type, direction, status,
        issued_at, buyer_name, seller_name, seller_tax_code, total_amount, total_tax, total_with_tax, invoice_no)
      select client_id, store_id, device_id, 'BULK-X' || g, 'bulk', invoice_type, direction, 'issued', issued_at,
        '批量购方', seller_name, seller_tax_code, total_amount, total_tax, total_with_tax, '772' || lpad(g::text, 17, '0')
      from invoices, generate_series(1, 2) g where id = ${f.ids.A}`);
    // 1001 issued now
    const over = await create(bulk);
    expect(over.json).toMatchObject({
      code: QUERY_CODE.EXPORT_TOO_MANY,
      message: `PDF批量下载单次最多${EXPORT_PDF_MAX}张，当前超过${EXPORT_PDF_MAX}张，请缩小查询范围后再导出`,
    });
    await t.db.execute(sql`update invoices set status = 'failed' where serial_no = 'BULK-X1'`);
    // exactly the limit: accepted (the record is removed again so the PDFs are not rendered here)
    const at = await create(bulk);
    expect(at.json.data.row_count, at.json.message).toBe(EXPORT_PDF_MAX);
    await t.db.execute(sql`delete from export_records where id = ${at.json.data.record_id}`);
    await t.db.execute(
      sql`update invoices set buyer_name = '批量购方（已用）' where buyer_name = '批量购方'`,
    );
  });

  it('three exports running in the last hour: a fourth waits; older or finished ones do not count', async () => {
    await t.db.execute(sql`delete from export_records`);
    await record({ status: 'queued' });
    await record({ status: 'running' });
    await record({ status: 'running', created: '61 minutes' });
    await record({ status: 'done' });
    await record({ status: 'failed' });
    const third = await create({ kind: 'excel' });
    expect(third.json.code, third.json.message).toBe(0);
    await waitDone(third.json.data.record_id);
    // the third finished: two active, so one more is taken; then a third active one
    const again = await create({ kind: 'excel' });
    expect(again.json.code).toBe(0);
    await waitDone(again.json.data.record_id);
    const active = await record({ status: 'running' });
    const busy = await create({ kind: 'excel' });
    expect(busy.json).toMatchObject({ code: QUERY_CODE.EXPORT_BUSY, data: null });
    await t.db.execute(sql`update export_records set status = 'failed' where id = ${active}`);
  });

  it('download: not found, not ready, expired, file gone — each says so; a done file is served with its name', async () => {
    const done = await create({ kind: 'excel', filters: { buyer_name: '星河' } });
    const rec = await waitDone(done.json.data.record_id);
    expect(rec).toMatchObject({
      status: 'done',
      kind_name: 'Excel导出',
      status_name: '已完成',
      created_by_name: DEMO.admin.nickname,
    });
    expect(rec.summary).toBe('购方 “星河”');
    const ok = await download(rec.record_id);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(ok.headers['content-disposition']).toBe(
      `attachment; filename="export.xlsx"; filename*=UTF-8''${encodeURIComponent(rec.file_name)}`,
    );
    expect(ok.headers['cache-control']).toBe('no-store');
    expect(Number(ok.headers['content-length'])).toBe(ok.rawPayload.length);

    expect((await download(999_999_999)).json()).toMatchObject({
      code: QUERY_CODE.EXPORT_NOT_FOUND,
      data: null,
    });
    const queued = await record({ status: 'queued' });
    expect((await download(queued)).json()).toMatchObject({ code: QUERY_CODE.EXPORT_NOT_READY });
    await t.db.execute(sql`update export_records set status = 'failed' where id = ${queued}`);

    // expired: listed as 已过期 and refused, though the file may still be on disk
    await t.db.execute(
      sql`update export_records set expires_at = now() - interval '1 second' where id = ${rec.record_id}`,
    );
    expect((await list()).list.find((r: { record_id: number }) => r.record_id === rec.record_id).status).toBe(
      'expired',
    );
    expect((await download(rec.record_id)).json()).toMatchObject({ code: QUERY_CODE.EXPORT_EXPIRED });
    // not expired, but its file is gone (a restore from backup without the data directory)
    await t.db.execute(
      sql`update export_records set expires_at = now() + interval '1 day' where id = ${rec.record_id}`,
    );
    const file = (
      await t.db.execute<{ file_path: string }>(
        sql`select file_path from export_records where id = ${rec.record_id}`,
      )
    ).rows[0]!.file_path;
    await fs.rm(path.join(dataDir, file));
    expect((await download(rec.record_id)).json()).toMatchObject({ code: QUERY_CODE.EXPORT_EXPIRED });
    const noPath = await record({ status: 'done' });
    expect((await download(noPath)).json()).toMatchObject({ code: QUERY_CODE.EXPORT_EXPIRED });
  });

  it('a finished export expires at exactly its expiry time (listed 已过期, refused); a failed one past its time stays failed', async () => {
    const end = Date.now() + 3_600_000;
    await fs.mkdir(path.join(dataDir, 'exports'), { recursive: true });
    await fs.writeFile(path.join(dataDir, 'exports', 'at-end.xlsx'), 'x');
    const done = await record({ status: 'done', file: 'exports/at-end.xlsx' });
    await t.db.execute(
      sql`update export_records set expires_at = ${new Date(end).toISOString()}::timestamptz where id = ${done}`,
    );
    const failed = await record({ status: 'failed', expires: '-1 day' });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(end - 1);
      expect((await list()).list.find((r: { record_id: number }) => r.record_id === done).status).toBe(
        'done',
      );
      expect((await download(done)).statusCode).toBe(200);
      vi.setSystemTime(end);
      const rows = (await list()).list;
      expect(rows.find((r: { record_id: number }) => r.record_id === done)).toMatchObject({
        status: 'expired',
        status_name: '已过期',
      });
      expect(rows.find((r: { record_id: number }) => r.record_id === failed)).toMatchObject({
        status: 'failed',
        status_name: '失败',
      });
      expect((await download(done)).json()).toMatchObject({ code: QUERY_CODE.EXPORT_EXPIRED, data: null });
    } finally {
      vi.useRealTimers();
    }
  });

  it('as registered: each export route checks its input, and an export made by an app built in the test runs to the end', async () => {
    // an app of its own, built in the test: route options are read while the app is built
    // (closed with the file, by the helper's afterAll)
    const own = await buildTestApp({ reuse: t, env: { KAIPIAO_JOBS: 'off', KAIPIAO_DATA_DIR: dataDir } });
    const field = (res: { json: { code: number; data: { errors: { field: string }[] } } }) => {
      expect(res.json.code).toBe(CODE.VALIDATION);
      return res.json.data.errors.map((e) => e.field);
    };
    const post = (route: string, body: unknown) =>
      call(own.app, 'POST', `/v3/invoice-export/${route}?${q(f.software)}`, { token: admin, body });
    expect(field(await post('create', { kind: 'csv' }))).toEqual(['kind']);
    expect(field(await post('list', { page_size: 7 }))).toEqual(['page_size']);
    const bad = await own.app.inject({
      method: 'GET',
      url: `/v3/invoice-export/download?${q(f.software)}&record_id=abc`,
      headers: { 'access-token': admin },
    });
    expect(bad.json().code).toBe(CODE.VALIDATION);
    expect(bad.json().data.errors.map((e: { field: string }) => e.field)).toEqual(['record_id']);
    const made = await post('create', { kind: 'excel', filters: { buyer_name: '星河' } });
    expect(made.json.code).toBe(0);
    expect(Object.keys(made.json.data).sort()).toEqual(['record_id', 'row_count']);
    expect(await waitDone(made.json.data.record_id)).toMatchObject({ status: 'done', error: null });
  });

  it('a store clerk: only exports within her store are listed or served; the business-wide ones are refused', async () => {
    const all = await record({ status: 'done', file: 'exports/none.xlsx' });
    const other = await record({ status: 'done', stores: [f.stores.BJ], file: 'exports/none.xlsx' });
    const hers = await record({ status: 'queued', stores: [f.stores.HQ] });
    const listed = (await list(clerk)).list.map((r: { record_id: number }) => r.record_id);
    expect(listed).toContain(hers);
    expect(listed).not.toContain(all);
    expect(listed).not.toContain(other);
    for (const id of [all, other]) {
      expect((await download(id, clerk)).json(), String(id)).toMatchObject({
        code: SESSION_CODE.STORE_NOT_PERMITTED,
        data: null,
      });
    }
    expect((await download(hers, clerk)).json()).toMatchObject({ code: QUERY_CODE.EXPORT_NOT_READY });
    // covering her store and another: neither listed nor served
    const mixed = await record({
      status: 'done',
      stores: [f.stores.HQ, f.stores.BJ],
      file: 'exports/none.xlsx',
    });
    expect((await list(clerk)).list.map((r: { record_id: number }) => r.record_id)).not.toContain(mixed);
    expect((await download(mixed, clerk)).json()).toMatchObject({ code: SESSION_CODE.STORE_NOT_PERMITTED });
    await t.db.execute(sql`update export_records set status = 'failed' where id in (${hers}, ${mixed})`);
  });

  it('the list pages newest first with the total, and shows no size before a file exists', async () => {
    await t.db.execute(sql`delete from export_records`);
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push(await record({ status: 'failed', created: `${12 - i} minutes` }));
    const queued = await record({ status: 'queued' });
    await t.db.execute(sql`update export_records set file_size = 2048 where id = ${ids[0]}`);
    const page = async (n: number) =>
      (
        await call(t.app, 'POST', `/v3/invoice-export/list?${q(f.software)}`, {
          token: admin,
          body: { page: n, page_size: 10 },
        })
      ).json.data;
    const first = await page(1);
    expect(first).toMatchObject({ total: 13, page: 1, page_size: 10 });
    expect(first.list.map((r: { record_id: number }) => r.record_id)).toEqual([
      queued,
      ...ids.slice(3).reverse(),
    ]);
    expect(first.list[0].file_size).toBeNull();
    const second = await page(2);
    expect(second.list.map((r: { record_id: number }) => r.record_id)).toEqual(ids.slice(0, 3).reverse());
    expect(second.list.at(-1).file_size).toBe(2048);
    await t.db.execute(sql`update export_records set status = 'failed' where id = ${queued}`);
  });

  it('a zip is served as a zip; creating an export clears only its own business’s expired files', async () => {
    const zipFile = path.join('exports', String(f.software), 'served.zip');
    await fs.mkdir(path.join(dataDir, 'exports', String(f.software)), { recursive: true });
    await fs.writeFile(path.join(dataDir, zipFile), 'PK');
    const zipRec = await record({ status: 'done', file: zipFile });
    await t.db.execute(
      sql`update export_records set kind = 'pdf_zip', file_name = 'a.zip' where id = ${zipRec}`,
    );
    const served = await download(zipRec);
    expect(served.headers['content-type']).toBe('application/zip');
    expect(served.headers['content-disposition']).toBe(
      `attachment; filename="export.zip"; filename*=UTF-8''a.zip`,
    );

    const hotelFile = path.join(dataDir, 'exports', String(f.hotel), 'old.xlsx');
    await fs.mkdir(path.dirname(hotelFile), { recursive: true });
    await fs.writeFile(hotelFile, 'x');
    const hotelRec = Number(
      (
        await t.db.execute<{ id: number }>(sql`
          insert into export_records (client_id, kind, status, filters, created_by, expires_at, file_path, file_name)
          values (${f.hotel}, 'excel', 'done', '{}'::jsonb, ${f.admin}, now() - interval '1 day',
            ${path.join('exports', String(f.hotel), 'old.xlsx')}, 'old.xlsx')
          returning id`)
      ).rows[0]!.id,
    );
    const made = await create({ kind: 'excel', filters: { buyer_name: '星河' } });
    expect(made.json.code).toBe(0);
    await waitDone(made.json.data.record_id);
    expect(await fs.readFile(hotelFile, 'utf8')).toBe('x');
    const [row] = (
      await t.db.execute<{ file_path: string | null }>(
        sql`select file_path from export_records where id = ${hotelRec}`,
      )
    ).rows;
    expect(row!.file_path).not.toBeNull();
  });
});
