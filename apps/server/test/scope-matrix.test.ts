import { beijingDay, CODE, INVOICE_CODE, MENU, QUERY_CODE, SESSION_CODE } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { fillTemplate, invoiceRow, lineRow } from './fixtures/batches.ts';
import { type Fixture, invoicingFixture, payload } from './fixtures/invoices.ts';
import { buildTestApp, call, type Json, login } from './helper.ts';
import { upload } from './xlsx-helpers.ts';

/**
 * The store matrix (issue 21 item 1): every route the route table declares `store` is walked with
 * three actors — a clerk of store A (文三路总部), a clerk of store B (滨江研发中心), both holding every
 * permission so only the store scope can refuse them, and the administrator of another business.
 * Each store has its own rows (an invoice, an export, a red form, a scan code and request, a batch,
 * a device bound to it alone and its tax account). For each actor:
 * - lists and summaries answer (code 0) and contain nothing of a store the actor may not reach;
 * - reads, downloads and writes naming another store's ids are refused and change nothing.
 * A store route missing from PROBES fails the test: a new route must say how it is probed.
 */

type Rows = {
  store: number;
  invoice: number;
  serial: string;
  export: number;
  redForm: number;
  code: number;
  request: number;
  batch: number;
  device: number;
  /** a 数电 account bound to this store alone (real-name login) */
  digital: number;
  account: number;
};
type Actor = { name: string; token: string; client: number; sid: number };
type Req = { method: 'GET' | 'POST'; path: string; body?: unknown; multipart?: Buffer };
/** `list`: the actor's own call, must answer and must not leak; `foreign`: must be refused. */
type Probe = {
  list?: (a: Actor) => Req[];
  foreign?: (a: Actor, t: Rows) => Req[];
  /** a list's own check that it holds none of the other store's rows (beyond the marks) */
  hides?: (j: Json, t: Rows) => boolean;
  /** a list's check that it does hold the clerk's own store's row (a scope that hid everything would pass `hides`) */
  shows?: (j: Json, own: Rows) => boolean;
  /** the refusal a clerk of the same business gets when it is not 12003, and why */
  refusal?: number;
  /** a route that answers a foreign id with an empty result instead of a refusal: what it must answer */
  accept?: (j: Json) => boolean;
};

const DAY_TO = beijingDay();
const DAY_FROM = `${DAY_TO.slice(0, 8)}01`;
const q = (a: Actor) => `client_id=${a.client}&sid=${a.sid}`;
const get = (path: string): Req => ({ method: 'GET', path });
const post = (path: string, body: unknown = {}): Req => ({ method: 'POST', path, body });

/** What a refusal of another store's (or business's) id may answer: scope or not-found, never 0 or 10001. */
const isRefusal = (j: Json) => j.code !== 0 && j.code !== CODE.VALIDATION && j.code !== CODE.FORBIDDEN;

