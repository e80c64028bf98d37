import { SESSION_CODE } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { fillTemplate, invoiceRow, lineRow } from '../../../test/fixtures/batches.ts';
import { type Fixture, invoicingFixture, payload } from '../../../test/fixtures/invoices.ts';
import { buildTestApp, call, type Json } from '../../../test/helper.ts';
import { upload } from '../../../test/xlsx-helpers.ts';

/**
 * Store scope on every "by id" read in the all-stores summary (issue 22). test/scope-matrix.test.ts
 * walks every store route with each clerk's own store selected; this file walks the reads that
 * name one row — by id or by serial — with the summary selected (sid -1) and with no sid at all,
 * where the scope is every store the clerk may use rather than the one selected. The demo clerk
 * holds 文三路总部 (HQ) only: HQ's rows answer, 滨江研发中心 (BJ)'s are refused with 12003.
 */

type Rows = {
  invoice: number;
  serial: string;
  export: number;
  redForm: number;
  code: number;
  request: number;
  batch: number;
  device: number;
};
type Read = { name: string; method: 'GET' | 'POST'; path: (r: Rows) => string; body?: (r: Rows) => object };

const READS: Read[] = [
  {
    name: 'issue result by serial',
    method: 'GET',
    path: (r) => `/v3/online-invoicing/result?serial_no=${r.serial}`,
  },
  {
    name: 'invoice detail',
    method: 'POST',
    path: () => '/v3/invoice-detail/get-invoice-detail',
    body: (r) => ({ invoice_id: r.invoice }),
  },
  { name: 'invoice PDF', method: 'GET', path: (r) => `/v3/invoice-detail/download?invoice_id=${r.invoice}` },
  { name: 'export file', method: 'GET', path: (r) => `/v3/invoice-export/download?record_id=${r.export}` },
  {
    name: 'red form',
    method: 'POST',
    path: () => '/v3/red-info/detail',
    body: (r) => ({ form_id: r.redForm }),
  },
  {
    name: 'blue invoice for a red form',
    method: 'POST',
    path: () => '/v3/red-info/blue-info',
    body: (r) => ({ invoice_id: r.invoice }),
  },
  { name: 'scan code image', method: 'GET', path: (r) => `/v3/scan-code/image?id=${r.code}` },
  { name: 'scan request', method: 'GET', path: (r) => `/v3/scan-audit/detail?id=${r.request}` },
  { name: 'batch progress', method: 'GET', path: (r) => `/v3/batch-invoice/progress?batch_id=${r.batch}` },
  { name: 'batch dry run', method: 'GET', path: (r) => `/v3/batch-invoice/dry-run?batch_id=${r.batch}` },
  { name: 'batch rows', method: 'GET', path: (r) => `/v3/batch-invoice/rows?batch_id=${r.batch}` },
  { name: 'batch result', method: 'GET', path: (r) => `/v3/batch-invoice/result?batch_id=${r.batch}` },
  { name: 'device', method: 'GET', path: (r) => `/v3/equipment/detail?id=${r.device}` },
];

let t: Awaited<ReturnType<typeof buildTestApp>>;
let f: Fixture;
const rows = {} as Record<'HQ' | 'BJ', Rows>;

beforeAll(async () => {
  t = await buildTestApp();
  f = await invoicingFixture(t.app, t.db);
  const { ids } = f;
  const template = (
    await t.app.inject({
      method: 'GET',
      url: `/v3/batch-invoice/template?client_id=${ids.software}`,
      headers: { 'access-token': f.admin },
    })
  ).rawPayload;
  // the UKey is HQ's alone, the branch disc BJ's alone
  const own = { HQ: { store: ids.hq, device: ids.ukey }, BJ: { store: ids.bj, device: ids.goldenBranch } };
  for (const key of ['HQ', 'BJ'] as const) {
    const { store, device } = own[key];
    const s = `client_id=${ids.software}&sid=${store}`;
    const admin = (method: 'GET' | 'POST', path: string, body?: unknown) =>
      call(t.app, method, `${path}?${s}`, { token: f.admin, body });
    const body = payload(ids.digital);
    const issued = await f.issue(body, { sid: store });
    expect(issued.json.code, issued.json.message).toBe(0);
    const invoice = issued.json.data.invoice_id as number;
    const exp = await admin('POST', '/v3/invoice-export/create', { kind: 'excel', invoice_ids: [invoice] });
    expect(exp.json.code, exp.json.message).toBe(0);
    const red = await admin('POST', '/v3/red-info/apply', { invoice_id: invoice, reason: '01', full: true });
    expect(red.json.code, red.json.message).toBe(0);
    const code = await admin('POST', '/v3/scan-code/create-counter', { name: `${key}收银台` });
    expect(code.json.code, code.json.message).toBe(0);
    const submitted = await call(t.app, 'POST', '/v3/scan/submit', {
      body: {
        token: code.json.data.token,
        title_type: 1,
        name: `${key}个人`,
        tax_code: '',
        email: 'b@example.com',
      },
    });
    expect(submitted.json.code, submitted.json.message).toBe(0);
    const request = (
      await t.db.execute<{ id: number }>(
        sql`select id from scan_requests where code_id = ${code.json.data.id} order by id desc limit 1`,
      )
    ).rows[0]!.id;
    const file = await fillTemplate(template, [invoiceRow(`${key}1`)], [lineRow(`${key}1`)]);
    const up = await upload(
      t.app,
      `/v3/batch-invoice/upload?${s}&device_id=${ids.digital}&invoice_type=82`,
      f.admin,
      {
        filename: 'batch.xlsx',
        content: file,
      },
    );
    expect(up.json.code, up.json.message).toBe(0);
    rows[key] = {
      invoice,
      serial: body.serial_no,
      export: exp.json.data.record_id,
      redForm: red.json.data.form_id,
      code: code.json.data.id,
      request,
      batch: up.json.data.batch_id,
      device,
    };
  }
}, 120_000);

