import { inArray, sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type Fixture,
  invoicingFixture,
  line,
  newInvoice,
  payload,
} from '../../../../test/fixtures/invoices.ts';
import { buildTestApp } from '../../../../test/helper.ts';
import type { SandboxTaxChannel } from '../../../channels/sandbox.ts';
import { channelSandboxIssues, invoices } from '../../../db/schema/index.ts';
import { issueAtOnce } from './group-commit.ts';

/**
 * The group commit (at-once.ts) as the channel sees it: concurrent 数电 invoices of one business,
 * device and kind reach the channel in shared statements, never through the two-step path; older
 * kinds go one per statement; businesses and devices are never mixed in one statement. (Issue times
 * are kept to the second, so they cannot show the batches; the calls the channel receives do.)
 */
describe('issuing at once (group commit) as the channel receives it', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;

  beforeAll(async () => {
    t = await buildTestApp();
    f = await invoicingFixture(t.app, t.db);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const watch = () => ({
    atOnce: vi.spyOn(t.app.taxChannel as SandboxTaxChannel, 'issueAtOnce'),
    twoStep: vi.spyOn(t.app.taxChannel as SandboxTaxChannel, 'issueRecorded'),
  });

  it('30 concurrent 数电 invoices on one device: fewer statements than invoices, all at once', async () => {
    const spy = watch();
    const bodies = Array.from({ length: 30 }, () => payload(f.ids.digital));
    const results = await Promise.all(bodies.map((b) => f.issue(b)));
    expect(results.map((r) => r.json.code)).toEqual(Array(30).fill(0));
    expect(spy.twoStep).not.toHaveBeenCalled();
    const batches = spy.atOnce.mock.calls.map(([batch]) => batch.items.length);
    expect(batches.reduce((s, n) => s + n, 0)).toBe(30);
    expect(batches.length).toBeLessThan(30);
    expect(Math.max(...batches)).toBeGreaterThan(1);
    for (const [batch] of spy.atOnce.mock.calls) {
      expect(batch).toMatchObject({ clientId: f.ids.software, deviceId: f.ids.digital, invoiceType: '82' });
    }
  });

  it('an older kind goes alone, still in one statement', async () => {
    const spy = watch();
    const res = await Promise.all([0, 1, 2].map(() => f.issue(payload(f.ids.ukey, { invoiceType: '026' }))));
    expect(res.map((r) => r.json.code)).toEqual([0, 0, 0]);
    expect(spy.twoStep).not.toHaveBeenCalled();
    expect(spy.atOnce.mock.calls.map(([batch]) => batch.items.length)).toEqual([1, 1, 1]);
  });

  it('two businesses and two kinds issuing at once never share a statement', async () => {
    const spy = watch();
    const bodies = [
      ...Array.from({ length: 6 }, () => ({
        body: payload(f.ids.digital),
        clientId: f.ids.software,
        sid: f.ids.hq,
      })),
      ...Array.from({ length: 6 }, () => ({
        body: payload(f.ids.digital, { invoiceType: '81' }),
        clientId: f.ids.software,
        sid: f.ids.hq,
      })),
      ...Array.from({ length: 6 }, () => ({
        body: payload(f.ids.hotelDigital, { lines: [line('101.00', { tax_rate: '0.01' })] }),
        clientId: f.ids.hotel,
        sid: f.ids.bs,
      })),
    ];
    // interleaved, so that a shared queue would mix them
    const order = bodies.map((_, i) => bodies[(i % 3) * 6 + Math.floor(i / 3)]!);
    const results = await Promise.all(
      order.map((b) => f.issue(b.body, { clientId: b.clientId, sid: b.sid })),
    );
    expect(
      results.map((r) => r.json.code),
      results.map((r) => r.json.message).join(),
    ).toEqual(Array(18).fill(0));
    expect(spy.twoStep).not.toHaveBeenCalled();
    for (const [batch] of spy.atOnce.mock.calls) {
      const mine = order.filter((b) => batch.items.some((it) => it.serialNo === b.body.serial_no));
      expect(new Set(mine.map((b) => `${b.clientId}:${b.body.device_id}:${b.body.invoice_type}`)).size).toBe(
        1,
      );
      expect(batch).toMatchObject({ clientId: mine[0]!.clientId, deviceId: mine[0]!.body.device_id });
    }
    // the bureau's record and ours agree on whose invoice each is
    const serials = order.map((b) => b.body.serial_no);
    const ours = await t.db.select().from(invoices).where(inArray(invoices.serialNo, serials));
    const theirs = await t.db
      .select()
      .from(channelSandboxIssues)
      .where(inArray(channelSandboxIssues.serialNo, serials));
    const key = (r: {
      clientId: number;
      serialNo: string;
      deviceId: number;
      invoiceType: string;
      invoiceNo: string | null;
    }) => `${r.clientId}:${r.serialNo}:${r.deviceId}:${r.invoiceType}:${r.invoiceNo}`;
    expect(theirs.map(key).sort()).toEqual(ours.map(key).sort());
    expect(ours).toHaveLength(18);
  });

  describe('handed the invoices directly (at-once.ts)', () => {
    const digital = () => newInvoice(f.ids.software, f.ids.hq, payload(f.ids.digital));
    const older = () => newInvoice(f.ids.software, f.ids.hq, payload(f.ids.ukey, { invoiceType: '026' }));
    const issuedIds = async (serials: string[]) =>
      (await t.db.select().from(invoices).where(inArray(invoices.serialNo, serials))).map((r) => r.id);

    it('invoices that arrive while a statement runs go together in the next; a serial twice goes alone to the two-step path', async () => {
      const spy = watch();
      const [a, b, c] = [digital(), digital(), digital()];
      // handed in in one go: the first finds the device idle and goes alone, the rest wait for it
      const res = await Promise.all([
        issueAtOnce(t.app, a!),
        issueAtOnce(t.app, b!),
        issueAtOnce(t.app, b!),
        issueAtOnce(t.app, c!),
      ]);
      expect(spy.atOnce.mock.calls.map(([batch]) => batch.items.map((i) => i.serialNo))).toEqual([
        [a!.serialNo],
        [b!.serialNo, c!.serialNo],
      ]);
      expect(res[2]).toBeNull();
      expect(res.map((r) => r?.outcome.status ?? null)).toEqual(['issued', 'issued', null, 'issued']);
      expect(await issuedIds([a!.serialNo, b!.serialNo, c!.serialNo])).toHaveLength(3);
    });

    it('an older kind answers the invoice its statement issued', async () => {
      const inv = older();
      const res = await issueAtOnce(t.app, inv);
      expect(res?.outcome).toMatchObject({ status: 'issued', invoiceNo: expect.stringMatching(/^\d{8}$/) });
      expect([res?.recordedId]).toEqual(await issuedIds([inv.serialNo]));
    });

    it('a channel without group commit (a remote one) answers null, for every kind: the two-step path issues', async () => {
      // the port alone (what a bureau connection implements): no in-database strategies
      const remote = Object.create(t.app.taxChannel, {
        inDatabase: { value: undefined },
        issueAtOnce: { value: undefined },
        issueRecorded: { value: undefined },
      });
      const app = Object.create(t.app, { taxChannel: { value: remote } });
      const [d, o] = [digital(), older()];
      expect(await issueAtOnce(app, o)).toBeNull();
      expect(await issueAtOnce(app, d)).toBeNull();
      expect(await issuedIds([d.serialNo, o.serialNo])).toEqual([]);
    });

    it('a statement that fails hands each of its invoices back to the two-step path and says so; none is issued', async () => {
      const [first, b, c] = [digital(), digital(), digital()];
      // the database refuses b's issued row (as a failed flush would undo the whole statement)
      await t.db.execute(
        sql.raw(`create function kp_test_refuse() returns trigger language plpgsql as
          $$ begin raise exception 'refused by the test'; end $$`),
      );
      await t.db.execute(
        sql.raw(`create trigger kp_test_refuse before insert on invoices for each row
          when (new.status = 'issued' and new.serial_no = '${b!.serialNo}') execute function kp_test_refuse()`),
      );
      try {
        const warn = vi.spyOn(t.app.log, 'warn');
        const res = await Promise.all([first, b, c].map((inv) => issueAtOnce(t.app, inv!)));
        expect(res.map((r) => r?.outcome.status ?? null)).toEqual(['issued', null, null]);
        const said = warn.mock.calls.filter(
          (call) => call[1] === 'group-commit statement failed; issuing one by one',
        );
        expect(said).toHaveLength(1);
        expect(said[0]![0]).toMatchObject({ invoices: 2 });
        expect(await issuedIds([b!.serialNo, c!.serialNo])).toEqual([]);
      } finally {
        await t.db.execute(sql.raw('drop trigger kp_test_refuse on invoices'));
        await t.db.execute(sql.raw('drop function kp_test_refuse()'));
      }
    });
  });
});