const PROBES: Record<string, Probe> = {
  // trusteeship
  'GET /v3/trusteeship/list': {
    list: (a) => [get(`/v3/trusteeship/list?${q(a)}`)],
    shows: (j, own) => j.data.list.some((d: { device_id: number }) => d.device_id === own.device),
  },
  'POST /v3/trusteeship/hand-over': {
    foreign: (a, t) => [
      post(`/v3/trusteeship/hand-over?${q(a)}`, { device_id: t.device, store_ids: [a.sid], agree: true }),
      post(`/v3/trusteeship/hand-over?${q(a)}`, { device_id: t.device, store_ids: [t.store], agree: true }),
    ],
  },
  'POST /v3/trusteeship/grant': {
    foreign: (a, t) => [post(`/v3/trusteeship/grant?${q(a)}`, { device_id: t.device, store_ids: [a.sid] })],
  },
  'POST /v3/trusteeship/revoke': {
    foreign: (a, t) => [post(`/v3/trusteeship/revoke?${q(a)}`, { device_id: t.device })],
  },
  // stores and devices
  'GET /v3/client/client-store-list': { list: (a) => [get(`/v3/client/client-store-list?${q(a)}`)] },
  'GET /v3/client/get-all-store-list': { list: (a) => [get(`/v3/client/get-all-store-list?${q(a)}`)] },
  'GET /v3/client/client-equ-list': {
    list: (a) => [get(`/v3/client/client-equ-list?${q(a)}`)],
    shows: (j, own) => j.data.some((d: { device_id: number }) => d.device_id === own.device),
  },
  'POST /v3/client-store/tax-equipment-list': {
    list: (a) => [post(`/v3/client-store/tax-equipment-list?${q(a)}`, {})],
    foreign: (a, t) => [post(`/v3/client-store/tax-equipment-list?${q(a)}`, { store_id: t.store })],
  },
  'POST /v3/client-store/save': {
    foreign: (a, t) => [
      post(`/v3/client-store/save?${q(a)}`, { client_store_id: t.store, name: '改名', code: 'X1' }),
    ],
  },
  'POST /v3/client-store/set-status': {
    foreign: (a, t) => [
      post(`/v3/client-store/set-status?${q(a)}`, { client_store_id: t.store, status: 'disabled' }),
    ],
  },
  'GET /v3/equipment/detail': { foreign: (a, t) => [get(`/v3/equipment/detail?${q(a)}&id=${t.device}`)] },
  'GET /v3/equipment/group-by-channel': { list: (a) => [get(`/v3/equipment/group-by-channel?${q(a)}`)] },
  'GET /v3/equipment/check-tax': { list: (a) => [get(`/v3/equipment/check-tax?${q(a)}`)] },
  'GET /v3/equipment/session-health': { list: (a) => [get(`/v3/equipment/session-health?${q(a)}`)] },
  'GET /v3/tax-account/white-list-tax-account': {
    list: (a) => [get(`/v3/tax-account/white-list-tax-account?${q(a)}`)],
  },
  'GET /v3/tax-account/list': { list: (a) => [get(`/v3/tax-account/list?${q(a)}`)] },
  'POST /v3/tax-account/save': {
    foreign: (a, t) => [
      post(`/v3/tax-account/save?${q(a)}`, {
        id: t.account,
        account: 'hijack',
        identity: '01',
        person_name: '张三',
        channel: 'GP900000',
        device_id: null,
      }),
    ],
  },
  'POST /v3/tax-account/disable': {
    foreign: (a, t) => [post(`/v3/tax-account/disable?${q(a)}`, { id: t.account })],
  },
  'GET /v3/invoice-manage/movements': { list: (a) => [get(`/v3/invoice-manage/movements?${q(a)}`)] },
  'POST /v3/invoice-manage/apply': {
    foreign: (a, t) => [
      post(`/v3/invoice-manage/apply?${q(a)}`, { device_id: t.device, invoice_type: '004', count: 10 }),
    ],
  },
  'POST /v3/invoice-manage/distribute': {
    foreign: (a, t) => [
      post(`/v3/invoice-manage/distribute?${q(a)}`, {
        device_id: t.device,
        target_device_id: t.device,
        invoice_type: '004',
        count: 1,
      }),
    ],
  },
  'POST /v3/invoice-manage/return': {
    foreign: (a, t) => [
      post(`/v3/invoice-manage/return?${q(a)}`, {
        device_id: t.device,
        target_device_id: t.device,
        invoice_type: '004',
        count: 1,
      }),
    ],
  },
  'GET /v3/report-summary/list': { list: (a) => [get(`/v3/report-summary/list?${q(a)}`)] },
  'POST /v3/report-summary/copy': {
    foreign: (a, t) => [post(`/v3/report-summary/copy?${q(a)}`, { device_id: t.device })],
  },
  'POST /v3/report-summary/clear': {
    foreign: (a, t) => [post(`/v3/report-summary/clear?${q(a)}`, { device_id: t.device })],
  },
  // issuing
  'POST /v3/online-invoicing/blue': {
    foreign: (a, t) => [post(`/v3/online-invoicing/blue?${q(a)}`, payload(t.device, { invoiceType: '004' }))],
    // the issuing rule's own words: 该开票设备未绑定当前门店，请选择本门店的设备
    refusal: INVOICE_CODE.DEVICE_NOT_BOUND,
  },
  'GET /v3/online-invoicing/result': {
    foreign: (a, t) => [get(`/v3/online-invoicing/result?${q(a)}&serial_no=${t.serial}`)],
  },
  'POST /v3/online-invoicing/reconcile': {
    // answers with what it checked: nothing outside the scope
    foreign: (a, t) => [post(`/v3/online-invoicing/reconcile?${q(a)}`, { serial_no: t.serial })],
    accept: (j) => j.code === 0 && j.data.checked === 0 && j.data.results.length === 0,
  },
  'GET /v3/client-store/get-tax-equipment': {
    list: (a) => [get(`/v3/client-store/get-tax-equipment?${q(a)}`)],
  },
  'GET /v3/equipment/client-invoice-type': {
    foreign: (a, t) => [get(`/v3/equipment/client-invoice-type?${q(a)}&store_id=${t.store}`)],
  },
  // library, exports, statistics, documents
  'POST /v3/invoice-record/list': {
    list: (a) => [post(`/v3/invoice-record/list?${q(a)}`, { page: 1, page_size: 30 })],
  },
  'POST /v3/invoice-detail/get-invoice-detail': {
    foreign: (a, t) => [post(`/v3/invoice-detail/get-invoice-detail?${q(a)}`, { invoice_id: t.invoice })],
  },
  'POST /v3/invoice-export/create': {
    foreign: (a, t) => [
      post(`/v3/invoice-export/create?${q(a)}`, { kind: 'excel', invoice_ids: [t.invoice] }),
    ],
    // an export covers the caller's stores only: another store's invoice leaves nothing to export
    refusal: QUERY_CODE.EXPORT_EMPTY,
  },
  'POST /v3/invoice-export/list': {
    list: (a) => [post(`/v3/invoice-export/list?${q(a)}`, { page: 1, page_size: 30 })],
    hides: (j, t) => !j.data.list.some((r: { record_id: number }) => r.record_id === t.export),
    shows: (j, own) => j.data.list.some((r: { record_id: number }) => r.record_id === own.export),
  },
  'GET /v3/invoice-export/download': {
    foreign: (a, t) => [get(`/v3/invoice-export/download?${q(a)}&record_id=${t.export}`)],
  },
  'POST /v3/invoice-stat/summary': {
    list: (a) => [post(`/v3/invoice-stat/summary?${q(a)}`, { date_from: DAY_FROM, date_to: DAY_TO })],
  },
  'GET /v3/home/invoice-overview': { list: (a) => [get(`/v3/home/invoice-overview?${q(a)}`)] },
  // the employee's own notice preference: nothing of a store in it
  'POST /v3/home/small-scale-notice': {},
  'GET /v3/invoice-detail/download': {
    foreign: (a, t) => [get(`/v3/invoice-detail/download?${q(a)}&invoice_id=${t.invoice}`)],
  },
  'POST /v3/invoice-detail/send-email': {
    foreign: (a, t) => [
      post(`/v3/invoice-detail/send-email?${q(a)}`, { invoice_id: t.invoice, email: 'x@example.com' }),
    ],
  },
  // scan-to-invoice and the audit queue
  'GET /v3/scan-code/settings': { list: (a) => [get(`/v3/scan-code/settings?${q(a)}`)] },
  'POST /v3/scan-code/settings': {},
  'GET /v3/scan-code/list': { list: (a) => [get(`/v3/scan-code/list?${q(a)}`)] },
  'POST /v3/scan-code/create-counter': {},
  'POST /v3/scan-code/create-order': {},
  'POST /v3/scan-code/disable': {
    foreign: (a, t) => [post(`/v3/scan-code/disable?${q(a)}`, { id: t.code })],
  },
  'GET /v3/scan-code/image': { foreign: (a, t) => [get(`/v3/scan-code/image?${q(a)}&id=${t.code}`)] },
  'GET /v3/scan-audit/list': { list: (a) => [get(`/v3/scan-audit/list?${q(a)}`)] },
  'GET /v3/scan-audit/detail': { foreign: (a, t) => [get(`/v3/scan-audit/detail?${q(a)}&id=${t.request}`)] },
  'POST /v3/scan-audit/approve': {
    foreign: (a, t) => [post(`/v3/scan-audit/approve?${q(a)}`, { id: t.request })],
  },
  'POST /v3/scan-audit/bulk-approve': {
    // answers per request: another store's is among the failed, none issued
    foreign: (a, t) => [post(`/v3/scan-audit/bulk-approve?${q(a)}`, { ids: [t.request] })],
    accept: (j) => j.code === 0 && j.data.issued === 0 && j.data.failed.length === 1,
  },
  'POST /v3/scan-audit/reject': {
    foreign: (a, t) => [post(`/v3/scan-audit/reject?${q(a)}`, { id: t.request, reason: '不开' })],
  },
  // red-letter and void
  'POST /v3/red-info/list': { list: (a) => [post(`/v3/red-info/list?${q(a)}`, { page: 1, page_size: 30 })] },
  'POST /v3/red-info/detail': {
    foreign: (a, t) => [post(`/v3/red-info/detail?${q(a)}`, { form_id: t.redForm })],
  },
  'POST /v3/red-info/blue-info': {
    foreign: (a, t) => [post(`/v3/red-info/blue-info?${q(a)}`, { invoice_id: t.invoice })],
  },
  'POST /v3/red-info/apply': {
    foreign: (a, t) => [
      post(`/v3/red-info/apply?${q(a)}`, { invoice_id: t.invoice, reason: '01', full: true }),
    ],
  },
  'POST /v3/red-info/confirm': {
    foreign: (a, t) => [post(`/v3/red-info/confirm?${q(a)}`, { form_id: t.redForm })],
  },
  'POST /v3/red-info/reject': {
    foreign: (a, t) => [post(`/v3/red-info/reject?${q(a)}`, { form_id: t.redForm })],
  },
  'POST /v3/red-info/revoke': {
    foreign: (a, t) => [post(`/v3/red-info/revoke?${q(a)}`, { form_id: t.redForm })],
  },
  'POST /v3/red-info/issue': {
    foreign: (a, t) => [post(`/v3/red-info/issue?${q(a)}`, { form_id: t.redForm })],
  },
  'POST /v3/invoice-detail/void': {
    foreign: (a, t) => [post(`/v3/invoice-detail/void?${q(a)}`, { invoice_id: t.invoice, reason: '开错' })],
  },
  // batches
  'POST /v3/batch-invoice/upload': {},
  'GET /v3/batch-invoice/dry-run': {
    foreign: (a, t) => [get(`/v3/batch-invoice/dry-run?${q(a)}&batch_id=${t.batch}`)],
  },
  'POST /v3/batch-invoice/start': {
    foreign: (a, t) => [post(`/v3/batch-invoice/start?${q(a)}`, { batch_id: t.batch })],
  },
  'POST /v3/batch-invoice/pause': {
    foreign: (a, t) => [post(`/v3/batch-invoice/pause?${q(a)}`, { batch_id: t.batch })],
  },
  'POST /v3/batch-invoice/resume': {
    foreign: (a, t) => [post(`/v3/batch-invoice/resume?${q(a)}`, { batch_id: t.batch })],
  },
  'POST /v3/batch-invoice/cancel': {
    foreign: (a, t) => [post(`/v3/batch-invoice/cancel?${q(a)}`, { batch_id: t.batch })],
  },
  'POST /v3/batch-invoice/retry': {
    foreign: (a, t) => [post(`/v3/batch-invoice/retry?${q(a)}`, { batch_id: t.batch })],
  },
  'GET /v3/batch-invoice/progress': {
    foreign: (a, t) => [get(`/v3/batch-invoice/progress?${q(a)}&batch_id=${t.batch}`)],
  },
  'GET /v3/batch-invoice/list': {
    list: (a) => [get(`/v3/batch-invoice/list?${q(a)}`)],
    hides: (j, t) => !j.data.list.some((b: { batch_id: number }) => b.batch_id === t.batch),
    shows: (j, own) => j.data.list.some((b: { batch_id: number }) => b.batch_id === own.batch),
  },
  'GET /v3/batch-invoice/rows': {
    foreign: (a, t) => [get(`/v3/batch-invoice/rows?${q(a)}&batch_id=${t.batch}`)],
  },
  'GET /v3/batch-invoice/result': {
    foreign: (a, t) => [get(`/v3/batch-invoice/result?${q(a)}&batch_id=${t.batch}`)],
  },
  // real-name login of a device
  'GET /v3/equipment/get-real-person-auth': {
    foreign: (a, t) => [get(`/v3/equipment/get-real-person-auth?${q(a)}&device_id=${t.digital}`)],
  },
  'POST /v3/equipment/jc-get-qr-code': {
    foreign: (a, t) => [post(`/v3/equipment/jc-get-qr-code?${q(a)}`, { device_id: t.digital })],
  },
  'POST /v3/equipment/get-sms-tax-station': {
    foreign: (a, t) => [post(`/v3/equipment/get-sms-tax-station?${q(a)}`, { device_id: t.digital })],
  },
  'POST /v3/equipment/get-sms-autonomous-tax-station': {
    foreign: (a, t) => [
      post(`/v3/equipment/get-sms-autonomous-tax-station?${q(a)}`, { device_id: t.digital }),
    ],
  },
  'POST /v3/equipment/sms-login-tax-station': {
    foreign: (a, t) => [
      post(`/v3/equipment/sms-login-tax-station?${q(a)}`, { device_id: t.digital, sms_code: '123456' }),
    ],
  },
  'POST /v3/equipment/sms-login-autonomous-tax-station': {
    foreign: (a, t) => [
      post(`/v3/equipment/sms-login-autonomous-tax-station?${q(a)}`, {
        device_id: t.digital,
        sms_code: '123456',
      }),
    ],
  },
};

