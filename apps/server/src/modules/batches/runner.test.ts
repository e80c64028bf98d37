import { INVOICE_CODE, messageFor } from '@kaipiao/shared';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type CellMap, fillTemplate, invoiceRow, lineRow } from '../../../test/fixtures/batches.ts';
import { type Fixture, invoicingFixture } from '../../../test/fixtures/invoices.ts';
import { buildTestApp, call } from '../../../test/helper.ts';
import { type HeldLock, holdLock } from '../../../test/race.ts';
import { download, upload } from '../../../test/xlsx-helpers.ts';
import { clients, invoices, orgs } from '../../db/schema/index.ts';
import { UNKNOWN_MESSAGE } from '../invoices/service.ts';
import {
  BatchRunner,
  CLAIM_ROWS,
  CLAIM_TARGET_MS,
  type ClaimedRow,
  issueBatchRow,
  LIVENESS_CLASS,
  MAX_ACTIVE_BATCHES,
  type RunnerOptions,
} from './runner.ts';

type Row = {
  seq: number;
  serial_no: string;
  status: string;
  worker: number | null;
  attempts: number;
  invoice_id: number | null;
  invoice_code: string;
  invoice_no: string | null;
  issued_at: Date | string | null;
  error_code: string | null;
  error_message: string | null;
};
type Claim = { n: number; worker: number; seqs: number[] };

/** A key no runner holds: the liveness lock of a runner whose process died. */
const DEAD = 12345;
/** Application name of a runner's liveness connection. */
const LIVENESS_APP = 'kaipiao-batch-runner';

/**
 * The batch runner below the routes (batches/runner.ts): its start and stop, the liveness lock
 * each runner holds on a connection of its own, the sweep that re-drives a dead runner's rows and
 * pauses and resumes batches for the bookkeeping service, how many batches one process takes, how
 * many rows a lane claims at once, how a lane gives rows back when interrupted or failing, and how
 * a batch is settled when its lanes stop.
 *
 * The app is a `web` process, so it has no runner of its own: every runner here is built by the
 * test (`make`) and stopped after each test. Lanes are held in the middle of a row by a lock on the
 * device's row (every issue on the device reserves its quota there); claims are counted by a
 * trigger that logs each row a claim statement takes; the runner's clock (`now`) is the test's.
 */
