import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, insertFixtures } from '../../../test/fixtures/query.ts';
import { buildTestApp, call, DEMO, login } from '../../../test/helper.ts';

type TestApp = Awaited<ReturnType<typeof buildTestApp>>;

async function waitDone(t: TestApp, token: string, clientId: number, recordId: number) {
  for (let i = 0; i < 120; i++) {
    const res = await call(t.app, 'POST', `/v3/invoice-export/list?client_id=${clientId}&sid=-1`, {
      token,
      body: {},
    });
    if (res.json.code !== 0) throw new Error(JSON.stringify(res.json));
    const rec = res.json.data.list.find((r: { record_id: number }) => r.record_id === recordId);
    if (rec && (rec.status === 'done' || rec.status === 'failed')) return rec;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`export ${recordId} did not finish`);
}

async function download(t: TestApp, token: string, clientId: number, recordId: number) {
  return t.app.inject({
    method: 'GET',
    url: `/v3/invoice-export/download?client_id=${clientId}&sid=-1&record_id=${recordId}`,
    headers: { 'access-token': token },
  });
}

describe.each([
  ['pg-boss job', { KAIPIAO_JOBS: 'on' }],
  ['in-process (jobs off)', { KAIPIAO_JOBS: 'off' }],
])('invoice exports (%s)', (_name, env) => {
  let t: TestApp;
  let admin: string;
  let clerk: string;
  let f: Fixture;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kp-export-'));
    t = await buildTestApp({ env: { ...env, KAIPIAO_DATA_DIR: dataDir } });
    if (env.KAIPIAO_JOBS === 'on') await t.app.jobs.started();
    admin = await login(t.app, DEMO.admin.account);
    clerk = await login(t.app, DEMO.clerk.account);
    f = await insertFixtures(t.db);
  });
  afterAll(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('builds the Excel file of the filtered invoices and their lines, then serves it', async () => {
    const created = await call(t.app, 'POST', `/v3/invoice-export/create?client_id=${f.software}&sid=-1`, {
      token: admin,
      body: { kind: 'excel', filters: { date_from: '2026-10-01', date_to: '2026-11-30' } },
    });
    expect(created.json).toMatchObject({ code: 0, data: { row_count: 7 } });
    const rec = await waitDone(t, admin, f.software, created.json.data.record_id);
    expect(rec).toMatchObject({
      status: 'done',
      status_name: '已完成',
      kind_name: 'Excel导出',
      progress: 100,
      row_count: 7,
      created_by_name: DEMO.admin.nickname,
      summary: '开票日期 2026-10-01 至 2026-11-30',
    });
    expect(rec.file_name).toMatch(/^发票明细_\d{8}_\d{6}\.xlsx$/);

    const res = await download(t, admin, f.software, rec.record_id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(String(res.headers['content-disposition'])).toContain(encodeURIComponent(rec.file_name));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const invoicesSheet = wb.getWorksheet('发票列表')!;
    expect(invoicesSheet.rowCount).toBe(8);
    expect(invoicesSheet.getRow(1).getCell(2).value).toBe('发票号码');
    const numbers = invoicesSheet.getColumn(2).values.slice(2);
    expect(numbers).toContain(f.numbers.A);
    const linesSheet = wb.getWorksheet('商品明细')!;
    expect(linesSheet.rowCount).toBe(1 + 8);
  });

  it('zips the PDFs of the selected issued invoices (rendering missing ones)', async () => {
    const created = await call(t.app, 'POST', `/v3/invoice-export/create?client_id=${f.software}&sid=-1`, {
      token: admin,
      body: { kind: 'pdf_zip', invoice_ids: [f.ids.A, f.ids.C, f.ids.E] },
    });
    // E failed: no document, so two of the three
    expect(created.json).toMatchObject({ code: 0, data: { row_count: 2 } });
    const rec = await waitDone(t, admin, f.software, created.json.data.record_id);
    expect(rec).toMatchObject({ status: 'done', row_count: 2, summary: '已选3张' });
    const res = await download(t, admin, f.software, rec.record_id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const zip = res.rawPayload;
    expect(zip.subarray(0, 2).toString()).toBe('PK');
    // entry names sit uncompressed in the zip headers
    expect(zip.includes(Buffer.from(f.numbers.A!))).toBe(true);
    expect(zip.includes(Buffer.from(f.numbers.C!))).toBe(true);
    expect(zip.includes(Buffer.from('%PDF'))).toBe(true);
  });

  it('refuses exports with nothing in them, and keeps records and files to the business', async () => {
    const empty = await call(t.app, 'POST', `/v3/invoice-export/create?client_id=${f.software}&sid=-1`, {
      token: admin,
      body: { kind: 'pdf_zip', invoice_ids: [f.ids.E] },
    });
    expect(empty.json.code).toBe(16011);
    // another tenant's invoice cannot be selected into an export
    const foreign = await call(t.app, 'POST', `/v3/invoice-export/create?client_id=${f.software}&sid=-1`, {
      token: admin,
      body: { kind: 'excel', invoice_ids: [f.ids.H] },
    });
    expect(foreign.json.code).toBe(16011);
    // the clerk's export covers only her store
    const mine = await call(t.app, 'POST', `/v3/invoice-export/create?client_id=${f.software}&sid=-1`, {
      token: clerk,
      body: { kind: 'excel' },
    });
    expect(mine.json.data.row_count).toBe(4);
    const rec = await waitDone(t, clerk, f.software, mine.json.data.record_id);
    expect(rec.row_count).toBe(4);
    // records of the software company are not the hotel's
    const hotelList = await call(t.app, 'POST', `/v3/invoice-export/list?client_id=${f.hotel}&sid=-1`, {
      token: admin,
      body: {},
    });
    expect(hotelList.json.data).toMatchObject({ list: [], total: 0 });
    const cross = await download(t, admin, f.hotel, rec.record_id);
    expect(cross.json()).toMatchObject({ code: 16012, data: null });
  });
});