/** Routes declared `store` that the matrix reaches another way (with the reason). */
const ELSEWHERE: Record<string, string> = {
  'GET /ws/device-auth': 'a WebSocket: realname/socket.test.ts checks the business before the upgrade',
};

/** Everything a store's rows are recognisable by in an answer. */
const MARKS: Record<'HQ' | 'BJ', string[]> = {
  HQ: ['文三路总部', '文三路标记', '税务UKey（总部）', '金税盘（主盘）', 'DIG-HQ-0001'],
  BJ: ['滨江研发中心', '滨江标记', '金税盘（分盘1）', 'DIG-BJ-0001'],
};

/** The state of every store-owned table, to prove a refusal changed nothing. */
async function snapshot(db: Fixture extends never ? never : any): Promise<string> {
  const tables = [
    'invoices',
    'export_records',
    'red_forms',
    'scan_codes',
    'scan_requests',
    'scan_settings',
    'batches',
    'batch_rows',
    'tax_devices',
    'device_stores',
    'device_trusteeships',
    'trusteeship_grants',
    'tax_accounts',
    'client_stores',
    'store_settings',
    'channel_number_ranges',
    'stock_movements',
    'device_filings',
    'realname_sessions',
    'outbox',
  ];
  const parts: string[] = [];
  for (const t of tables) {
    const r = await db.execute(
      sql.raw(
        `select count(*)::int as n, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from ${t} x`,
      ),
    );
    parts.push(`${t}:${r.rows[0].n}:${r.rows[0].h}`);
  }
  return parts.join('\n');
}