describe('batch runner', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  let template: Buffer;
  let seq = 0;
  const runners: BatchRunner[] = [];
  const locks: HeldLock[] = [];
  const others: pg.Client[] = [];
  const pauses: { ms: number; go: () => void }[] = [];

  const scope = () => f.scope(f.ids.software, f.ids.hq);
  const post = (action: string, batchId: number) =>
    call(t.app, 'POST', `/v3/batch-invoice/${action}?${scope()}`, {
      token: f.admin,
      body: { batch_id: batchId },
    });

  beforeAll(async () => {
    t = await buildTestApp({ env: { KAIPIAO_ROLE: 'web' } });
    expect(t.app.batchRunner).toBeNull();
    f = await invoicingFixture(t.app, t.db);
    template = (await download(t.app, `/v3/batch-invoice/template?${scope()}`, f.admin)).body;
    // every row a claim statement takes, with the statement's transaction
    await t.db.execute(sql`
      create table test_claims (id bigserial primary key, tx bigint not null, batch_id int not null,
        seq int not null, worker int)`);
    await t.db.execute(sql`
      create function test_log_claim() returns trigger language plpgsql as $$
      begin
        insert into test_claims (tx, batch_id, seq, worker) values (txid_current(), new.batch_id, new.seq, new.worker);
        return null;
      end $$`);
    await t.db.execute(sql`
      create trigger test_log_claim after update on batch_rows for each row
      when (old.status = 'pending' and new.status = 'issuing') execute function test_log_claim()`);
    // faults the test switches on: an invoice that cannot be stored (its serial), a batch that
    // cannot take a status, a runner that cannot connect
    await t.db.execute(sql`create table test_fail_serials (serial_no text primary key)`);
    await t.db.execute(sql`
      create function test_fail_invoice() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from test_fail_serials where serial_no = new.serial_no) then
          raise exception 'test: the invoice % cannot be stored', new.serial_no;
        end if;
        return new;
      end $$`);
    await t.db.execute(sql`
      create trigger test_fail_invoice before insert on invoices for each row execute function test_fail_invoice()`);
    await t.db.execute(sql`create table test_fail_batches (batch_id int not null, status text not null)`);
    await t.db.execute(sql`
      create function test_fail_batch() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from test_fail_batches where batch_id = new.id and status = new.status) then
          raise exception 'test: batch % cannot become %', new.id, new.status;
        end if;
        return new;
      end $$`);
    await t.db.execute(sql`
      create trigger test_fail_batch before update on batches for each row execute function test_fail_batch()`);
    await t.db.execute(sql`create table test_refuse_runner (on_ boolean not null)`);
    await t.db.execute(sql`
      create function test_refuse_runner() returns event_trigger language plpgsql as $$
      begin
        if current_setting('application_name') = ${sql.raw(`'${LIVENESS_APP}'`)}
           and exists (select 1 from test_refuse_runner) then
          raise exception 'test: batch runner connections refused';
        end if;
      end $$`);
    await t.db.execute(
      sql`create event trigger test_refuse_runner on login execute function test_refuse_runner()`,
    );
  });

  afterEach(async () => {
    for (const l of locks.splice(0)) await l.release();
    const stopping = runners.splice(0).map((r) => r.stop());
    for (const p of pauses.splice(0)) p.go();
    await Promise.all(stopping);
    vi.restoreAllMocks();
    for (const c of others.splice(0)) await c.end();
    await t.db.execute(sql`delete from test_fail_serials`);
    await t.db.execute(sql`delete from test_fail_batches`);
    await t.db.execute(sql`delete from test_refuse_runner`);
    await setExpiry(null);
    await f.dev('device', { device_id: f.ids.digital, online: true });
    await f.dev('control', { device_id: f.ids.digital, fault: 'none', latency_ms: 0 });
    // what a test left open goes out of every later sweep's way
    await t.db.execute(
      sql`update batch_rows set status = 'skipped', worker = null where status in ('pending', 'issuing')`,
    );
    await t.db.execute(sql`
      update batches set status = 'cancelled', updated_at = now() - interval '2 days'
      where status in ('ready', 'running', 'paused')`);
  });

  /** A runner of this test (one lane, no periodic sweep unless started), stopped after it. */
  const make = (o: Partial<RunnerOptions> = {}) => {
    const r = new BatchRunner(t.app, { lanes: 1, sweepMs: 3_600_000, ...o });
    runners.push(r);
    return r;
  };

  /** Uploads a batch of `n` invoices (1,060.00 incl. 6% each); its id, ready. */
  const ready = async (n: number, o: { device?: number; type?: string; kind?: string } = {}) => {
    const p = `RN${++seq}x`;
    const inv: CellMap[] = [];
    const lines: CellMap[] = [];
    for (let i = 1; i <= n; i++) {
      inv.push(invoiceRow(`${p}${i}`, o.kind ? { 发票种类: o.kind } : {}));
      lines.push(lineRow(`${p}${i}`));
    }
    const res = await upload(
      t.app,
      `/v3/batch-invoice/upload?${scope()}&device_id=${o.device ?? f.ids.digital}&invoice_type=${o.type ?? '82'}`,
      f.admin,
      { filename: `${p}.xlsx`, content: await fillTemplate(template, inv, lines) },
    );
    expect(res.json.code, res.json.message).toBe(0);
    return res.json.data.batch_id as number;
  };
  /** A started batch (no runner of the app takes it: the test's runners do). */
  const running = async (n: number, o: Parameters<typeof ready>[1] = {}) => {
    const id = await ready(n, o);
    const res = await post('start', id);
    expect(res.json.code, res.json.message).toBe(0);
    expect(res.json.data.status).toBe('running');
    return id;
  };
  /** A batch of 增值税普通发票 (007) on the 金税盘, another device than the 数电 account's. */
  const paper = (n: number) => running(n, { device: f.ids.goldenMain, type: '007', kind: '增值税普通发票' });

  const rowsOf = async (id: number) =>
    (
      await t.db.execute<Row>(sql`
        select seq, serial_no, status, worker, attempts, invoice_id::int as invoice_id, invoice_code,
          invoice_no, issued_at, error_code, error_message
        from batch_rows where batch_id = ${id} order by seq`)
    ).rows;
  const statuses = async (id: number) => (await rowsOf(id)).map((r) => r.status);
  const batchOf = async (id: number) =>
    (
      await t.db.execute<{ status: string; pause_reason: string; finished_at: string | null }>(
        sql`select status, pause_reason, finished_at from batches where id = ${id}`,
      )
    ).rows[0]!;
  /** The claim statements that took rows of the batch, in order: how many rows each, under which key. */
  const claimsOf = async (id: number) =>
    (
      await t.db.execute<Claim>(sql`
        select count(*)::int as n, min(worker) as worker, array_agg(seq order by seq) as seqs
        from test_claims where batch_id = ${id} group by tx order by min(id)`)
    ).rows;
  /** The liveness locks (class 727002) held or awaited in this database, with their sessions. */
  const livenessLocks = async () =>
    (
      await t.db.execute<{ key: number; pid: number; granted: boolean; app: string | null }>(sql`
        select l.objid::bigint as key, l.pid, l.granted, a.application_name as app
        from pg_locks l left join pg_stat_activity a on a.pid = l.pid
        where l.locktype = 'advisory' and l.classid = ${LIVENESS_CLASS}::oid and l.objsubid = 2
          and l.database = (select oid from pg_database where datname = current_database())
        order by l.pid`)
    ).rows;
  const runnerConnections = async () =>
    Number(
      (
        await t.db.execute<{ n: number }>(sql`
          select count(*)::int as n from pg_stat_activity
          where datname = current_database() and application_name = ${LIVENESS_APP}`)
      ).rows[0]!.n,
    );
  /** Holds the device's row: lanes issuing on it stop inside their row until released. */
  const holdDevice = async (deviceId = f.ids.digital) => {
    const l = await holdLock(t.url, 'select id from tax_devices where id = $1 for no key update', [deviceId]);
    locks.push(l);
    return l;
  };
  /** Marks rows as claimed by the runner `worker` (issuing), the way a runner that died left them. */
  const strand = (id: number, seqs: number[], worker = DEAD) =>
    t.db.execute(sql`
      update batch_rows set status = 'issuing', worker = ${worker}, attempts = attempts + 1
      where batch_id = ${id} and seq = any(${`{${seqs.join(',')}}`}::int[])`);
  /** A key whose liveness lock a live session (another connection) holds. */
  const aliveRunner = async (key: number) => {
    const c = new pg.Client(t.url);
    await c.connect();
    others.push(c);
    await c.query('select pg_advisory_lock($1, $2)', [LIVENESS_CLASS, key]);
  };
  const setExpiry = async (at: Date | null) => {
    const [c] = await t.db.select().from(clients).where(eq(clients.id, f.ids.software));
    await t.db.update(orgs).set({ bookkeepingExpiresAt: at }).where(eq(orgs.id, c!.orgId));
  };
  /** A few round trips to the database: what a runner does not do by then, it is not about to do. */
  const roundTrips = async () => {
    for (let i = 0; i < 5; i++) await t.db.execute(sql`select 1`);
  };
  /** A promise with a flag that says whether it has settled. */
  const watch = <T>(p: Promise<T>) => {
    const w = { done: false, promise: p };
    p.then(
      () => {
        w.done = true;
      },
      () => {
        w.done = true;
      },
    );
    return w;
  };
  const logs = (level: 'error' | 'warn' | 'info') => vi.spyOn(t.app.log, level);
  const logged = (spy: ReturnType<typeof logs>, message: string) =>
    spy.mock.calls.filter((c) => c[1] === message).map((c) => c[0]);
  /**
   * The pauses a lane takes after a failure (runner.ts `sleep`): held until the test lets each go,
   * so a lane waiting after a failure is seen waiting. Other timers run as usual.
   */
  const holdPauses = () => {
    const real = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
      fn: () => void,
      ms?: number,
      ...args: unknown[]
    ) => {
      // the frame that called setTimeout, past this function and the spy's own
      const caller = (new Error().stack ?? '')
        .split('\n')
        .slice(1)
        .find((l) => !l.includes('runner.test.ts') && !/@vitest|tinyspy/.test(l));
      if (caller?.includes('/batches/runner.ts')) {
        pauses.push({ ms: ms ?? 0, go: fn });
        return { ref() {}, unref() {}, hasRef: () => false } as unknown as NodeJS.Timeout;
      }
      return Reflect.apply(real, globalThis, [fn, ms, ...args]) as NodeJS.Timeout;
    }) as typeof setTimeout);
    return pauses;
  };

  describe('start and stop', () => {
    it('start() sweeps at once and every sweepMs, with one interval however often it is called', async () => {
      const id = await running(3);
      expect((await post('pause', id)).json.data.status).toBe('paused');
      await strand(id, [1, 2]);
      const intervals = vi.spyOn(globalThis, 'setInterval');
      const cleared = vi.spyOn(globalThis, 'clearInterval');
      const info = logs('info');
      const r = make({ sweepMs: 123_456 });
      r.start();
      r.start();
      const mine = intervals.mock.calls.filter((c) => c[1] === 123_456);
      expect(mine).toHaveLength(1);
      const timer = intervals.mock.results[intervals.mock.calls.indexOf(mine[0]!)]!.value as NodeJS.Timeout;
      // the interval does not keep the process alive
      expect(timer.hasRef()).toBe(false);
      // the first sweep runs without being asked
      await vi.waitFor(async () => expect(await statuses(id)).toEqual(['pending', 'pending', 'pending']));
      expect((await rowsOf(id)).map((r) => r.worker)).toEqual([null, null, null]);

      // every sweepMs: what the interval calls sweeps (once the first sweep has ended: a call
      // while one runs joins it)
      await r.sweep();
      await strand(id, [3]);
      mine[0]![0]();
      await vi.waitFor(async () => expect(await statuses(id)).toEqual(['pending', 'pending', 'pending']));
      await r.sweep(); // nothing stranded: nothing said
      expect(logged(info, 'batch rows of a stopped runner re-queued')).toEqual([{ rows: 2 }, { rows: 1 }]);
      // a paused batch is not worked on
      expect(r.isActive(id)).toBe(false);

      await r.stop();
      expect(cleared).toHaveBeenCalledWith(timer);
    });

    it('after stop(), ensure() refuses and sweep() does nothing', async () => {
      const id = await running(2);
      const r = make();
      await r.stop();
      expect(r.ensure(id)).toBe(false);
      expect(r.isActive(id)).toBe(false);
      await strand(id, [1]);
      await r.sweep();
      expect(await statuses(id)).toEqual(['issuing', 'pending']);
      expect(r.isActive(id)).toBe(false);
      expect(await claimsOf(id)).toEqual([{ n: 1, worker: DEAD, seqs: [1] }]);
    });

    it('stop() waits for the lanes to finish the row in hand, gives the rest back, then ends the liveness connection', async () => {
      const id = await running(3);
      const device = await holdDevice();
      const r = make({ claim: 3 });
      expect(r.ensure(id)).toBe(true);
      await device.waiters(1);
      const [lock] = await livenessLocks();
      expect(lock).toMatchObject({ granted: true, app: LIVENESS_APP });
      expect((await rowsOf(id)).map((row) => row.worker)).toEqual([lock!.key, lock!.key, lock!.key]);

      const stopping = watch(r.stop());
      await roundTrips();
      // a row is in flight: neither stopped nor unlocked
      expect(stopping.done).toBe(false);
      expect(await livenessLocks()).toEqual([lock]);
      await device.release();
      await stopping.promise;
      // when stop() answers, the row in flight is recorded and the others are back in the queue
      const rows = await rowsOf(id);
      expect(rows.map((row) => [row.status, row.worker])).toEqual([
        ['issued', null],
        ['pending', null],
        ['pending', null],
      ]);
      expect(await batchOf(id)).toMatchObject({ status: 'running', finished_at: null });
      await vi.waitFor(async () => expect(await livenessLocks()).toEqual([]));
      expect(await runnerConnections()).toBe(0);
      expect(r.isActive(id)).toBe(false);
      expect(r.ensure(id)).toBe(false);
    });

    it('stop() waits for the sweep in flight', async () => {
      const id = await running(2);
      expect((await post('pause', id)).json.data.status).toBe('paused');
      await strand(id, [1]);
      // the sweep's re-queueing of row 1 waits behind this lock
      const row = await holdLock(
        t.url,
        'select seq from batch_rows where batch_id = $1 and seq = 1 for update',
        [id],
      );
      locks.push(row);
      const r = make();
      const sweeping = watch(r.sweep());
      await row.waiters(1);
      const stopping = watch(r.stop());
      await roundTrips();
      expect(sweeping.done).toBe(false);
      expect(stopping.done).toBe(false);
      await row.release();
      await stopping.promise;
      expect(sweeping.done).toBe(true);
      expect(await statuses(id)).toEqual(['pending', 'pending']);
    });

    it('a sweep that fails is reported once stopping has not begun, and the next sweep runs', async () => {
      const id = await running(1);
      await setExpiry(new Date(Date.now() - 60_000));
      await t.db.execute(sql`insert into test_fail_batches values (${id}, 'paused')`);
      const warn = logs('warn');
      const r = make();
      await expect(r.sweep()).resolves.toBeUndefined();
      expect(logged(warn, 'batch sweep failed')).toEqual([{ err: expect.any(Error) }]);
      expect((await batchOf(id)).status).toBe('running');
      await t.db.execute(sql`delete from test_fail_batches`);
      await r.sweep();
      expect(await batchOf(id)).toMatchObject({ status: 'paused', pause_reason: 'bookkeeping' });

      // failing while the runner stops: not worth a warning
      await t.db.execute(sql`update batches set status = 'running', pause_reason = '' where id = ${id}`);
      await t.db.execute(sql`insert into test_fail_batches values (${id}, 'paused')`);
      const held = await holdLock(t.url, 'select id from batches where id = $1 for update', [id]);
      locks.push(held);
      warn.mockClear();
      const sweeping = watch(r.sweep());
      await held.waiters(1);
      const stopping = r.stop();
      await held.release();
      await stopping;
      expect(sweeping.done).toBe(true);
      expect(warn).not.toHaveBeenCalled();
      expect((await batchOf(id)).status).toBe('running');
    });
  });

  describe('liveness', () => {
    it('takes its lock on first use, once for concurrent and later callers, and claims under its key', async () => {
      const a = await running(2);
      const b = await paper(2);
      const c = await running(1);
      const r = make();
      expect(await livenessLocks()).toEqual([]);
      expect(await runnerConnections()).toBe(0);
      const digital = await holdDevice();
      const disc = await holdDevice(f.ids.goldenMain);
      // two runs ask for the key at once: one connection, one lock
      expect(r.ensure(a)).toBe(true);
      expect(r.ensure(b)).toBe(true);
      await digital.waiters(2);
      const locksNow = await livenessLocks();
      expect(locksNow).toHaveLength(1);
      expect(locksNow[0]).toMatchObject({ granted: true, app: LIVENESS_APP });
      expect(await runnerConnections()).toBe(1);
      const key = locksNow[0]!.key;
      await digital.release();
      await disc.release();
      await r.idle();
      // a later run finds the lock held: no second connection, the same key
      expect(r.ensure(c)).toBe(true);
      await r.idle(c);
      expect(await livenessLocks()).toEqual(locksNow);
      expect(await runnerConnections()).toBe(1);
      for (const id of [a, b, c]) {
        expect(await statuses(id)).toEqual((await rowsOf(id)).map(() => 'issued'));
        for (const claim of await claimsOf(id)) expect(claim.worker).toBe(key);
      }
    });

    it('a lost liveness connection: the lane claims nothing more under that key and takes a new one', async () => {
      const id = await running(3);
      const r = make({ claim: 1 });
      const device = await holdDevice();
      const error = logs('error');
      expect(r.ensure(id)).toBe(true);
      await device.waiters(1);
      const [first] = await livenessLocks();
      await t.db.execute(sql`select pg_terminate_backend(${first!.pid}, 10000)`);
      await vi.waitFor(() =>
        expect(logged(error, 'batch runner liveness connection lost')).toContainEqual({
          err: expect.any(Error),
        }),
      );
      await device.release();
      await r.idle(id);
      expect(await statuses(id)).toEqual(['issued', 'issued', 'issued']);
      const claims = await claimsOf(id);
      expect(claims.map((c) => c.seqs)).toEqual([[1], [2], [3]]);
      expect(claims[0]!.worker).toBe(first!.key);
      const [second] = await livenessLocks();
      expect(second!.key).not.toBe(first!.key);
      expect(second).toMatchObject({ granted: true, app: LIVENESS_APP });
      expect(claims.slice(1).map((c) => c.worker)).toEqual([second!.key, second!.key]);
      expect(await runnerConnections()).toBe(1);
    });

    it('cannot take its lock again: the lane stops and the batch waits, without a claim under the lost key', async () => {
      const id = await running(3);
      const r = make({ claim: 1 });
      const device = await holdDevice();
      const error = logs('error');
      expect(r.ensure(id)).toBe(true);
      await device.waiters(1);
      const [first] = await livenessLocks();
      await t.db.execute(sql`insert into test_refuse_runner values (true)`);
      await t.db.execute(sql`select pg_terminate_backend(${first!.pid}, 10000)`);
      await vi.waitFor(() => expect(logged(error, 'batch runner liveness connection lost')).not.toEqual([]));
      await device.release();
      await r.idle(id);
      expect(logged(error, 'batch runner cannot take its liveness lock')).toEqual([
        { err: expect.any(Error) },
      ]);
      expect(await statuses(id)).toEqual(['issued', 'pending', 'pending']);
      expect(await claimsOf(id)).toEqual([{ n: 1, worker: first!.key, seqs: [1] }]);
      expect(await batchOf(id)).toMatchObject({ status: 'running' });
      expect(await livenessLocks()).toEqual([]);
    });

    it('cannot take its lock at all: the run is reported and gives its slot back', async () => {
      const id = await running(2);
      await t.db.execute(sql`insert into test_refuse_runner values (true)`);
      const error = logs('error');
      const r = make();
      expect(r.ensure(id)).toBe(true);
      await r.idle(id);
      expect(r.isActive(id)).toBe(false);
      expect(logged(error, 'batch run failed')).toEqual([{ err: expect.any(Error), batchId: id }]);
      expect(await claimsOf(id)).toEqual([]);
      await t.db.execute(sql`delete from test_refuse_runner`);
      expect(r.ensure(id)).toBe(true);
      await r.idle(id);
      expect(await batchOf(id)).toMatchObject({ status: 'done' });
    });
  });

  describe('ensure, idle, interrupt', () => {
    it(`takes ${MAX_ACTIVE_BATCHES} batches at once; idle(batchId) waits for one, idle() for all`, async () => {
      const a = await running(2);
      const b = await paper(2);
      const c = await running(1);
      const digital = await holdDevice();
      const disc = await holdDevice(f.ids.goldenMain);
      const r = make();
      expect(r.isActive(a)).toBe(false);
      expect(r.ensure(a)).toBe(true);
      expect(r.ensure(b)).toBe(true);
      expect([r.isActive(a), r.isActive(b)]).toEqual([true, true]);
      // already on it: a yes, and no second run
      expect(r.ensure(a)).toBe(true);
      // a third batch waits for a slot
      expect(r.ensure(c)).toBe(false);
      expect(r.isActive(c)).toBe(false);
      await digital.waiters(2);

      const idleA = watch(r.idle(a));
      await digital.release();
      await vi.waitFor(async () => expect((await batchOf(a)).status).toBe('done'));
      await vi.waitFor(() => expect(idleA.done).toBe(true));
      expect([r.isActive(a), r.isActive(b)]).toEqual([false, true]);
      expect(r.ensure(c)).toBe(true);

      const all = watch(r.idle());
      await r.idle(c);
      await roundTrips();
      expect(all.done).toBe(false);
      await disc.release();
      await all.promise;
      expect([r.isActive(b), r.isActive(c)]).toEqual([false, false]);
      expect((await batchOf(b)).status).toBe('done');
      expect((await batchOf(c)).status).toBe('done');
      for (const id of [a, b, c]) {
        expect((await claimsOf(id)).map((cl) => cl.n)).toEqual([(await rowsOf(id)).length]);
      }
    });

    it('interrupt: the lane stops after the row in hand and gives back the rows it did not start', async () => {
      const id = await running(4);
      const device = await holdDevice();
      const error = logs('error');
      const r = make({ claim: 4 });
      r.ensure(id);
      await device.waiters(1);
      r.interrupt(id);
      await device.release();
      await r.idle(id);
      const rows = await rowsOf(id);
      expect(rows.map((row) => [row.status, row.worker, row.attempts])).toEqual([
        ['issued', null, 1],
        ['pending', null, 1],
        ['pending', null, 1],
        ['pending', null, 1],
      ]);
      expect(rows.slice(1).map((row) => row.error_code)).toEqual([null, null, null]);
      expect(await batchOf(id)).toMatchObject({ status: 'running', finished_at: null });
      expect(r.isActive(id)).toBe(false);
      expect(error).not.toHaveBeenCalled();
      // taken up again, it goes on from there
      expect(r.ensure(id)).toBe(true);
      await r.idle(id);
      expect(await statuses(id)).toEqual(['issued', 'issued', 'issued', 'issued']);
      expect((await claimsOf(id)).map((c) => c.seqs)).toEqual([
        [1, 2, 3, 4],
        [2, 3, 4],
      ]);
    });

    it('interrupt of a cancelled batch: the rows given back are skipped as cancelled', async () => {
      const id = await running(4);
      const device = await holdDevice();
      const r = make({ claim: 4 });
      r.ensure(id);
      await device.waiters(1);
      expect((await post('cancel', id)).json.data.status).toBe('cancelled');
      r.interrupt(id);
      await device.release();
      await r.idle(id);
      const rows = await rowsOf(id);
      expect(rows.map((row) => [row.status, row.worker, row.error_code, row.error_message])).toEqual([
        ['issued', null, null, null],
        ['skipped', null, 'cancelled', '批次已取消'],
        ['skipped', null, 'cancelled', '批次已取消'],
        ['skipped', null, 'cancelled', '批次已取消'],
      ]);
      expect((await batchOf(id)).status).toBe('cancelled');
    });

    it('interrupted and taken up again before a row of its claim began: the rows go back and are claimed again as before', async () => {
      const id = await running(6);
      const error = logs('error');
      let reads = 0;
      // the runner reads its clock right after a claim: the first time, the batch is paused and
      // resumed in this process before the lane looks at its rows
      const r = make({
        now: () => {
          if (reads === 0) {
            r.interrupt(id);
            queueMicrotask(() => r.ensure(id));
          }
          return ++reads * 100;
        },
      });
      r.ensure(id);
      await r.idle(id);
      expect(await statuses(id)).toEqual(Array(6).fill('issued'));
      expect((await claimsOf(id)).map((c) => c.seqs)).toEqual([
        [1, 2, 3, 4],
        [1, 2, 3, 4],
        [5, 6],
      ]);
      expect((await rowsOf(id)).map((row) => row.attempts)).toEqual([2, 2, 2, 2, 1, 1]);
      expect(error).not.toHaveBeenCalled();
    });
  });

  describe('sweep', () => {
    it('re-queues the rows of a dead runner; leaves those of a live runner and its own', async () => {
      const own = await running(2);
      const paused = await running(4);
      expect((await post('pause', paused)).json.data.status).toBe('paused');
      await strand(paused, [1, 3]);
      await strand(paused, [2], 777);
      await aliveRunner(777);
      const device = await holdDevice();
      const info = logs('info');
      const r = make({ claim: 2 });
      r.ensure(own);
      await device.waiters(1);
      const [mine] = (await livenessLocks()).filter((l) => l.key !== 777);
      await r.sweep();
      expect((await rowsOf(paused)).map((row) => [row.status, row.worker])).toEqual([
        ['pending', null],
        ['issuing', 777],
        ['pending', null],
        ['pending', null],
      ]);
      expect((await rowsOf(own)).map((row) => [row.status, row.worker])).toEqual([
        ['issuing', mine!.key],
        ['issuing', mine!.key],
      ]);
      expect(logged(info, 'batch rows of a stopped runner re-queued')).toEqual([{ rows: 2 }]);
      await device.release();
      await r.idle(own);
      expect(await statuses(own)).toEqual(['issued', 'issued']);
    });

    it('in a cancelled batch, settles a dead runner’s row from the invoice its serial has', async () => {
      const id = await ready(3);
      expect((await post('cancel', id)).json.data.status).toBe('cancelled');
      const before = await rowsOf(id);
      const request = async (seq: number) =>
        (
          await t.db.execute<{ request: Record<string, unknown> }>(
            sql`select request from batch_rows where batch_id = ${id} and seq = ${seq}`,
          )
        ).rows[0]!.request;
      // row 1 was issued, row 3 refused by the bureau, row 2 never reached the service
      expect((await f.issue(await request(1))).json.code).toBe(0);
      await f.dev('control', { device_id: f.ids.digital, fault: 'error', fault_count: 1 });
      expect((await f.issue(await request(3))).json.code).toBe(INVOICE_CODE.CHANNEL_ERROR);
      const [issued] = await t.db.select().from(invoices).where(eq(invoices.serialNo, before[0]!.serial_no));
      const [refused] = await t.db.select().from(invoices).where(eq(invoices.serialNo, before[2]!.serial_no));
      expect(refused!.status).toBe('failed');
      await strand(id, [1, 2, 3]);
      // a batch cancelled more than a day ago is not looked at any more
      const old = await ready(1);
      await post('cancel', old);
      await strand(old, [1]);
      await t.db.execute(sql`update batches set updated_at = now() - interval '25 hours' where id = ${old}`);

      const r = make();
      await r.sweep();
      const rows = await rowsOf(id);
      expect(rows[0]).toMatchObject({
        status: 'issued',
        worker: null,
        invoice_id: issued!.id,
        invoice_code: '',
        invoice_no: issued!.invoiceNo,
        error_code: null,
        error_message: null,
      });
      expect(new Date(rows[0]!.issued_at!).getTime()).toBe(issued!.issuedAt!.getTime());
      expect(rows[1]).toMatchObject({
        status: 'skipped',
        worker: null,
        invoice_id: null,
        invoice_no: null,
        error_code: 'cancelled',
        error_message: '批次已取消',
      });
      expect(rows[2]).toMatchObject({
        status: 'failed',
        worker: null,
        invoice_id: refused!.id,
        invoice_no: null,
        error_code: 'unknown',
        error_message: UNKNOWN_MESSAGE,
      });
      expect((await rowsOf(old)).map((row) => [row.status, row.worker])).toEqual([['issuing', DEAD]]);
      expect((await batchOf(id)).status).toBe('cancelled');
    });

    it('pauses running batches whose bookkeeping service expired, resumes them once restored, and takes them', async () => {
      const id = await running(2);
      const r = make();
      await setExpiry(new Date(Date.now() - 60_000));
      await r.sweep();
      expect(await batchOf(id)).toMatchObject({ status: 'paused', pause_reason: 'bookkeeping' });
      expect(r.isActive(id)).toBe(false);
      await setExpiry(new Date(Date.now() + 86_400_000));
      await r.sweep();
      expect(r.isActive(id)).toBe(true);
      await r.idle(id);
      expect(await batchOf(id)).toMatchObject({ status: 'done', pause_reason: '' });
      expect(await statuses(id)).toEqual(['issued', 'issued']);
    });
  });

  describe('claim sizes', () => {
    it('a fixed claim takes that many rows a statement, in order, under the runner’s key', async () => {
      const id = await running(7);
      const r = make({ claim: 3 });
      r.ensure(id);
      await r.idle(id);
      const [lock] = await livenessLocks();
      expect(await claimsOf(id)).toEqual([
        { n: 3, worker: lock!.key, seqs: [1, 2, 3] },
        { n: 3, worker: lock!.key, seqs: [4, 5, 6] },
        { n: 1, worker: lock!.key, seqs: [7] },
      ]);
    });

    describe('in a process whose database answers the claimed rows in another order', () => {
      // hash joins only: the claim's update then reads batch_rows in its physical order
      let hashing: Awaited<ReturnType<typeof buildTestApp>>;
      beforeAll(async () => {
        const options = encodeURIComponent('-c enable_nestloop=off -c enable_mergejoin=off');
        hashing = await buildTestApp({
          reuse: { ...t, url: `${t.url}?options=${options}` },
          env: { KAIPIAO_ROLE: 'web' },
        });
      });

      it('a lane still issues its claim in the file’s order', async () => {
        const id = await running(6);
        // newer versions of the earlier rows: the table holds them after the later ones
        for (const s of [6, 5, 4, 3, 2, 1]) {
          await t.db.execute(
            sql`update batch_rows set updated_at = now() where batch_id = ${id} and seq = ${s}`,
          );
        }
        const r = new BatchRunner(hashing.app, { lanes: 1, sweepMs: 3_600_000, claim: 3 });
        runners.push(r);
        r.ensure(id);
        await r.idle(id);
        expect((await claimsOf(id)).map((c) => c.seqs)).toEqual([
          [1, 2, 3],
          [4, 5, 6],
        ]);
        const rows = await rowsOf(id);
        expect(rows.map((row) => row.status)).toEqual(Array(6).fill('issued'));
        const ids = rows.map((row) => row.invoice_id!);
        expect(ids).toEqual([...ids].sort((x, y) => x - y));
      });
    });

    it(`adaptive: ${CLAIM_ROWS.first} first, then rows for about ${CLAIM_TARGET_MS} ms at the rate measured`, async () => {
      // 100 ms a claim whatever its size: 25 ms a row after the first claim (10 rows next), then
      // the rate of each claim weighs 0.3 against 0.7 of what was measured before
      const id = await running(40);
      let clock = 0;
      const r = make({ now: () => (clock += 100) });
      r.ensure(id);
      await r.idle(id);
      expect((await claimsOf(id)).map((c) => c.n)).toEqual([4, 10, 12, 14]);
      expect(await statuses(id)).toEqual(Array(40).fill('issued'));
    });

    it(`adaptive: at most ${CLAIM_ROWS.max} rows, however fast the rows go`, async () => {
      const id = await running(40);
      const r = make({ now: () => 0 });
      r.ensure(id);
      await r.idle(id);
      expect((await claimsOf(id)).map((c) => c.n)).toEqual([4, 32, 4]);
    });

    it(`a slow channel: one row a claim after the first`, async () => {
      await f.dev('control', { device_id: f.ids.digital, latency_ms: 300 });
      const id = await running(6);
      const r = make();
      r.ensure(id);
      await r.idle(id);
      expect((await claimsOf(id)).map((c) => c.n)).toEqual([4, 1, 1]);
      expect(await statuses(id)).toEqual(Array(6).fill('issued'));
    });
  });

  describe('settling a batch', () => {
    it('done with finished_at once every row is issued, its invoices marked as a batch’s', async () => {
      const id = await running(3);
      const r = make();
      r.ensure(id);
      await r.idle(id);
      const b = await batchOf(id);
      expect(b).toMatchObject({ status: 'done' });
      expect(b.finished_at).not.toBeNull();
      const made = await t.db.execute<{ source: string }>(sql`
        select i.source from invoices i join batch_rows r on r.invoice_id = i.id where r.batch_id = ${id}`);
      expect(made.rows.map((m) => m.source)).toEqual(['batch', 'batch', 'batch']);
    });

    it('paused when the bookkeeping service expired during the run', async () => {
      const id = await running(4);
      const device = await holdDevice();
      const r = make({ claim: 2 });
      r.ensure(id);
      await device.waiters(1);
      await setExpiry(new Date(Date.now() - 1000));
      await device.release();
      await r.idle(id);
      expect(await statuses(id)).toEqual(['issued', 'issued', 'pending', 'pending']);
      expect(await batchOf(id)).toMatchObject({
        status: 'paused',
        pause_reason: 'bookkeeping',
        finished_at: null,
      });
    });
  });

  describe('failures', () => {
    it('a row whose issuing throws: the rows before it kept, the rest given back; 1 s pauses; three in a row end the lane', async () => {
      const id = await running(3);
      const rows = await rowsOf(id);
      await t.db.execute(sql`insert into test_fail_serials values (${rows[1]!.serial_no})`);
      const held = holdPauses();
      const error = logs('error');
      const r = make({ claim: 3 });
      r.ensure(id);
      const pausedAt = async (n: number) => {
        await vi.waitFor(() => expect(held.length).toBe(n));
        return (await rowsOf(id)).map((row) => [row.status, row.attempts]);
      };
      expect(await pausedAt(1)).toEqual([
        ['issued', 1],
        ['pending', 1],
        ['pending', 1],
      ]);
      expect(held[0]!.ms).toBe(1000);
      held[0]!.go();
      expect(await pausedAt(2)).toEqual([
        ['issued', 1],
        ['pending', 2],
        ['pending', 2],
      ]);
      held[1]!.go();
      // the third failure ends the lane: no third pause
      const third = vi.waitFor(() => expect(held.length).toBe(3), { timeout: 60_000 });
      third.catch(() => undefined);
      await Promise.race([r.idle(id), third]);
      expect(held).toHaveLength(2);
      expect(r.isActive(id)).toBe(false);
      expect((await rowsOf(id)).map((row) => [row.status, row.worker, row.attempts])).toEqual([
        ['issued', null, 1],
        ['pending', null, 3],
        ['pending', null, 3],
      ]);
      expect(logged(error, 'batch rows could not be issued')).toEqual(
        Array(3).fill({ err: expect.any(Error), batchId: id }),
      );
      expect((await batchOf(id)).status).toBe('running');
      // once the invoice can be stored, the batch ends with one invoice per row
      await t.db.execute(sql`delete from test_fail_serials`);
      r.ensure(id);
      await r.idle(id);
      expect(await statuses(id)).toEqual(['issued', 'issued', 'issued']);
      expect((await batchOf(id)).status).toBe('done');
    });

    it('a row that throws while the runner stops: the lane ends at once, without a pause', async () => {
      const id = await running(2);
      const rows = await rowsOf(id);
      await t.db.execute(sql`insert into test_fail_serials values (${rows[0]!.serial_no})`);
      const held = holdPauses();
      const device = await holdDevice();
      const r = make({ claim: 2 });
      r.ensure(id);
      await device.waiters(1);
      const stopping = r.stop();
      await device.release();
      const paused = vi.waitFor(() => expect(held.length).toBe(1), { timeout: 60_000 });
      paused.catch(() => undefined);
      await Promise.race([stopping, paused]);
      expect(held).toHaveLength(0);
      expect((await rowsOf(id)).map((row) => [row.status, row.worker])).toEqual([
        ['pending', null],
        ['pending', null],
      ]);
    });

    it('a device the service refuses: the row fails with the refusal, no invoice', async () => {
      const id = await running(1);
      await f.dev('device', { device_id: f.ids.digital, online: false });
      const r = make();
      r.ensure(id);
      await r.idle(id);
      expect((await rowsOf(id))[0]).toMatchObject({
        status: 'failed',
        invoice_id: null,
        error_code: String(INVOICE_CODE.DEVICE_OFFLINE),
        error_message: messageFor(INVOICE_CODE.DEVICE_OFFLINE),
      });
      expect((await batchOf(id)).status).toBe('done');
    });
  });

  describe('re-driving a row a dead runner left with its invoice in flight', () => {
    /** A running batch of one row claimed by a dead runner whose invoice was left `issuing`. */
    const inFlight = async (visible: boolean) => {
      const id = await ready(1);
      const [row] = await rowsOf(id);
      const request = (
        await t.db.execute<{ request: Record<string, unknown> }>(
          sql`select request from batch_rows where batch_id = ${id} and seq = 1`,
        )
      ).rows[0]!.request;
      expect((await f.issue(request)).json.code).toBe(0);
      const [inv] = await t.db.select().from(invoices).where(eq(invoices.serialNo, row!.serial_no));
      await t.db.execute(sql`
        update invoices set status = 'issuing', invoice_no = null, issued_at = null where id = ${inv!.id}`);
      if (!visible) {
        await t.db.execute(sql`
          update channel_sandbox_issues set visible_at = now() + interval '1 hour' where serial_no = ${row!.serial_no}`);
      }
      expect((await post('start', id)).json.code).toBe(0);
      await strand(id, [1]);
      return { id, inv: inv! };
    };

    it('the channel has the invoice: the row is issued with its number', async () => {
      const { id, inv } = await inFlight(true);
      const r = make();
      await r.sweep();
      await r.idle(id);
      const [row] = await rowsOf(id);
      expect(row).toMatchObject({
        status: 'issued',
        invoice_id: inv.id,
        invoice_no: inv.invoiceNo,
        error_code: null,
      });
      expect(await t.db.select().from(invoices).where(eq(invoices.id, inv.id))).toMatchObject([
        { status: 'issued', invoiceNo: inv.invoiceNo, source: 'batch' },
      ]);
    });

    it('the channel does not show it yet: the row fails as unknown, the invoice left to reconcile', async () => {
      const { id, inv } = await inFlight(false);
      const r = make();
      await r.sweep();
      await r.idle(id);
      const [row] = await rowsOf(id);
      expect(row).toMatchObject({
        status: 'failed',
        invoice_id: inv.id,
        invoice_code: '',
        invoice_no: null,
        issued_at: null,
        error_code: 'unknown',
        error_message: UNKNOWN_MESSAGE,
      });
      expect((await t.db.select().from(invoices).where(eq(invoices.id, inv.id)))[0]!.status).toBe('issuing');
      expect((await batchOf(id)).status).toBe('done');
    });
  });

  describe('a serial another process settles between the issue and its reconciliation', () => {
    /** Sessions of the test's own, each in a transaction left open (ended, so rolled back, after the test). */
    const sessions: pg.Client[] = [];
    const session = async () => {
      const c = new pg.Client(t.url);
      await c.connect();
      sessions.push(c);
      await c.query('begin');
      return c;
    };
    // before the runner's afterEach, which needs the tables these sessions may still hold
    afterEach(async () => {
      for (const c of sessions.splice(0)) await c.end();
    });
    /** Resolves once `n` statements wait for a lock on the table `rel`. */
    const queued = async (rel: string, n: number) => {
      for (let i = 0; i < 2000; i++) {
        const waiting = (
          await t.db.execute<{ n: number }>(sql`
            select count(*)::int as n from pg_locks
            where not granted and relation = ${rel}::regclass and database = (select oid from pg_database where datname = current_database())`)
        ).rows[0]!.n;
        if (waiting >= n) return;
        await new Promise((r) => setTimeout(r, 5));
      }
      throw new Error(`${n} statements never queued for ${rel}`);
    };
    /**
     * issueBatchRow on a row whose invoice a dead runner left `status`, with another session
     * settling that invoice (issued, as the bureau has it) right after issueBlue read it and before
     * the reconciliation selects it — a real interleaving, held at table locks: issueBlue's claim
     * statement waits at the stock ranges (the invoices table held by it), a second session queues
     * for the invoices table behind it and so holds issueBlue's last read of the invoice, and a
     * third queues behind that read and settles the invoice before the reconciliation may read.
     */
    const settledMeanwhile = async (status: 'issuing' | 'unknown') => {
      const id = await ready(1);
      const row = (
        await t.db.execute<Omit<ClaimedRow, 'worker'>>(sql`
          select r.batch_id, r.seq, r.serial_no, r.request, b.client_id, b.store_id, b.created_by
          from batch_rows r join batches b on b.id = r.batch_id where r.batch_id = ${id}`)
      ).rows[0]!;
      expect((await f.issue(row.request)).json.code).toBe(0);
      const [inv] = await t.db.select().from(invoices).where(eq(invoices.serialNo, row.serial_no));
      await t.db.execute(sql`
        update invoices set status = ${status}, invoice_no = null, issued_at = null where id = ${inv!.id}`);

      const stock = await session();
      await stock.query('lock table channel_number_ranges in access exclusive mode');
      const issued = watch(issueBatchRow(t.app, { ...row, worker: DEAD }));
      await queued('channel_number_ranges', 1);
      const first = await session();
      const firstHeld = first.query('lock table invoices in access exclusive mode');
      await queued('invoices', 1);
      await stock.query('commit');
      await firstHeld;
      // issueBlue has read the serial's invoice (issuing or unknown) and reads it once more
      await queued('invoices', 1);
      const settler = await session();
      const settlerHeld = settler.query('lock table invoices in access exclusive mode');
      await queued('invoices', 2);
      expect(issued.done).toBe(false);
      await first.query('commit');
      await settlerHeld;
      await settler.query(
        "update invoices set status = 'issued', invoice_no = $1, issued_at = $2 where id = $3",
        [inv!.invoiceNo, inv!.issuedAt, inv!.id],
      );
      await settler.query('commit');
      return { outcome: await issued.promise, inv: inv! };
    };

    it('an `issuing` answer: reconciliation finds nothing to settle, the row keeps the answer (unknown)', async () => {
      const { outcome, inv } = await settledMeanwhile('issuing');
      expect(outcome).toEqual({
        status: 'failed',
        invoiceId: inv.id,
        invoiceCode: '',
        invoiceNo: null,
        issuedAt: null,
        errorCode: 'unknown',
        errorMessage: UNKNOWN_MESSAGE,
      });
    });

    it('an `unknown` answer (time-out): reconciliation finds nothing to settle, the row fails with the time-out', async () => {
      const { outcome, inv } = await settledMeanwhile('unknown');
      expect(outcome).toEqual({
        status: 'failed',
        invoiceId: inv.id,
        invoiceCode: '',
        invoiceNo: null,
        issuedAt: null,
        errorCode: String(INVOICE_CODE.CHANNEL_TIMEOUT),
        errorMessage: messageFor(INVOICE_CODE.CHANNEL_TIMEOUT),
      });
    });
  });
});
