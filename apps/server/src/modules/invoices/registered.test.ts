import { CODE, INVOICE_CODE } from '@kaipiao/shared';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { invoicingFixture, payload } from '../../../test/fixtures/invoices.ts';
import { buildTestApp, call, DEMO } from '../../../test/helper.ts';
import { invoiceEvents, invoices, users } from '../../db/schema/index.ts';

/**
 * The issuing routes (routes.ts) in an app built inside the test, so that a mutation of what is
 * registered (a route's menu, store rule or schema) is tried against a test (docs/testing.md,
 * "Registration-time mutants"): each route answers, validates, keeps to a selected store where it
 * writes, and records who acted.
 */
describe('the issuing routes as registered', () => {
  it('issue, result and reconcile answer, validate, refuse the all-stores view for issuing, and record the user', async () => {
    const t = await buildTestApp();
    const f = await invoicingFixture(t.app, t.db);
    const { ids } = f;
    const scope = f.scope(ids.software, ids.hq);
    const [admin] = await t.db.select().from(users).where(eq(users.account, DEMO.admin.account));

    // issuing: the schema, the selected store, the author
    const bad = await f.issue({ serial_no: 'x' });
    expect(bad.json.code).toBe(CODE.VALIDATION);
    expect(bad.json.message).toMatch(/[\u4e00-\u9fff]/);
    expect((await f.issue(payload(ids.digital), { sid: -1 })).json.code).toBe(CODE.SWITCH_STORE);
    const body = payload(ids.digital);
    const issued = await f.issue(body);
    expect(issued.json.code, issued.json.message).toBe(0);
    // the answer is the result schema's shape: nothing more
    expect(Object.keys(issued.json.data).sort()).toEqual(
      Object.keys(
        (
          await call(t.app, 'GET', `/v3/online-invoicing/result?${scope}&serial_no=${body.serial_no}`, {
            token: f.admin,
          })
        ).json.data,
      ).sort(),
    );
    const [row] = await t.db.select().from(invoices).where(eq(invoices.serialNo, body.serial_no));
    expect(row!.createdBy).toBe(admin!.id);

    // the result: a serial is required
    const noSerial = await call(t.app, 'GET', `/v3/online-invoicing/result?${scope}`, { token: f.admin });
    expect(noSerial.json.code).toBe(CODE.VALIDATION);
    const long = await call(
      t.app,
      'GET',
      `/v3/online-invoicing/result?${scope}&serial_no=${'a'.repeat(41)}`,
      {
        token: f.admin,
      },
    );
    expect(long.json.code).toBe(CODE.VALIDATION);
    const blank = await call(t.app, 'GET', `/v3/online-invoicing/result?${scope}&serial_no=%20%20`, {
      token: f.admin,
    });
    expect(blank.json.code).toBe(CODE.VALIDATION);
    const blankRec = await call(t.app, 'POST', `/v3/online-invoicing/reconcile?${scope}`, {
      token: f.admin,
      body: { serial_no: '  ' },
    });
    expect(blankRec.json.code).toBe(CODE.VALIDATION);

    // reconcile: no serial is every unsettled invoice; the one who settled them is recorded
    await f.dev('control', {
      device_id: ids.digital,
      fault: 'unknown',
      fault_count: 1,
      unknown_visible_after_s: 0,
    });
    const unsure = payload(ids.digital);
    expect((await f.issue(unsure)).json.code).toBe(INVOICE_CODE.CHANNEL_TIMEOUT);
    const rec = await call(t.app, 'POST', `/v3/online-invoicing/reconcile?${scope}`, {
      token: f.admin,
      body: {},
    });
    expect(rec.json).toMatchObject({ code: 0, data: { checked: 1, issued: 1 } });
    const [settled] = await t.db.select().from(invoices).where(eq(invoices.serialNo, unsure.serial_no));
    const events = await t.db
      .select()
      .from(invoiceEvents)
      .where(eq(invoiceEvents.invoiceId, settled!.id))
      .orderBy(invoiceEvents.id);
    expect(events.at(-1)).toMatchObject({ kind: 'reconciled', userId: admin!.id });
    expect(
      (
        await call(t.app, 'POST', `/v3/online-invoicing/reconcile?${scope}`, {
          token: f.admin,
          body: { serial_no: 'b'.repeat(41) },
        })
      ).json.code,
    ).toBe(CODE.VALIDATION);

    // without the issuing menu every route is closed
    await t.db.execute(sql`update authority_rules set urls = array(
      select u from unnest(urls) u where u not in ('/invoice/online', '/hotel/invoice/online'))`);
    t.app.accessService.forgetAll();
    expect((await f.issue(payload(ids.digital), { token: f.clerk })).json.code).toBe(CODE.FORBIDDEN);
    const closed = await call(
      t.app,
      'GET',
      `/v3/online-invoicing/result?${scope}&serial_no=${body.serial_no}`,
      {
        token: f.clerk,
      },
    );
    expect(closed.json.code).toBe(CODE.FORBIDDEN);
    const closedRec = await call(t.app, 'POST', `/v3/online-invoicing/reconcile?${scope}`, {
      token: f.clerk,
      body: {},
    });
    expect(closedRec.json.code).toBe(CODE.FORBIDDEN);
  }, 60_000);

  it('the metadata routes answer their schemas, validate their query and keep to the menu', async () => {
    const t = await buildTestApp();
    const f = await invoicingFixture(t.app, t.db);
    const { ids } = f;
    const get = (url: string, token = f.admin) => call(t.app, 'GET', url, { token });
    const equipment = await get(
      `/v3/client-store/get-tax-equipment?${f.scope(ids.software, ids.hq)}&store_id=${ids.hq}`,
    );
    expect(equipment.json.code).toBe(0);
    const digital = equipment.json.data.find((d: { device_id: number }) => d.device_id === ids.digital);
    expect(digital).toMatchObject({ is_main: true, kind: 'digital' });
    expect(Object.keys(digital).sort()).toEqual(
      [
        'channel',
        'default_invoice_types',
        'device_id',
        'device_no',
        'extension_no',
        'invoice_types',
        'is_main',
        'kind',
        'kind_name',
        'locked',
        'monthly_quota',
        'name',
        'online',
        'per_invoice_limit',
        'quota_used',
        'stock',
      ].sort(),
    );
    expect(
      (await get(`/v3/client-store/get-tax-equipment?${f.scope(ids.software, ids.hq)}&store_id=x`)).json.code,
    ).toBe(CODE.VALIDATION);
    const kinds = await get(
      `/v3/equipment/client-invoice-type?${f.scope(ids.software, ids.hq)}&store_id=${ids.hq}`,
    );
    expect(kinds.json.data.map((k: { code: string }) => k.code)).toEqual([
      ...new Set(kinds.json.data.map((k: { code: string }) => k.code)),
    ]);
    expect(
      (await get(`/v3/equipment/client-invoice-type?${f.scope(ids.software, ids.hq)}&store_id=x`)).json.code,
    ).toBe(CODE.VALIDATION);
    const all = await get(`/v3/invoice-detail/get-invoice-type?${f.scope(ids.software, ids.hq)}`);
    expect(all.json.data.length).toBeGreaterThan(5);
    const sb = await get(`/v3/invoice-record/specific-business?${f.scope(ids.software, ids.hq)}`);
    expect(sb.json.data.map((d: { code: string }) => d.code)).toEqual(['03', '04', '06', '09']);

    await t.db.execute(sql`update authority_rules set urls = '{}'`);
    t.app.accessService.forgetAll();
    for (const url of [
      `/v3/client-store/get-tax-equipment?${f.scope(ids.software, ids.hq)}`,
      `/v3/equipment/client-invoice-type?${f.scope(ids.software, ids.hq)}`,
      `/v3/invoice-detail/get-invoice-type?${f.scope(ids.software, ids.hq)}`,
      `/v3/invoice-record/specific-business?${f.scope(ids.software, ids.hq)}`,
    ]) {
      expect((await get(url, f.clerk)).json.code, url).toBe(CODE.FORBIDDEN);
    }
  }, 60_000);
});