describe('store scope on every store route (the matrix)', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  const rows = {} as Record<'HQ' | 'BJ', Rows>;
  const actors = {} as Record<'clerkA' | 'clerkB' | 'otherAdmin', Actor>;

  const send = async (a: Actor, r: Req) => {
    const res = await t.app.inject({
      method: r.method,
      url: r.path,
      headers: { 'access-token': a.token },
      payload: r.body as object | undefined,
    });
    const text = res.body;
    let json: Json;
    try {
      json = JSON.parse(text);
    } catch {
      json = { code: 0, message: 'binary', data: null };
    }
    return { status: res.statusCode, text, json };
  };

  beforeAll(async () => {
    t = await buildTestApp();
    f = await invoicingFixture(t.app, t.db);
    const { ids } = f;
    const db = t.db;
    // two clerks holding every permission, one per store; the administrator of another business
    const org = (
      await db.execute<{ org_id: number }>(sql`select org_id from clients where id = ${ids.software}`)
    ).rows[0]!.org_id;
    const urls = MENU.map((m) => m.url);
    const rule = (
      await db.execute<{ id: number }>(
        sql`insert into authority_rules (org_id, name, urls) values (${org}, '全部权限', ${`{${urls.join(',')}}`}::text[]) returning id`,
      )
    ).rows[0]!.id;
    const newUser = async (account: string, mobile: string) =>
      (
        await db.execute<{ id: number }>(sql`
          insert into users (account, nickname, mobile, password_hash)
          select ${account}, ${account}, ${mobile}, password_hash from users where account = 'kaipiao_clerk'
          returning id`)
      ).rows[0]!.id;
    for (const [account, mobile, store] of [
      ['matrix_a', '13800009001', ids.hq],
      ['matrix_b', '13800009002', ids.bj],
    ] as const) {
      const uid = await newUser(account, mobile);
      const emp = (
        await db.execute<{ id: number }>(sql`
          insert into employees (org_id, user_id, role, authority_rule_id) values (${org}, ${uid}, 'staff', ${rule})
          returning id`)
      ).rows[0]!.id;
      await db.execute(
        sql`insert into employee_scopes (employee_id, client_id, store_id) values (${emp}, ${ids.software}, ${store})`,
      );
      await db.execute(sql`update users set last_org_id = ${org} where id = ${uid}`);
    }
    const otherOrg = (
      await db.execute<{ id: number }>(sql`
        insert into orgs (name, package_code, package_expires_at, bookkeeping_expires_at, gray_features)
        select '别家集团', package_code, package_expires_at, bookkeeping_expires_at, gray_features from orgs where id = ${org}
        returning id`)
    ).rows[0]!.id;
    const otherClient = (
      await db.execute<{ id: number }>(sql`
        insert into clients (org_id, name, tax_code, industry, taxpayer_type, has_white_listed_tax_account)
        values (${otherOrg}, '别家贸易有限公司', '91330100MA2X9Y8Z7K', 'general', 'general', true) returning id`)
    ).rows[0]!.id;
    const otherStore = (
      await db.execute<{ id: number }>(
        sql`insert into client_stores (client_id, name, code) values (${otherClient}, '别家门店', 'OT') returning id`,
      )
    ).rows[0]!.id;
    const otherUid = await newUser('matrix_other', '13800009003');
    await db.execute(sql`update users set last_org_id = ${otherOrg} where id = ${otherUid}`);
    await db.execute(
      sql`insert into employees (org_id, user_id, role, is_group_admin) values (${otherOrg}, ${otherUid}, 'admin', true)`,
    );

    actors.clerkA = {
      name: '门店A店员',
      token: await login(t.app, 'matrix_a'),
      client: ids.software,
      sid: ids.hq,
    };
    actors.clerkB = {
      name: '门店B店员',
      token: await login(t.app, 'matrix_b'),
      client: ids.software,
      sid: ids.bj,
    };
    actors.otherAdmin = {
      name: '别家企业管理员',
      token: await login(t.app, 'matrix_other'),
      client: otherClient,
      sid: otherStore,
    };

    // each store's own rows, made by the group administrator for that store
    const template = (
      await t.app.inject({
        method: 'GET',
        url: `/v3/batch-invoice/template?client_id=${ids.software}`,
        headers: { 'access-token': f.admin },
      })
    ).rawPayload;
    // the branch disc is 滨江's alone; the UKey 文三路's
    const own = { HQ: { store: ids.hq, device: ids.ukey }, BJ: { store: ids.bj, device: ids.goldenBranch } };
    for (const key of ['HQ', 'BJ'] as const) {
      const { store, device } = own[key];
      const mark = key === 'HQ' ? '文三路标记' : '滨江标记';
      const s = `client_id=${ids.software}&sid=${store}`;
      const admin = (method: 'GET' | 'POST', path: string, body?: unknown) =>
        call(t.app, method, `${path}${path.includes('?') ? '&' : '?'}${s}`, { token: f.admin, body });
      const body = payload(ids.digital, { buyer: { name: `${mark}买方有限公司` } });
      const issued = await f.issue(body, { sid: store });
      expect(issued.json.code, issued.json.message).toBe(0);
      const invoice = issued.json.data.invoice_id as number;
      const exp = await admin('POST', '/v3/invoice-export/create', { kind: 'excel', invoice_ids: [invoice] });
      expect(exp.json.code, exp.json.message).toBe(0);
      const red = await admin('POST', '/v3/red-info/apply', {
        invoice_id: invoice,
        reason: '01',
        full: true,
        remark: mark,
      });
      expect(red.json.code, red.json.message).toBe(0);
      const code = await admin('POST', '/v3/scan-code/create-counter', { name: `${mark}收银台` });
      expect(code.json.code, code.json.message).toBe(0);
      const submitted = await call(t.app, 'POST', '/v3/scan/submit', {
        body: {
          token: code.json.data.token,
          title_type: 1,
          name: `${mark}个人`,
          tax_code: '',
          email: 'buyer@example.com',
        },
      });
      expect(submitted.json.code, submitted.json.message).toBe(0);
      const request = (
        await db.execute<{ id: number }>(
          sql`select id from scan_requests where code_id = ${code.json.data.id} order by id desc limit 1`,
        )
      ).rows[0]!.id;
      const file = await fillTemplate(
        template,
        [invoiceRow(`${key}1`, { 购买方名称: `${mark}批量买方有限公司` })],
        [lineRow(`${key}1`)],
      );
      const up = await upload(
        t.app,
        `/v3/batch-invoice/upload?${s}&device_id=${ids.digital}&invoice_type=82`,
        f.admin,
        { filename: 'batch.xlsx', content: file },
      );
      expect(up.json.code, up.json.message).toBe(0);
      const account = (
        await db.execute<{ id: number }>(sql`
          insert into tax_accounts (client_id, device_id, account, password_enc, phone, identity, person_name, channel)
          values (${ids.software}, ${device}, ${`acct-${key}`}, 'x', '13900000000', '01', ${`${mark}办税员`}, 'GP900000')
          returning id`)
      ).rows[0]!.id;
      const digital = (
        await db.execute<{ id: number }>(sql`
          insert into tax_devices (client_id, kind, channel, name, device_no, extension_no, area_code, invoice_types,
            per_invoice_limit, monthly_quota, online, status)
          select client_id, kind, channel, ${`${mark}数电账户`}, ${`DIG-${key}-0001`}, extension_no, area_code, invoice_types,
            per_invoice_limit, monthly_quota, online, status
          from tax_devices where id = ${ids.digital} returning id`)
      ).rows[0]!.id;
      await db.execute(sql`insert into device_stores (device_id, store_id, client_id)
        select id, ${store}, client_id from tax_devices where id = ${digital}`);
      rows[key] = {
        digital,
        store,
        invoice,
        serial: body.serial_no,
        export: exp.json.data.record_id,
        redForm: red.json.data.form_id,
        code: code.json.data.id,
        request,
        batch: up.json.data.batch_id,
        device,
        account,
      };
    }
  }, 120_000);

  it('every store route of the route table has a probe (a new route must say how it is scoped)', () => {
    const store = t.app.routeTable.filter((r) => r.scope === 'store').map((r) => `${r.method} ${r.url}`);
    expect(store.length).toBeGreaterThan(60);
    const missing = store.filter((k) => !(k in PROBES) && !(k in ELSEWHERE));
    expect(missing, 'store routes without a probe in test/scope-matrix.test.ts').toEqual([]);
    const stale = Object.keys(PROBES).filter((k) => !store.includes(k));
    expect(stale, 'probes of routes that are not declared store').toEqual([]);
  });

  const cases: [keyof typeof actors, 'HQ' | 'BJ', ('HQ' | 'BJ')[], 'HQ' | 'BJ' | null][] = [
    // actor, the store rows it may not reach, the marks its answers must not contain, its own store
    ['clerkA', 'BJ', ['BJ'], 'HQ'],
    ['clerkB', 'HQ', ['HQ'], 'BJ'],
    ['otherAdmin', 'HQ', ['HQ', 'BJ'], null],
  ];

  for (const [who, target, hidden, own] of cases) {
    it(`${who}: lists hold only its stores; another store's ids are refused and change nothing`, async () => {
      const a = actors[who];
      const problems: string[] = [];
      const marks = hidden.flatMap((k) => MARKS[k]);
      if (who === 'otherAdmin') marks.push('杭州云栈软件科技有限公司');
      for (const [route, probe] of Object.entries(PROBES)) {
        for (const r of probe.list?.(a) ?? []) {
          const res = await send(a, r);
          if (res.json.code !== 0 && !(who === 'otherAdmin' && route.startsWith('GET /v3/tax-account/list')))
            problems.push(`${route} list: code ${res.json.code} ${res.json.message}`);
          const leaked = marks.filter((m) => res.text.includes(m));
          if (leaked.length) problems.push(`${route} list leaks ${leaked.join('、')}`);
          if (probe.hides && res.json.code === 0 && !probe.hides(res.json, rows[target]))
            problems.push(`${route} list holds the other store's row`);
          if (own && probe.shows && res.json.code === 0 && !probe.shows(res.json, rows[own]))
            problems.push(`${route} list misses the actor's own store's row`);
        }
        for (const r of probe.foreign?.(a, rows[target]) ?? []) {
          const before = await snapshot(t.db);
          const res = await send(a, r);
          const after = await snapshot(t.db);
          if (res.status >= 500) problems.push(`${route}: HTTP ${res.status}`);
          else if (probe.accept ? !probe.accept(res.json) : !isRefusal(res.json))
            problems.push(`${route} ${r.path}: not refused (code ${res.json.code} ${res.json.message})`);
          else if (
            who !== 'otherAdmin' &&
            !probe.accept &&
            res.json.code !== (probe.refusal ?? SESSION_CODE.STORE_NOT_PERMITTED)
          )
            problems.push(
              `${route}: refused with ${res.json.code} ${res.json.message}, not 无权限操作该门店`,
            );
          if (before !== after) problems.push(`${route}: changed the database`);
          const leaked = marks.filter((m) => res.text.includes(m));
          if (leaked.length) problems.push(`${route} refusal leaks ${leaked.join('、')}`);
        }
      }
      expect(problems).toEqual([]);
    }, 120_000);
  }

  it('another business’s client_id is refused before any route runs', async () => {
    const a = actors.otherAdmin;
    const res = await send(
      a,
      post(`/v3/invoice-export/list?client_id=${f.ids.software}&sid=${f.ids.hq}`, {}),
    );
    expect(res.json.code).toBe(SESSION_CODE.CLIENT_NOT_PERMITTED);
    const b = await send(
      actors.clerkA,
      post(`/v3/invoice-export/list?client_id=${f.ids.software}&sid=${f.ids.bj}`, {}),
    );
    expect(b.json).toMatchObject({ code: SESSION_CODE.STORE_NOT_PERMITTED, message: '无权限操作该门店' });
  });
});