async function send(token: string, read: Read, r: Rows, sid: number | null) {
  const path = read.path(r);
  const scope = `client_id=${f.ids.software}${sid === null ? '' : `&sid=${sid}`}`;
  const res = await t.app.inject({
    method: read.method,
    url: `${path}${path.includes('?') ? '&' : '?'}${scope}`,
    headers: { 'access-token': token },
    payload: read.body?.(r),
  });
  const type = String(res.headers['content-type'] ?? '');
  return type.startsWith('application/json')
    ? (res.json() as Json)
    : ({ code: 0, message: type, data: null } as Json);
}

describe('"by id" reads in the all-stores summary', () => {
  for (const sid of [-1, null] as const) {
    const view = sid === null ? 'no sid' : 'sid -1';
    it(`a clerk of HQ (${view}): every read of HQ's rows answers, every read of BJ's is refused with 12003`, async () => {
      const problems: string[] = [];
      for (const read of READS) {
        const mine = await send(f.clerk, read, rows.HQ, sid);
        // HQ's own row: anything but a scope refusal (an export file may be gone, a PDF not made yet)
        if (mine.code === SESSION_CODE.STORE_NOT_PERMITTED || mine.code === SESSION_CODE.CLIENT_NOT_PERMITTED)
          problems.push(`${read.name} (HQ): refused ${mine.code} ${mine.message}`);
        const theirs = await send(f.clerk, read, rows.BJ, sid);
        if (theirs.code !== SESSION_CODE.STORE_NOT_PERMITTED || theirs.message !== '无权限操作该门店')
          problems.push(`${read.name} (BJ): ${theirs.code} ${theirs.message}`);
      }
      expect(problems).toEqual([]);
    }, 60_000);
  }

  it("the group administrator reads BJ's rows in the summary", async () => {
    const problems: string[] = [];
    for (const read of READS) {
      const res = await send(f.admin, read, rows.BJ, -1);
      if (res.code === SESSION_CODE.STORE_NOT_PERMITTED) problems.push(`${read.name}: refused`);
    }
    expect(problems).toEqual([]);
  }, 60_000);

  it('the issue result answers the clerk for her own serial with the invoice', async () => {
    const res = await send(f.clerk, READS[0]!, rows.HQ, -1);
    expect(res).toMatchObject({ code: 0, data: { invoice_id: rows.HQ.invoice, serial_no: rows.HQ.serial } });
  });
});

describe('lists in the all-stores summary hold only the clerk’s stores', () => {
  const list = async (method: 'GET' | 'POST', path: string, body?: object) =>
    (
      await call(t.app, method, `${path}?client_id=${f.ids.software}&sid=-1`, {
        token: f.clerk,
        body,
      })
    ).json;
  it('invoices, red forms, exports, scan requests and batches of BJ are not listed; HQ’s are', async () => {
    const invoices = await list('POST', '/v3/invoice-record/list', { page: 1, page_size: 30 });
    const ids = (xs: { [k: string]: unknown }[], key: string) => xs.map((x) => x[key]);
    expect(ids(invoices.data.list, 'invoice_id')).toContain(rows.HQ.invoice);
    expect(ids(invoices.data.list, 'invoice_id')).not.toContain(rows.BJ.invoice);
    const reds = await list('POST', '/v3/red-info/list', { page: 1, page_size: 30 });
    expect(ids(reds.data.list, 'form_id')).toContain(rows.HQ.redForm);
    expect(ids(reds.data.list, 'form_id')).not.toContain(rows.BJ.redForm);
    const exports = await list('POST', '/v3/invoice-export/list', { page: 1, page_size: 30 });
    expect(ids(exports.data.list, 'record_id')).toContain(rows.HQ.export);
    expect(ids(exports.data.list, 'record_id')).not.toContain(rows.BJ.export);
    const requests = await list('GET', '/v3/scan-audit/list');
    expect(ids(requests.data.list, 'id')).toContain(rows.HQ.request);
    expect(ids(requests.data.list, 'id')).not.toContain(rows.BJ.request);
    const batches = await list('GET', '/v3/batch-invoice/list');
    expect(ids(batches.data.list, 'batch_id')).toContain(rows.HQ.batch);
    expect(ids(batches.data.list, 'batch_id')).not.toContain(rows.BJ.batch);
  });
});
