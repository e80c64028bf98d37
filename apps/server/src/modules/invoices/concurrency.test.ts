import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, invoicingFixture, payload } from '../../../test/fixtures/invoices.ts';
import { buildTestApp, call, DEMO, login } from '../../../test/helper.ts';
import { invoices } from '../../db/schema/index.ts';

describe('concurrent issuing on one device', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let second: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  let token2: string;

  beforeAll(async () => {
    t = await buildTestApp();
    // a second "process" on the same database
    second = await buildTestApp({ reuse: t });
    f = await invoicingFixture(t.app, t.db);
    token2 = await login(second.app, DEMO.admin.account);
  });

  const issueOn = (which: 0 | 1, body: unknown) =>
    which === 0
      ? f.issue(body)
      : call(second.app, 'POST', `/v3/online-invoicing/blue?${f.scope(f.ids.software, f.ids.hq)}`, {
          token: token2,
          body,
        });

  it('200 concurrent 数电 issues through two app instances get 200 distinct, contiguous numbers', async () => {
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => issueOn((i % 2) as 0 | 1, payload(f.ids.digital))),
    );
    expect(results.map((r) => r.json.code)).toEqual(Array(200).fill(0));
    const seqs = results
      .map((r) => BigInt(r.json.data.invoice_no))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(new Set(seqs).size).toBe(200);
    expect(seqs[199]! - seqs[0]!).toBe(199n);
    const rows = await t.db.select().from(invoices).where(eq(invoices.deviceId, f.ids.digital));
    expect(rows.filter((r) => r.status === 'issued')).toHaveLength(200);
  });

  it('100 concurrent issues of a stock kind get 100 contiguous numbers of one code', async () => {
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        issueOn((i % 2) as 0 | 1, payload(f.ids.ukey, { invoiceType: '026' })),
      ),
    );
    expect(results.map((r) => r.json.code)).toEqual(Array(100).fill(0));
    expect(new Set(results.map((r) => r.json.data.invoice_code)).size).toBe(1);
    const nos = results.map((r) => Number(r.json.data.invoice_no)).sort((a, b) => a - b);
    expect(new Set(nos).size).toBe(100);
    expect(nos[99]! - nos[0]!).toBe(99);
  });

  it('the same serial sent 20 times at once through both instances makes one invoice', async () => {
    const body = payload(f.ids.digital);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => issueOn((i % 2) as 0 | 1, body)));
    expect(results.every((r) => r.json.code === 0)).toBe(true);
    expect(new Set(results.map((r) => r.json.data.invoice_id)).size).toBe(1);
    const rows = await t.db.select().from(invoices).where(eq(invoices.serialNo, body.serial_no));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).toBe('issued');
  });

  it('quota is never overdrawn by concurrent issues', async () => {
    // room for exactly 5 invoices of 1000.00
    await f.dev('device', { device_id: f.ids.digital, quota_used: '9995000.00' });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => issueOn((i % 2) as 0 | 1, payload(f.ids.digital))),
    );
    const codes = results.map((r) => r.json.code);
    expect(codes.filter((c) => c === 0)).toHaveLength(5);
    const state = await call(t.app, 'GET', `/v3/dev/channel/state?device_id=${f.ids.digital}`);
    expect(state.json.data.quota_used).toBe('10000000.00');
  });

  it('concurrent 数电 issues on one device share statements (group commit), each with its own lines and events', async () => {
    await f.dev('device', { device_id: f.ids.digital, quota_used: '0.00' });
    const bodies = Array.from({ length: 30 }, () => payload(f.ids.digital));
    const results = await Promise.all(bodies.map((b) => f.issue(b)));
    expect(results.map((r) => r.json.code)).toEqual(Array(30).fill(0));
    const ids = results.map((r) => r.json.data.invoice_id as number);
    // one statement hands its invoices one issue time: fewer times than invoices means batches
    const rows = await t.db.execute<{
      n: number;
      times: number;
      lines: number;
      events: number;
      serials: number;
    }>(sql`
      select count(*)::int as n, count(distinct issued_at)::int as times,
        (select count(*)::int from invoice_lines l where l.invoice_id = any(${`{${ids.join(',')}}`}::bigint[])) as lines,
        (select count(*)::int from invoice_events e where e.invoice_id = any(${`{${ids.join(',')}}`}::bigint[])) as events,
        count(distinct serial_no)::int as serials
      from invoices where id = any(${`{${ids.join(',')}}`}::bigint[]) and status = 'issued'`);
    const r = rows.rows[0]!;
    expect(r.n).toBe(30);
    expect(r.serials).toBe(30);
    expect(r.times).toBeLessThan(30);
    expect(r.lines).toBe(bodies.reduce((s, b) => s + b.goods_info.length, 0));
    expect(r.events).toBe(60);
    // every answer names its own invoice
    for (const [i, res] of results.entries()) expect(res.json.data.serial_no).toBe(bodies[i]!.serial_no);
  });

  it('a batch holding a serial that is already issued falls back invoice by invoice: every request answered once', async () => {
    await f.dev('device', { device_id: f.ids.digital, quota_used: '0.00' });
    const known = payload(f.ids.digital);
    const first = await f.issue(known);
    expect(first.json.code).toBe(0);
    const fresh = Array.from({ length: 9 }, () => payload(f.ids.digital));
    const results = await Promise.all([...fresh, known, known].map((b) => f.issue(b)));
    expect(results.map((r) => r.json.code)).toEqual(Array(11).fill(0));
    expect(results[9]!.json.data.invoice_id).toBe(first.json.data.invoice_id);
    expect(results[10]!.json.data.invoice_id).toBe(first.json.data.invoice_id);
    expect(new Set(results.slice(0, 9).map((r) => r.json.data.invoice_id)).size).toBe(9);
    const rows = await t.db.select().from(invoices).where(eq(invoices.serialNo, known.serial_no));
    expect(rows).toHaveLength(1);
  });
});
