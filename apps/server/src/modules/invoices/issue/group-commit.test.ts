import { inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type Fixture,
  invoicingFixture,
  line,
  newInvoice,
  payload,
} from '../../../../test/fixtures/invoices.ts';
import { buildTestApp } from '../../../../test/helper.ts';
import type { AtOnceIssued } from '../../../channels/in-database.ts';
import { makeCheckCode } from '../../../channels/numbers.ts';
import type { SandboxTaxChannel } from '../../../channels/sandbox.ts';
import { channelSandboxIssues, invoices } from '../../../db/schema/index.ts';
import { issueAtOnce, LANES } from './group-commit.ts';
import { issueAtOnceSql } from './repo.ts';

/**
 * The group commit (group-commit.ts) as the channel sees it: concurrent 数电 invoices — of one
 * device, or of many businesses and devices (issue 11) — reach the channel in shared statements,
 * never through the two-step path; older kinds go one per statement; each device's numbers stay
 * gapless and in order, and one device's refusal or failure leaves the others' invoices issued.
 * (Issue times are kept to the second, so they cannot show the batches; the calls the channel
 * receives do.)
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
      for (const item of batch.items) {
        expect(item).toMatchObject({ clientId: f.ids.software, deviceId: f.ids.digital, invoiceType: '82' });
      }
    }
  });

  it('an older kind goes alone, still in one statement', async () => {
    const spy = watch();
    const res = await Promise.all([0, 1, 2].map(() => f.issue(payload(f.ids.ukey, { invoiceType: '026' }))));
    expect(res.map((r) => r.json.code)).toEqual([0, 0, 0]);
    expect(spy.twoStep).not.toHaveBeenCalled();
    expect(spy.atOnce.mock.calls.map(([batch]) => batch.items.length)).toEqual([1, 1, 1]);
  });

  it('two businesses and two kinds issuing at once share statements, each invoice recorded as the bureau issued it', async () => {
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
    // interleaved, so that the queue mixes them
    const order = bodies.map((_, i) => bodies[(i % 3) * 6 + Math.floor(i / 3)]!);
    const results = await Promise.all(
      order.map((b) => f.issue(b.body, { clientId: b.clientId, sid: b.sid })),
    );
    expect(
      results.map((r) => r.json.code),
      results.map((r) => r.json.message).join(),
    ).toEqual(Array(18).fill(0));
    expect(spy.twoStep).not.toHaveBeenCalled();
    const kinds = spy.atOnce.mock.calls.map(
      ([batch]) => new Set(batch.items.map((i) => `${i.clientId}:${i.deviceId}:${i.invoiceType}`)).size,
    );
    // both devices share a lane only when their ids do; kinds of one device always may
    expect(Math.max(...kinds)).toBeGreaterThan(1);
    for (const [batch] of spy.atOnce.mock.calls) {
      for (const item of batch.items) {
        const mine = order.find((b) => b.body.serial_no === item.serialNo)!;
        expect(item).toMatchObject({
          clientId: mine.clientId,
          deviceId: mine.body.device_id,
          invoiceType: mine.body.invoice_type,
        });
      }
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

    it('the next statement waits until the one before has returned (committed and on disk)', async () => {
      const channel = t.app.taxChannel as SandboxTaxChannel;
      const real = channel.issueAtOnce.bind(channel);
      let open!: () => void;
      const gate = new Promise<void>((r) => {
        open = r;
      });
      let committed = 0;
      const spy = vi.spyOn(channel, 'issueAtOnce').mockImplementation(async (batch, q) => {
        const issued = await real(batch, q);
        committed++;
        // the first statement has committed; its answer is held back here
        if (committed === 1) await gate;
        return issued;
      });
      try {
        const [a, b] = [digital(), digital()];
        let answered = 0;
        const first = issueAtOnce(t.app, a).then((r) => {
          answered++;
          return r;
        });
        await vi.waitFor(() => expect(committed).toBe(1));
        // b arrives while a's statement has not returned: it waits for the next statement
        const second = issueAtOnce(t.app, b).then((r) => {
          answered++;
          return r;
        });
        await new Promise((r) => setTimeout(r, 100));
        expect(spy.mock.calls.map(([batch]) => batch.items.map((i) => i.serialNo))).toEqual([[a.serialNo]]);
        expect(answered).toBe(0);
        open();
        const res = await Promise.all([first, second]);
        expect(res.map((r) => r?.outcome.status)).toEqual(['issued', 'issued']);
        expect(spy.mock.calls.map(([batch]) => batch.items.map((i) => i.serialNo))).toEqual([
          [a.serialNo],
          [b.serialNo],
        ]);
        expect(Number(res[1]!.outcome.invoiceNo.slice(-15))).toBe(
          Number(res[0]!.outcome.invoiceNo.slice(-15)) + 1,
        );
      } finally {
        open();
      }
    });

    it('when a statement returns, the next is on its connection before the returned batch is answered (PostgreSQL never waits for the replies)', async () => {
      // every query a connection is handed, in order, with the answers of issueAtOnce's callers
      const log: string[] = [];
      const original = pg.Client.prototype.query;
      vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
        this: pg.Client,
        ...args: unknown[]
      ) {
        const q = args[0] as { text?: string } | string;
        const text = typeof q === 'string' ? q : (q.text ?? '');
        if (text.includes('insert into channel_sandbox_issues')) log.push('statement');
        return (original as (...a: unknown[]) => unknown).apply(this, args) as never;
      });
      const [a, b, c] = [digital(), digital(), digital()];
      const note = (name: string) => (r: unknown) => {
        log.push(name);
        return r;
      };
      // a goes alone; b and c wait for it and go together in the second statement
      const res = await Promise.all([
        issueAtOnce(t.app, a).then(note('a answered')),
        issueAtOnce(t.app, b).then(note('b answered')),
        issueAtOnce(t.app, c).then(note('c answered')),
      ]);
      expect(res.every((r) => (r as AtOnceIssued | null)?.outcome.status === 'issued')).toBe(true);
      expect(log).toEqual(['statement', 'statement', 'a answered', 'b answered', 'c answered']);
    });

    it('nobody hears of an invoice before it is on disk: the statement commits synchronously, every time', async () => {
      // The test clusters run with synchronous_commit = off (embedded.ts): the statement must turn it
      // on for its own commit. Where the WAL ended inside the statement (after its invoice's rows)
      // is recorded by an extra CTE; when issueAtOnce returns, the flushed position must be past it.
      // (Committing asynchronously instead, it held 0 times in 20.)
      const channel = t.app.taxChannel as SandboxTaxChannel;
      await t.db.execute(
        sql.raw('create table if not exists kp_test_lsn (serial_no text primary key, lsn pg_lsn)'),
      );
      try {
        let durable = 0;
        for (let i = 0; i < 20; i++) {
          const inv = digital();
          const real = issueAtOnceSql([inv]);
          const issued = await channel.issueAtOnce(
            {
              items: [
                {
                  clientId: inv.clientId,
                  deviceId: inv.deviceId,
                  invoiceType: inv.req.invoice_type,
                  serialNo: inv.serialNo,
                  totalAmount: inv.req.invoice_info.total_amount,
                },
              ],
            },
            {
              guard: real.guard,
              ctes: sql`${real.ctes}, kp_lsn as (
                insert into kp_test_lsn (serial_no, lsn) select serial_no, pg_current_wal_insert_lsn() from recorded)`,
            },
          );
          expect(issued?.get(`${inv.clientId}:${inv.serialNo}`)?.outcome.status).toBe('issued');
          const flushed = await t.db.execute<{ ok: boolean }>(
            sql`select pg_current_wal_flush_lsn() >= lsn as ok from kp_test_lsn where serial_no = ${inv.serialNo}`,
          );
          if (flushed.rows[0]?.ok === true) durable++;
        }
        expect(durable).toBe(20);
      } finally {
        await t.db.execute(sql.raw('drop table if exists kp_test_lsn'));
      }
    });

    it("the statement's generic plan reads businesses and store bindings by key, never all of them", async () => {
      // A prepared statement soon runs its generic plan, which guesses 100 request rows: a hash
      // join with clients or a hashed subplan over device_stores would read every business and
      // binding of the database once per statement. The plan must probe them per request row.
      const seen: string[] = [];
      const query = t.pool.query.bind(t.pool);
      vi.spyOn(t.pool, 'query').mockImplementation(((q: unknown, ...rest: unknown[]) => {
        const text = (q as { text?: string }).text;
        if (text?.includes('at_once_events')) seen.push(text);
        return (query as (...a: unknown[]) => unknown)(q, ...rest);
      }) as typeof t.pool.query);
      expect((await issueAtOnce(t.app, digital()))?.outcome.status).toBe('issued');
      vi.restoreAllMocks();
      expect(seen).toHaveLength(1);
      const plan = (await t.pool.query(`explain (generic_plan) ${seen[0]}`)).rows
        .map((r: Record<string, string>) => r['QUERY PLAN'])
        .join('\n');
      expect(plan).not.toMatch(/hashed SubPlan/);
      expect(plan).not.toMatch(/Hash Join/);
      for (const table of ['clients', 'device_stores', 'trusteeship_grants', 'invoices', 'tax_devices']) {
        expect(plan).not.toMatch(new RegExp(`Seq Scan on ${table}\\b`));
      }
    });

    it('an older kind answers the invoice its statement issued', async () => {
      const inv = older();
      const res = await issueAtOnce(t.app, inv);
      expect(res?.outcome).toMatchObject({ status: 'issued', invoiceNo: expect.stringMatching(/^\d{8}$/) });
      expect([res?.recordedId]).toEqual(await issuedIds([inv.serialNo]));
    });

    it('older kinds with and without a check code, one after another: each statement its own', async () => {
      const kinds = ['026', '028', '026', '028'];
      for (const invoiceType of kinds) {
        const inv = newInvoice(f.ids.software, f.ids.hq, payload(f.ids.ukey, { invoiceType }));
        const res = await issueAtOnce(t.app, inv);
        expect(res?.outcome.status, invoiceType).toBe('issued');
        const [row] = await t.db
          .select()
          .from(invoices)
          .where(inArray(invoices.serialNo, [inv.serialNo]));
        const want = makeCheckCode(invoiceType, row!.invoiceCode, row!.invoiceNo!);
        expect(want === '', invoiceType).toBe(invoiceType === '028');
        expect(row!.checkCode, invoiceType).toBe(want);
        expect(res?.outcome.checkCode).toBe(want);
      }
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

  describe('many businesses, one 数电 account each (issue 11)', () => {
    /** `count` copies of the software business, each with a store and a 数电 account bound to it */
    const businesses = async (count: number) => {
      const res = await t.db.execute<{ client_id: number; store_id: number; device_id: number }>(sql`
        with src as (select * from clients where id = ${f.ids.software}),
        biz as (
          insert into clients (org_id, name, tax_code, industry, taxpayer_type, address, phone, bank_name,
            bank_account, has_white_listed_tax_account)
          select org_id, name || '（分' || g || '）', '91330100TEST' || lpad(g::text, 6, '0') || substr(md5(random()::text), 1, 3),
            industry, taxpayer_type, address, phone, bank_name, bank_account, has_white_listed_tax_account
          from src, generate_series(1, ${count}::int) g
          returning id
        ),
        store as (insert into client_stores (client_id, name, code) select id, '门店', 'HQ' from biz returning id, client_id),
        dev as (
          insert into tax_devices (client_id, kind, channel, name, device_no, area_code, invoice_types,
            per_invoice_limit, monthly_quota)
          select biz.id, d.kind, d.channel, d.name, d.device_no || '-T' || biz.id, d.area_code, d.invoice_types,
            d.per_invoice_limit, 99999999
          from tax_devices d, biz where d.id = ${f.ids.digital}
          returning id, client_id
        ),
        bound as (
          insert into device_stores (device_id, store_id, client_id)
          select dev.id, store.id, client_id from dev join store using (client_id)
        )
        select store.client_id, store.id as store_id, dev.id as device_id
        from store join dev using (client_id) order by dev.id`);
      return res.rows;
    };
    /** each device's numbers (the 15-digit sequence), in the order of the invoices' ids */
    const sequences = async (deviceIds: number[]) => {
      const rows = await t.db.execute<{ device_id: number; seq: string }>(sql`
        select device_id, right(invoice_no, 15) as seq from invoices
        where device_id = any(${`{${deviceIds.join(',')}}`}::int[]) and status = 'issued' order by id`);
      const by = new Map<number, number[]>(deviceIds.map((d) => [d, []]));
      for (const r of rows.rows) by.get(r.device_id)!.push(Number(r.seq));
      return by;
    };
    const counters = async (deviceIds: number[]) =>
      (
        await t.db.execute<{ device_id: number; last_seq: number }>(sql`
          select device_id, last_seq::int from channel_number_counters
          where device_id = any(${`{${deviceIds.join(',')}}`}::int[]) order by device_id`)
      ).rows;
    const lane = <T extends { device_id: number }>(rows: T[], k: number) =>
      rows.filter((r) => r.device_id % LANES === k);

    it('60 requests over 12 businesses at once: shared statements, each device gapless and in order, a repeated request issued once', async () => {
      const biz = await businesses(12);
      const spy = watch();
      const reqs = biz.flatMap((b) => Array.from({ length: 5 }, () => ({ b, body: payload(b.device_id) })));
      // the same request twice, at once (a double click): one invoice, one answer
      const twice = reqs[7]!;
      const all = [...reqs, twice];
      const results = await Promise.all(
        all.map((r) => f.issue(r.body, { clientId: r.b.client_id, sid: r.b.store_id })),
      );
      expect(
        results.map((r) => r.json.code),
        results.map((r) => r.json.message).join(),
      ).toEqual(Array(all.length).fill(0));
      expect(results.at(-1)!.json.data).toMatchObject({
        invoice_no: results[7]!.json.data.invoice_no,
        invoice_id: results[7]!.json.data.invoice_id,
      });
      // statements mixed businesses; only the repeat took the two-step path (and, when it got
      // there first, others of its device, whose statement it undid)
      const devicesPerStatement = spy.atOnce.mock.calls.map(
        ([batch]) => new Set(batch.items.map((i) => i.deviceId)).size,
      );
      expect(Math.max(...devicesPerStatement)).toBeGreaterThan(1);
      expect(spy.atOnce.mock.calls.length).toBeLessThan(reqs.length);
      for (const [req] of spy.twoStep.mock.calls) expect(req.deviceId).toBe(twice.b.device_id);
      const devices = biz.map((b) => b.device_id);
      // each device: numbers 1…5, in the order its invoices were recorded (the repeat's device
      // may have had an `issuing` row first), the counter at 5
      const seqs = await sequences(devices);
      for (const d of devices) {
        const got = d === twice.b.device_id ? [...seqs.get(d)!].sort((x, y) => x - y) : seqs.get(d);
        expect(got, `device ${d}`).toEqual([1, 2, 3, 4, 5]);
      }
      expect((await counters(devices)).map((c) => c.last_seq)).toEqual(Array(12).fill(5));
      // every request once, in our records and the bureau's, with the number it answered
      const serials = reqs.map((r) => r.body.serial_no);
      const ours = await t.db.select().from(invoices).where(inArray(invoices.serialNo, serials));
      const theirs = await t.db
        .select()
        .from(channelSandboxIssues)
        .where(inArray(channelSandboxIssues.serialNo, serials));
      expect(ours).toHaveLength(60);
      expect(theirs).toHaveLength(60);
      const answered = new Map(results.map((r) => [r.json.data.serial_no, r.json.data.invoice_no]));
      for (const inv of ours) {
        expect(answered.get(inv.serialNo)).toBe(inv.invoiceNo);
        expect(theirs.find((x) => x.serialNo === inv.serialNo)).toMatchObject({
          clientId: inv.clientId,
          deviceId: inv.deviceId,
          invoiceNo: inv.invoiceNo,
        });
      }
    });

    it("in a shared statement each device's numbers follow its own counter, in the order handed in", async () => {
      const biz = lane(await businesses(4 * LANES), 0).slice(0, 4);
      const [first, b, c, d] = biz as [(typeof biz)[0], (typeof biz)[0], (typeof biz)[0], (typeof biz)[0]];
      const inv = (x: (typeof biz)[0]) => newInvoice(x.client_id, x.store_id, payload(x.device_id));
      const spy = watch();
      // the first finds the lane idle and goes alone; the rest wait and go together
      const batch = [inv(first), inv(b), inv(c), inv(b), inv(d), inv(c), inv(b)];
      const res = await Promise.all(batch.map((n) => issueAtOnce(t.app, n)));
      expect(spy.atOnce.mock.calls.map(([x]) => x.items.length)).toEqual([1, 6]);
      expect(res.map((r) => Number(r!.outcome.invoiceNo.slice(-15)))).toEqual([1, 1, 1, 2, 1, 2, 3]);
      const seqs = await sequences([b.device_id, c.device_id, d.device_id]);
      expect([...seqs.values()]).toEqual([[1, 2, 3], [1, 2], [1]]);
      expect((await counters([b.device_id, c.device_id, d.device_id])).map((x) => x.last_seq)).toEqual([
        3, 2, 1,
      ]);
    });

    it('in a shared statement, a device that refuses (offline, a simulated fault) issues nothing and the others issue', async () => {
      const biz = lane(await businesses(2 * LANES * 4), 0).slice(0, 4);
      const [first, offline, faulty, fine] = biz as [
        (typeof biz)[0],
        (typeof biz)[0],
        (typeof biz)[0],
        (typeof biz)[0],
      ];
      await t.db.execute(sql`update tax_devices set online = false where id = ${offline.device_id}`);
      await t.db.execute(sql`
        insert into channel_sandbox_controls (device_id, client_id, fault, fault_remaining)
        values (${faulty.device_id}, ${faulty.client_id}, 'error', 1)`);
      const inv = (b: (typeof biz)[0]) => newInvoice(b.client_id, b.store_id, payload(b.device_id));
      const spy = watch();
      // the first finds the lane idle and goes alone; the rest wait and go together
      const batch = [inv(first), inv(offline), inv(faulty), inv(fine), inv(offline), inv(fine)];
      const res = await Promise.all(batch.map((n) => issueAtOnce(t.app, n)));
      expect(spy.atOnce.mock.calls.map(([b]) => b.items.length)).toEqual([1, 5]);
      expect(res.map((r) => r?.outcome.status ?? null)).toEqual([
        'issued',
        null,
        null,
        'issued',
        null,
        'issued',
      ]);
      const seqs = await sequences([first.device_id, offline.device_id, faulty.device_id, fine.device_id]);
      expect([...seqs.values()]).toEqual([[1], [], [], [1, 2]]);
      // the refusing devices took no number and no quota
      expect((await counters([offline.device_id, faulty.device_id])).length).toBe(0);
      const quota = await t.db.execute<{ id: number; quota_used: string }>(sql`
        select id, quota_used from tax_devices where id in (${offline.device_id}, ${faulty.device_id})`);
      expect(quota.rows.map((r) => Number(r.quota_used))).toEqual([0, 0]);
      // the counted fault is still there for the two-step path to take
      const control = await t.db.execute<{ fault_remaining: number }>(
        sql`select fault_remaining from channel_sandbox_controls where device_id = ${faulty.device_id}`,
      );
      expect(control.rows[0]!.fault_remaining).toBe(1);
    });

    it("a statement failing on one device's invoice: the other devices are issued in statements of their own, that device one by one, none twice", async () => {
      const biz = lane(await businesses(2 * LANES * 3), 0).slice(0, 3);
      const [first, bad, good] = biz as [(typeof biz)[0], (typeof biz)[0], (typeof biz)[0]];
      const inv = (b: (typeof biz)[0]) => newInvoice(b.client_id, b.store_id, payload(b.device_id));
      const batch = [inv(first), inv(bad), inv(good), inv(bad), inv(good)];
      const refused = batch[3]!.serialNo;
      await t.db.execute(
        sql.raw(`create function kp_test_refuse_one() returns trigger language plpgsql as
          $$ begin raise exception 'refused by the test'; end $$`),
      );
      await t.db.execute(
        sql.raw(`create trigger kp_test_refuse_one before insert on invoices for each row
          when (new.status = 'issued' and new.serial_no = '${refused}') execute function kp_test_refuse_one()`),
      );
      try {
        const spy = watch();
        const warn = vi.spyOn(t.app.log, 'warn');
        const res = await Promise.all(batch.map((n) => issueAtOnce(t.app, n)));
        // alone; the shared statement (undone); then device by device: bad's fails, good's issues
        expect(spy.atOnce.mock.calls.map(([b]) => b.items.map((i) => i.deviceId))).toEqual([
          [first.device_id],
          [bad.device_id, good.device_id, bad.device_id, good.device_id],
          [bad.device_id, bad.device_id],
          [good.device_id, good.device_id],
        ]);
        expect(res.map((r) => r?.outcome.status ?? null)).toEqual(['issued', null, 'issued', null, 'issued']);
        const said = warn.mock.calls.map((c) => [c[1], (c[0] as { invoices: number }).invoices]);
        expect(said).toEqual([
          ['group-commit statement failed; issuing device by device', 4],
          ['group-commit statement failed; issuing one by one', 2],
        ]);
        // the undone statements took no number: good's are 1 and 2, bad has none yet
        const seqs = await sequences([first.device_id, bad.device_id, good.device_id]);
        expect([...seqs.values()]).toEqual([[1], [], [1, 2]]);
        expect(await counters([bad.device_id])).toEqual([]);
        // bad's first invoice, handed to the two-step path as the service does, issues once
        const again = await f.issue(batch[1]!.req, { clientId: bad.client_id, sid: bad.store_id });
        expect(again.json.code).toBe(0);
        expect((await sequences([bad.device_id])).get(bad.device_id)).toEqual([1]);
      } finally {
        await t.db.execute(sql.raw('drop trigger kp_test_refuse_one on invoices'));
        await t.db.execute(sql.raw('drop function kp_test_refuse_one()'));
      }
    });
  });
});
