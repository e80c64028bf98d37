import { createHash } from 'node:crypto';
import { BATCH_CODE, CODE, hiddenCharMessage, INVOICE_CODE, messageFor } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { batchFiles, type SendOpts } from '../../../test/fixtures/batch-uploads.ts';
import { type CellMap, fillTemplate, invoiceRow, lineRow } from '../../../test/fixtures/batches.ts';
import { type Fixture, invoicingFixture } from '../../../test/fixtures/invoices.ts';
import { buildTestApp, call, DEMO } from '../../../test/helper.ts';
import { raceBehindLock } from '../../../test/race.ts';
import { download } from '../../../test/xlsx-helpers.ts';
import { AppError } from '../../lib/app-error.ts';
import { seedDemoTrusteeship } from '../../seed/trusteeship.ts';
import * as service from './service.ts';

type State = 'ready' | 'running' | 'paused' | 'done' | 'cancelled';
type Action = 'start' | 'pause' | 'resume' | 'cancel' | 'retry';
type RowState = 'pending' | 'issuing' | 'issued' | 'failed' | 'skipped';

const STATES: State[] = ['ready', 'running', 'paused', 'done', 'cancelled'];
const ACTIONS: Action[] = ['start', 'pause', 'resume', 'cancel', 'retry'];

/** What service.ts lets each action start from (a retry also needs failed rows). */
const ALLOWED: Record<Action, State[]> = {
  start: ['ready'],
  pause: ['running'],
  resume: ['paused'],
  cancel: ['ready', 'running', 'paused'],
  retry: ['done', 'paused', 'running'],
};

/** The rows of a 3-invoice batch in each state (a ready batch has failed rows only to refuse a retry). */
const ROWS: Record<State, RowState[]> = {
  ready: ['pending', 'pending', 'pending'],
  running: ['issued', 'failed', 'pending'],
  paused: ['issued', 'failed', 'pending'],
  done: ['issued', 'failed', 'issued'],
  cancelled: ['issued', 'failed', 'skipped'],
};
const rowsFor = (state: State, action: Action): RowState[] =>
  state === 'ready' && action === 'retry' ? ['pending', 'failed', 'pending'] : ROWS[state];

const BAD_STATE = { code: BATCH_CODE.BAD_STATE, message: messageFor(BATCH_CODE.BAD_STATE), data: null };
/** A timestamp (the driver answers text, the API ISO strings) in milliseconds. */
const ms = (v: string | Date | null) => (v === null ? Number.NaN : new Date(v).getTime());
const QUOTA_MSG = '剩余发票额度或库存不足以开具本批发票';

type BatchSnap = {
  status: string;
  pause_reason: string;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
};
type RowSnap = {
  seq: number;
  status: string;
  worker: number | null;
  attempts: number;
  invoice_id: number | string | null;
  error_code: string | null;
  error_message: string | null;
  updated_at: string;
};

/**
 * The state machine of a batch (batches/service.ts): which of start / pause / resume / cancel /
 * retry each state takes, what each changes, and that every refusal — a wrong state, another
 * business's batch, a device that cannot issue, a quota or stock too small, an upload to a device
 * the store may not use — leaves the batch and its rows exactly as they were.
 */
describe('batch states and refusals', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  let template: Buffer;
  let seq = 0;

  beforeAll(async () => {
    t = await buildTestApp();
    f = await invoicingFixture(t.app, t.db);
    // The runner's periodic sweep hands every `running` batch to a lane: a batch put in `running`
    // by SQL below would be issued by it at a random moment. Only the kicks of the routes (and the
    // tests' own idle()) drive the runner in this file.
    const runner = t.app.batchRunner as unknown as { timer: NodeJS.Timeout | null };
    expect(runner.timer).not.toBeNull();
    clearInterval(runner.timer!);
    template = (
      await download(t.app, `/v3/batch-invoice/template?${f.scope(f.ids.software, f.ids.hq)}`, f.admin)
    ).body;
  });

  const scope = (clientId = f.ids.software, sid = f.ids.hq) => f.scope(clientId, sid);
  const post = (action: string, batchId: number, clientId = f.ids.software, sid = f.ids.hq) =>
    call(t.app, 'POST', `/v3/batch-invoice/${action}?${scope(clientId, sid)}`, {
      token: f.admin,
      body: { batch_id: batchId },
    });

  /** A file of invoices (one line of 1,060.00 incl. 6% each: 1,000.00 + 60.00 tax). */
  const file = (
    n: number,
    inv: (i: number) => CellMap = () => ({}),
    line: (i: number) => CellMap = () => ({}),
  ) => {
    const p = `ST${++seq}x`;
    const invoices: CellMap[] = [];
    const lines: CellMap[] = [];
    for (let i = 1; i <= n; i++) {
      invoices.push(invoiceRow(`${p}${i}`, inv(i)));
      lines.push(lineRow(`${p}${i}`, line(i)));
    }
    return fillTemplate(template, invoices, lines);
  };
  const uploads = batchFiles(
    () => t,
    () => f,
    'SU',
  );
  const send = (content: Buffer, o: SendOpts = {}) => uploads.send(content, o);
  /** Uploads a ready batch of `n` 电子发票（普通发票） on the 数电 account at 文三路总部: its id. */
  const newBatch = async (n = 3) => {
    const res = await send(await file(n));
    expect(res.json.code, res.json.message).toBe(0);
    expect(res.json.data.status).toBe('ready');
    return res.json.data.batch_id as number;
  };
  /** A ready batch of the hotel (small-scale: 1% lodging) at 北山街店 on its 数电 account. */
  const hotelBatch = async () => {
    const res = await send(
      await file(
        2,
        () => ({}),
        () => ({ 项目名称: '住宿费', 税收分类编码: '3070402000000000000', 单位: '天', 税率: '1%' }),
      ),
      { clientId: f.ids.hotel, sid: f.ids.bs, device: f.ids.hotelDigital },
    );
    expect(res.json.code, JSON.stringify(res.json)).toBe(0);
    return res.json.data.batch_id as number;
  };

  /** Puts a batch in a state with the rows given (by seq), the way a run would have left them. */
  const setState = async (id: number, state: State, rows: readonly RowState[]) => {
    for (const [i, s] of rows.entries()) {
      await t.db.execute(sql`
        update batch_rows set status = ${s}::text,
          attempts = case when ${s}::text in ('issued', 'failed') then 1 else 0 end,
          error_code = case ${s}::text when 'failed' then '70001' when 'skipped' then 'cancelled' end,
          error_message = case ${s}::text when 'failed' then '税局系统繁忙' when 'skipped' then '批次已取消' end
        where batch_id = ${id} and seq = ${i + 1}`);
    }
    await t.db.execute(sql`
      update batches set status = ${state}::text,
        pause_reason = case when ${state}::text = 'paused' then 'user' else '' end,
        started_at = case when ${state}::text = 'ready' then null else now() - interval '1 hour' end,
        finished_at = case when ${state}::text in ('done', 'cancelled') then now() - interval '30 minutes' end
      where id = ${id}`);
  };

  const batchSnap = async (id: number) =>
    (
      await t.db.execute<BatchSnap>(
        sql`select status, pause_reason, started_at, finished_at, updated_at from batches where id = ${id}`,
      )
    ).rows[0]!;
  const rowSnap = async (id: number) =>
    (
      await t.db.execute<RowSnap>(sql`
        select seq, status, worker, attempts, invoice_id, error_code, error_message, updated_at
        from batch_rows where batch_id = ${id} order by seq`)
    ).rows;
  const snapshot = async (id: number) => ({ batch: await batchSnap(id), rows: await rowSnap(id) });
  const count = async (table: 'batches' | 'batch_rows') =>
    Number(
      (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table)}`))
        .rows[0]!.n,
    );
  const invoicesOf = async (id: number) =>
    Number(
      (
        await t.db.execute<{ n: number }>(
          sql`select count(*)::int as n from invoices where serial_no like ${`B${String(id).padStart(6, '0')}-%`} and status = 'issued'`,
        )
      ).rows[0]!.n,
    );
  /** The code an AppError-throwing call fails with. */
  const failure = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    return { code: (err as AppError).code, message: (err as AppError).message };
  };

  describe('every action against every state', () => {
    const pairs = STATES.flatMap((state) => ACTIONS.map((action) => ({ state, action })));

    it.each(pairs.filter((p) => !ALLOWED[p.action].includes(p.state)))(
      '$action of a $state batch: 17010, nothing changed',
      async ({ state, action }) => {
        const id = await newBatch();
        await setState(id, state, rowsFor(state, action));
        const before = await snapshot(id);
        const res = await post(action, id);
        expect(res.json).toEqual(BAD_STATE);
        await t.app.batchRunner!.idle(id);
        expect(t.app.batchRunner!.isActive(id)).toBe(false);
        expect(await snapshot(id)).toEqual(before);
        expect(await invoicesOf(id)).toBe(0);
      },
    );

    it('start of a ready batch: running from now, then every row issued and the batch done', async () => {
      const id = await newBatch();
      const before = await snapshot(id);
      expect(before.batch).toMatchObject({ status: 'ready', started_at: null, finished_at: null });
      const t0 = Date.now();
      const res = await post('start', id);
      expect(res.json.code, res.json.message).toBe(0);
      expect(res.json.data).toMatchObject({
        batch_id: id,
        status: 'running',
        pause_reason: '',
        finished_at: null,
        total: 3,
        failed: 0,
        skipped: 0,
      });
      expect(new Date(res.json.data.started_at).getTime()).toBeGreaterThanOrEqual(t0 - 5000);
      await t.app.batchRunner!.idle(id);
      const after = await snapshot(id);
      expect(after.batch).toMatchObject({ status: 'done', pause_reason: '' });
      expect(ms(after.batch.started_at)).toBe(ms(res.json.data.started_at));
      expect(after.batch.finished_at).not.toBeNull();
      expect(after.rows.map((r) => r.status)).toEqual(['issued', 'issued', 'issued']);
      expect(after.rows.every((r) => r.invoice_id !== null)).toBe(true);
      expect(await invoicesOf(id)).toBe(3);
    });

    it('pause of a running batch: paused by the user, the rows untouched', async () => {
      const id = await newBatch();
      await setState(id, 'running', ROWS.running);
      const before = await snapshot(id);
      const res = await post('pause', id);
      expect(res.json.code, res.json.message).toBe(0);
      expect(res.json.data).toMatchObject({
        batch_id: id,
        status: 'paused',
        pause_reason: 'user',
        finished_at: null,
        issued: 1,
        failed: 1,
        pending: 1,
      });
      await t.app.batchRunner!.idle(id);
      const after = await snapshot(id);
      expect(after.batch).toMatchObject({
        status: 'paused',
        pause_reason: 'user',
        started_at: before.batch.started_at,
        finished_at: null,
      });
      expect(after.rows).toEqual(before.rows);
      expect(await invoicesOf(id)).toBe(0);
    });

    it('resume of a paused batch: running again, the pending row issued, the failed one left failed', async () => {
      const id = await newBatch();
      await setState(id, 'paused', ROWS.paused);
      const before = await snapshot(id);
      const res = await post('resume', id);
      expect(res.json.code, res.json.message).toBe(0);
      expect(res.json.data).toMatchObject({
        batch_id: id,
        status: 'running',
        pause_reason: '',
        finished_at: null,
      });
      expect(new Date(res.json.data.started_at).getTime()).toBe(ms(before.batch.started_at));
      await t.app.batchRunner!.idle(id);
      const after = await snapshot(id);
      expect(after.batch).toMatchObject({
        status: 'done',
        pause_reason: '',
        started_at: before.batch.started_at,
      });
      expect(after.rows.map((r) => r.status)).toEqual(['issued', 'failed', 'issued']);
      expect(after.rows[0]).toEqual(before.rows[0]);
      expect(after.rows[1]).toEqual(before.rows[1]);
      expect(after.rows[2]!.invoice_id).not.toBeNull();
      expect(await invoicesOf(id)).toBe(1);
    });

    it.each(ALLOWED.cancel)(
      'cancel of a %s batch: pending rows skipped, issued and failed ones kept',
      async (state) => {
        const id = await newBatch();
        await setState(id, state, ROWS[state]);
        const before = await snapshot(id);
        const t0 = Date.now();
        const res = await post('cancel', id);
        expect(res.json.code, res.json.message).toBe(0);
        const settled = state === 'ready' ? { issued: 0, failed: 0 } : { issued: 1, failed: 1 };
        expect(res.json.data).toMatchObject({
          batch_id: id,
          status: 'cancelled',
          pause_reason: '',
          pending: 0,
          issuing: 0,
          skipped: state === 'ready' ? 3 : 1,
          ...settled,
        });
        expect(new Date(res.json.data.finished_at).getTime()).toBeGreaterThanOrEqual(t0 - 5000);
        await t.app.batchRunner!.idle(id);
        const after = await snapshot(id);
        expect(after.batch).toMatchObject({
          status: 'cancelled',
          pause_reason: '',
          started_at: before.batch.started_at,
        });
        expect(ms(after.batch.finished_at)).toBe(ms(res.json.data.finished_at));
        before.rows.forEach((b, i) => {
          const a = after.rows[i]!;
          if (b.status === 'pending') {
            expect(a).toMatchObject({
              status: 'skipped',
              error_code: 'cancelled',
              error_message: '批次已取消',
              worker: null,
              attempts: 0,
              invoice_id: null,
            });
          } else {
            expect(a).toEqual(b);
          }
        });
        expect(await invoicesOf(id)).toBe(0);
      },
    );

    it.each(ALLOWED.retry)(
      'retry of a %s batch with a failed row: running, the row issued again',
      async (state) => {
        const id = await newBatch();
        await setState(id, state, ROWS[state]);
        const before = await snapshot(id);
        const res = await post('retry', id);
        expect(res.json.code, res.json.message).toBe(0);
        expect(res.json.data).toMatchObject({
          batch_id: id,
          status: 'running',
          pause_reason: '',
          finished_at: null,
          failed: 0,
          total: 3,
        });
        await t.app.batchRunner!.idle(id);
        const after = await snapshot(id);
        expect(after.batch).toMatchObject({
          status: 'done',
          pause_reason: '',
          started_at: before.batch.started_at,
        });
        expect(after.batch.finished_at).not.toBeNull();
        expect(after.rows.map((r) => r.status)).toEqual(['issued', 'issued', 'issued']);
        // the row issued before (by SQL: no invoice) is left alone; the failed one went through again
        expect(after.rows[0]).toEqual(before.rows[0]);
        expect(after.rows[1]).toMatchObject({
          attempts: 2,
          error_code: null,
          error_message: null,
          worker: null,
        });
        expect(after.rows[1]!.invoice_id).not.toBeNull();
        if (state === 'done') expect(after.rows[2]).toEqual(before.rows[2]);
        expect(await invoicesOf(id)).toBe(state === 'done' ? 1 : 2);
      },
    );

    it.each([
      ['running', ['issued', 'pending', 'skipped']],
      ['paused', ['issued', 'pending', 'pending']],
      ['done', ['issued', 'issued', 'skipped']],
    ] as [State, RowState[]][])(
      'retry of a %s batch without failed rows: 17013, nothing changed',
      async (state, rows) => {
        const id = await newBatch();
        await setState(id, state, rows);
        const before = await snapshot(id);
        const res = await post('retry', id);
        expect(res.json).toEqual({
          code: BATCH_CODE.NOTHING_TO_RETRY,
          message: '该批次没有开具失败的发票',
          data: null,
        });
        await t.app.batchRunner!.idle(id);
        expect(t.app.batchRunner!.isActive(id)).toBe(false);
        expect(await snapshot(id)).toEqual(before);
      },
    );
  });

  describe('two requests at once: the second finds the state changed', () => {
    it.each([
      ['start', 'ready', 'running'],
      ['resume', 'paused', 'running'],
      ['cancel', 'paused', 'cancelled'],
    ] as [Action, State, string][])(
      '%s twice on a %s batch: one %s, the other 17010',
      async (action, state, to) => {
        const id = await newBatch(1);
        await setState(id, state, ['pending']);
        // both read the batch as it was, then queue at the update of its row
        const answers = await raceBehindLock({
          url: t.url,
          lock: 'select id from batches where id = $1 for update',
          params: [id],
          calls: [() => post(action, id), () => post(action, id)],
        });
        await t.app.batchRunner!.idle(id);
        const codes = answers.map((a) => a.json.code).sort((a, b) => a - b);
        expect(codes).toEqual([0, BATCH_CODE.BAD_STATE]);
        expect(answers.find((a) => a.json.code === 0)!.json.data.status).toBe(to);
        expect(answers.find((a) => a.json.code !== 0)!.json).toEqual(BAD_STATE);
        const after = await snapshot(id);
        if (action === 'cancel') {
          expect(after.batch.status).toBe('cancelled');
          expect(after.rows.map((r) => r.status)).toEqual(['skipped']);
          expect(await invoicesOf(id)).toBe(0);
        } else {
          // one run issued the row once
          expect(after.batch.status).toBe('done');
          expect(after.rows.map((r) => [r.status, r.attempts])).toEqual([['issued', 1]]);
          expect(await invoicesOf(id)).toBe(1);
        }
      },
    );
  });

  describe('a retry and a cancel at once', () => {
    it('a retry that finds the batch cancelled under it puts nothing back in the queue', async () => {
      const id = await newBatch(2);
      await setState(id, 'done', ['issued', 'failed']);
      const before = await snapshot(id);
      // a cancel holds the batch's row (not yet committed) while the retry reads it as done and
      // queues its failed row, then waits at the batch's status change; the cancel commits first
      const { holdLock } = await import('../../../test/race.ts');
      const cancel = await holdLock(
        t.url,
        "update batches set status = 'cancelled', finished_at = now() where id = $1 returning id",
        [id],
      );
      const retry = post('retry', id);
      await cancel.waiters(1);
      await cancel.release();
      expect((await retry).json).toEqual(BAD_STATE);
      await t.app.batchRunner!.idle(id);
      const after = await snapshot(id);
      expect(after.batch.status).toBe('cancelled');
      expect(after.rows).toEqual(before.rows);
    });
  });

  describe("the service's own calls (no runner): what they hand to it", () => {
    it('start, resume and retry hand the batch to the runner once; a refusal does not', async () => {
      const kick = vi.fn();
      const id = await newBatch();
      const started = await service.startBatch(t.app, f.ids.software, id, kick);
      expect(started).toMatchObject({ batch_id: id, status: 'running', pending: 3 });
      expect(kick.mock.calls).toEqual([[id]]);
      expect((await rowSnap(id)).map((r) => r.status)).toEqual(['pending', 'pending', 'pending']);

      kick.mockClear();
      expect(await failure(service.startBatch(t.app, f.ids.software, id, kick))).toEqual({
        code: BATCH_CODE.BAD_STATE,
        message: messageFor(BATCH_CODE.BAD_STATE),
      });
      expect(await failure(service.resumeBatch(t.app, f.ids.software, id, kick))).toMatchObject({
        code: BATCH_CODE.BAD_STATE,
      });
      expect(await failure(service.retryFailed(t.app, f.ids.software, id, kick))).toMatchObject({
        code: BATCH_CODE.NOTHING_TO_RETRY,
      });
      expect(kick).not.toHaveBeenCalled();

      expect(await service.pauseBatch(t.app, f.ids.software, id)).toMatchObject({
        status: 'paused',
        pause_reason: 'user',
      });
      const resumed = await service.resumeBatch(t.app, f.ids.software, id, kick);
      expect(resumed).toMatchObject({ status: 'running', pause_reason: '' });
      expect(kick.mock.calls).toEqual([[id]]);

      // a failed row of a running batch, as a lane leaves it
      await t.db.execute(sql`
        update batch_rows set status = 'failed', worker = 4242, attempts = 1, error_code = '70001',
          error_message = '税局系统繁忙', updated_at = now() - interval '1 hour'
        where batch_id = ${id} and seq = 2`);
      const rowsBefore = await rowSnap(id);
      kick.mockClear();
      const retried = await service.retryFailed(t.app, f.ids.software, id, kick);
      expect(retried).toMatchObject({ status: 'running', pending: 3, failed: 0 });
      expect(kick.mock.calls).toEqual([[id]]);
      const rowsAfter = await rowSnap(id);
      expect(rowsAfter[1]).toMatchObject({
        status: 'pending',
        worker: null,
        attempts: 1,
        error_code: null,
        error_message: null,
      });
      expect(ms(rowsAfter[1]!.updated_at)).toBeGreaterThan(ms(rowsBefore[1]!.updated_at));
      expect(rowsAfter[0]).toEqual(rowsBefore[0]);
      expect(rowsAfter[2]).toEqual(rowsBefore[2]);

      expect(await service.cancelBatch(t.app, f.ids.software, id)).toMatchObject({
        status: 'cancelled',
        skipped: 3,
      });
      expect(t.app.batchRunner!.isActive(id)).toBe(false);
    });

    it('a retry of a done batch reopens it: finished_at cleared, the failed rows queued', async () => {
      const kick = vi.fn();
      const id = await newBatch();
      await setState(id, 'done', ['issued', 'failed', 'failed']);
      const res = await service.retryFailed(t.app, f.ids.software, id, kick);
      expect(res).toMatchObject({ status: 'running', finished_at: null, issued: 1, pending: 2, failed: 0 });
      expect(kick.mock.calls).toEqual([[id]]);
      expect((await batchSnap(id)).finished_at).toBeNull();
      await service.cancelBatch(t.app, f.ids.software, id);
      expect((await rowSnap(id)).map((r) => r.status)).toEqual(['issued', 'skipped', 'skipped']);
    });
  });

  describe('what is checked first', () => {
    const expire = (on: boolean) =>
      t.db.execute(sql`
        update orgs set bookkeeping_expires_at = ${on ? sql`now() - interval '1 minute'` : sql`null`}
        where id = (select org_id from clients where id = ${f.ids.software})`);
    const GRAY = {
      code: BATCH_CODE.BOOKKEEPING_EXPIRED,
      message: messageFor(BATCH_CODE.BOOKKEEPING_EXPIRED),
      data: null,
    };

    it('the state before the bookkeeping service and the device; the service before the device', async () => {
      const ready = await newBatch(2);
      const running = await newBatch(2);
      await setState(running, 'running', ['pending', 'pending']);
      const cancelled = await newBatch(2);
      await setState(cancelled, 'cancelled', ['failed', 'skipped']);
      const done = await newBatch(2);
      await setState(done, 'done', ['issued', 'failed']);
      const before = {
        ready: await snapshot(ready),
        running: await snapshot(running),
        cancelled: await snapshot(cancelled),
        done: await snapshot(done),
      };
      await f.dev('device', { device_id: f.ids.digital, online: false });
      try {
        // a batch in the wrong state is refused for its state, whatever else is wrong
        expect((await post('start', running)).json).toEqual(BAD_STATE);
        await expire(true);
        expect((await post('start', running)).json).toEqual(BAD_STATE);
        expect((await post('resume', ready)).json).toEqual(BAD_STATE);
        expect((await post('retry', cancelled)).json).toEqual(BAD_STATE);
        // in the right state: the expired service is said before the offline device
        expect((await post('start', ready)).json).toEqual(GRAY);
        expect((await post('retry', done)).json).toEqual(GRAY);
        // and before anything about the device or the file on upload
        const batches = await count('batches');
        expect((await send(await file(1), { device: f.ids.hotelDigital })).json).toEqual(GRAY);
        expect(await count('batches')).toBe(batches);
        expect(await snapshot(ready)).toEqual(before.ready);
        expect(await snapshot(running)).toEqual(before.running);
        expect(await snapshot(cancelled)).toEqual(before.cancelled);
        expect(await snapshot(done)).toEqual(before.done);
      } finally {
        await expire(false);
        await f.dev('device', { device_id: f.ids.digital, online: true });
      }
      for (const id of [ready, running]) expect((await post('cancel', id)).json.code).toBe(0);
    });
  });

  describe("another business's batch", () => {
    it('every action answers 17001 and leaves it as it was, in the state that action would take', async () => {
      const id = await hotelBatch();
      const enabling: Record<Action, [State, RowState[]]> = {
        start: ['ready', ['pending', 'pending']],
        pause: ['running', ['issued', 'pending']],
        resume: ['paused', ['issued', 'pending']],
        cancel: ['ready', ['pending', 'pending']],
        retry: ['done', ['issued', 'failed']],
      };
      const notFound = { code: BATCH_CODE.NOT_FOUND, message: messageFor(BATCH_CODE.NOT_FOUND) };
      const kick = vi.fn();
      for (const action of ACTIONS) {
        const [state, rows] = enabling[action];
        await setState(id, state, rows);
        const before = await snapshot(id);
        // through the routes, at the other business's store
        const res = await post(action, id);
        expect(res.json, action).toEqual({ ...notFound, data: null });
        // and the service itself, asked for the software company's batch of that id
        const direct = {
          start: () => service.startBatch(t.app, f.ids.software, id, kick),
          pause: () => service.pauseBatch(t.app, f.ids.software, id),
          resume: () => service.resumeBatch(t.app, f.ids.software, id, kick),
          cancel: () => service.cancelBatch(t.app, f.ids.software, id),
          retry: () => service.retryFailed(t.app, f.ids.software, id, kick),
        }[action];
        expect(await failure(direct()), action).toEqual(notFound);
        expect(await snapshot(id), action).toEqual(before);
      }
      expect(await failure(service.dryRun(t.app, f.ids.software, id))).toEqual(notFound);
      expect(await failure(service.batchProgress(t.app, f.ids.software, id))).toEqual(notFound);
      expect(kick).not.toHaveBeenCalled();
      expect(t.app.batchRunner!.isActive(id)).toBe(false);

      // its own business may act on it
      await setState(id, 'ready', ['pending', 'pending']);
      const own = await post('cancel', id, f.ids.hotel, f.ids.bs);
      expect(own.json.code, own.json.message).toBe(0);
      expect(own.json.data).toMatchObject({ batch_id: id, status: 'cancelled', skipped: 2 });
    });
  });

  describe('upload refusals: no batch stored', () => {
    const refusedUpload = async (
      content: Promise<Buffer>,
      o: Parameters<typeof send>[1],
      expected: { code: number; message: string },
    ) => {
      const buf = await content;
      const [batches, rows] = [await count('batches'), await count('batch_rows')];
      const res = await send(buf, o);
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ ...expected, data: null });
      expect(await count('batches')).toBe(batches);
      expect(await count('batch_rows')).toBe(rows);
    };
    const err = (code: number) => ({ code, message: messageFor(code) });

    it('a device of another business: 13100', async () => {
      await refusedUpload(file(1), { device: f.ids.hotelDigital }, err(INVOICE_CODE.DEVICE_NOT_FOUND));
    });

    it('a device of this business not bound to the store: 13101', async () => {
      await refusedUpload(
        file(1, () => ({ 发票种类: '增值税普通发票' })),
        { device: f.ids.goldenBranch, type: '007' },
        err(INVOICE_CODE.DEVICE_NOT_BOUND),
      );
    });

    it('a hosted device granted to another store: 13101 here, taken at the store it is granted to', async () => {
      // the demo's hosted 税控盘: bound to no store, granted to 上海分部
      await seedDemoTrusteeship(t.db, DEMO);
      const hosted = Number(
        (
          await t.db.execute<{ id: number }>(
            sql`select d.id from tax_devices d join trusteeship_grants g on g.device_id = d.id
                where d.client_id = ${f.ids.software} and g.store_id = ${f.ids.sh} order by d.id limit 1`,
          )
        ).rows[0]!.id,
      );
      const content = () => file(1, () => ({ 发票种类: '增值税电子普通发票' }));
      await refusedUpload(content(), { device: hosted, type: '026' }, err(INVOICE_CODE.DEVICE_NOT_BOUND));
      const ok = await send(await content(), { device: hosted, type: '026', sid: f.ids.sh });
      expect(ok.json.code, JSON.stringify(ok.json)).toBe(0);
      expect(ok.json.data).toMatchObject({
        status: 'ready',
        store_id: f.ids.sh,
        device: { device_id: hosted },
      });
      const cancelled = await post('cancel', ok.json.data.batch_id, f.ids.software, f.ids.sh);
      expect(cancelled.json.data.status).toBe('cancelled');
    });

    it('a disabled device: 13105', async () => {
      await t.db.execute(sql`update tax_devices set status = 'disabled' where id = ${f.ids.digital}`);
      try {
        await refusedUpload(file(1), {}, err(INVOICE_CODE.DEVICE_DISABLED));
      } finally {
        await t.db.execute(sql`update tax_devices set status = 'active' where id = ${f.ids.digital}`);
      }
    });

    it('a kind the device cannot issue: 13102', async () => {
      await refusedUpload(
        file(1),
        { device: f.ids.ukey, type: '82' },
        err(INVOICE_CODE.DEVICE_TYPE_UNSUPPORTED),
      );
    });

    it('a file name with a hidden character: a validation error naming 文件名', async () => {
      await refusedUpload(
        file(1),
        { filename: 'a\u200b.xlsx' },
        { code: CODE.VALIDATION, message: hiddenCharMessage('文件名') },
      );
      expect(hiddenCharMessage('文件名')).toBe('文件名含有不可见或控制字符，请删除后重新输入');
    });

    it('a clean upload stores the batch: name cut to 200 characters, the file digest, the totals', async () => {
      const buf = await file(2);
      const name = `${'批'.repeat(240)}.xlsx`;
      const before = await count('batches');
      const res = await send(buf, { filename: name, email: '1' });
      expect(res.json.code, res.json.message).toBe(0);
      expect(await count('batches')).toBe(before + 1);
      expect(res.json.data).toMatchObject({
        status: 'ready',
        file_name: name.slice(0, 200),
        source_count: 2,
        invoice_count: 2,
        line_count: 2,
        split_sources: 0,
        total_amount: '2000.00',
        total_tax: '120.00',
        total_with_tax: '2120.00',
        send_email: true,
      });
      const [b] = (
        await t.db.execute<{ file_name: string; file_sha256: string; store_id: number; device_id: number }>(
          sql`select file_name, file_sha256, store_id, device_id from batches where id = ${res.json.data.batch_id}`,
        )
      ).rows;
      expect(b).toEqual({
        file_name: name.slice(0, 200),
        file_sha256: createHash('sha256').update(buf).digest('hex'),
        store_id: f.ids.hq,
        device_id: f.ids.digital,
      });
      const serials = (await rowSnap(res.json.data.batch_id)).map((r) => r.seq);
      expect(serials).toEqual([1, 2]);
      await post('cancel', res.json.data.batch_id);
    });
  });

  describe('start refusals: the batch stays ready', () => {
    /** Starts and expects the refusal; the batch and its rows as they were, nothing issued. */
    const refusedStart = async (id: number, expected: { code: number; message: string }) => {
      const before = await snapshot(id);
      const res = await post('start', id);
      expect(res.json).toEqual({ ...expected, data: null });
      await t.app.batchRunner!.idle(id);
      expect(t.app.batchRunner!.isActive(id)).toBe(false);
      expect(await snapshot(id)).toEqual(before);
      expect(before.batch.status).toBe('ready');
      expect(await invoicesOf(id)).toBe(0);
    };
    const err = (code: number) => ({ code, message: messageFor(code) });
    const dryRun = async (id: number) =>
      (await call(t.app, 'GET', `/v3/batch-invoice/dry-run?${scope()}&batch_id=${id}`, { token: f.admin }))
        .json.data;

    it('the device offline: 13103', async () => {
      const id = await newBatch(1);
      await f.dev('device', { device_id: f.ids.digital, online: false });
      try {
        expect((await dryRun(id)).device).toMatchObject({ online: false, locked: false });
        await refusedStart(id, err(INVOICE_CODE.DEVICE_OFFLINE));
        // offline and locked: offline is said first
        await f.dev('device', { device_id: f.ids.digital, locked: true });
        await refusedStart(id, err(INVOICE_CODE.DEVICE_OFFLINE));
      } finally {
        await f.dev('device', { device_id: f.ids.digital, online: true, locked: false });
      }
      await post('cancel', id);
    });

    it('the device locked: 13104', async () => {
      const id = await newBatch(1);
      await f.dev('device', { device_id: f.ids.digital, locked: true });
      try {
        expect((await dryRun(id)).device).toMatchObject({ online: true, locked: true });
        await refusedStart(id, err(INVOICE_CODE.DEVICE_LOCKED));
      } finally {
        await f.dev('device', { device_id: f.ids.digital, locked: false });
      }
      await post('cancel', id);
    });

    it('数电 quota: the rows still to issue against what is left this month; enough when equal', async () => {
      // three invoices of 1,000.00 before tax; the first already issued: 2,000.00 to go
      const id = await newBatch(3);
      await setState(id, 'ready', ['issued', 'failed', 'pending']);
      const quota = (monthly: string | null, used: string) =>
        f.dev('device', { device_id: f.ids.digital, monthly_quota: monthly, quota_used: used });
      try {
        await quota('2500.00', '600.00');
        expect((await dryRun(id)).quota).toEqual({
          kind: 'quota',
          needed: '2000.00',
          remaining: '1900.00',
          enough: false,
          stock: [],
        });
        await refusedStart(id, {
          code: BATCH_CODE.QUOTA_INSUFFICIENT,
          message: `${QUOTA_MSG}（本批需 2000.00 元，本月剩余 1900.00 元）`,
        });
        // used beyond the quota: nothing left, not a negative amount
        await quota('2500.00', '3000.00');
        expect((await dryRun(id)).quota).toMatchObject({ remaining: '0.00', enough: false });
        await refusedStart(id, {
          code: BATCH_CODE.QUOTA_INSUFFICIENT,
          message: `${QUOTA_MSG}（本批需 2000.00 元，本月剩余 0.00 元）`,
        });
        // 0.01 short
        await quota('2500.00', '500.01');
        await refusedStart(id, {
          code: BATCH_CODE.QUOTA_INSUFFICIENT,
          message: `${QUOTA_MSG}（本批需 2000.00 元，本月剩余 1999.99 元）`,
        });
        // no quota set: unlimited
        await quota(null, '0.00');
        expect((await dryRun(id)).quota).toEqual({
          kind: 'quota',
          needed: '2000.00',
          remaining: null,
          enough: true,
          stock: [],
        });
        // exactly enough: it starts and issues the pending row (the failed one waits for a retry)
        await quota('2500.00', '500.00');
        expect((await dryRun(id)).quota).toMatchObject({ remaining: '2000.00', enough: true });
        const res = await post('start', id);
        expect(res.json.code, res.json.message).toBe(0);
        expect(res.json.data.status).toBe('running');
        await t.app.batchRunner!.idle(id);
        const after = await snapshot(id);
        expect(after.batch.status).toBe('done');
        expect(after.rows.map((r) => r.status)).toEqual(['issued', 'failed', 'issued']);
        expect(await invoicesOf(id)).toBe(1);
      } finally {
        await quota('10000000.00', '0.00');
      }
    });

    it('blank stock of a 金税盘: the kinds short of stock, each with what it needs and has', async () => {
      const disc = f.ids.goldenMain;
      const ranges = (
        await t.db.execute<{ id: number; next_no: number }>(
          sql`select id, next_no from channel_number_ranges where device_id = ${disc}`,
        )
      ).rows;
      // two 增值税普通发票 and one 增值税专用发票
      const res = await send(
        await file(3, (i) => ({ 发票种类: i === 3 ? '增值税专用发票' : '增值税普通发票' })),
        {
          device: disc,
          type: '007',
        },
      );
      expect(res.json.code, JSON.stringify(res.json)).toBe(0);
      const id = res.json.data.batch_id as number;
      try {
        await t.db.execute(sql`
          update channel_number_ranges set next_no = end_no + 1
          where device_id = ${disc} and invoice_type in ('004', '007')`);
        await refusedStart(id, {
          code: BATCH_CODE.QUOTA_INSUFFICIENT,
          message: `${QUOTA_MSG}（增值税专用发票需 1 张，剩余 0 张；增值税普通发票需 2 张，剩余 0 张）`,
        });
        await f.dev('stock', { device_id: disc, invoice_type: '007', count: 1 });
        // 增值税专用发票 exactly enough (1 of 1) is not named among the kinds short of stock
        await f.dev('stock', { device_id: disc, invoice_type: '004', count: 1 });
        const dr = await dryRun(id);
        expect(dr).toMatchObject({
          status: 'ready',
          device: { device_id: disc, kind_name: '金税盘', per_invoice_limit: '999999.99', online: true },
          by_type: [
            { invoice_type: '004', name: '增值税专用发票', count: 1, line_limit: 8 },
            { invoice_type: '007', name: '增值税普通发票', count: 2, line_limit: 8 },
          ],
        });
        expect(dr.quota).toEqual({
          kind: 'stock',
          needed: '3',
          remaining: null,
          enough: false,
          stock: [
            { invoice_type: '004', needed: 1, remaining: 1 },
            { invoice_type: '007', needed: 2, remaining: 1 },
          ],
        });
        await refusedStart(id, {
          code: BATCH_CODE.QUOTA_INSUFFICIENT,
          message: `${QUOTA_MSG}（增值税普通发票需 2 张，剩余 1 张）`,
        });
        // exactly enough
        await f.dev('stock', { device_id: disc, invoice_type: '007', count: 1 });
        expect((await dryRun(id)).quota).toMatchObject({
          enough: true,
          stock: [
            { invoice_type: '004', needed: 1, remaining: 1 },
            { invoice_type: '007', needed: 2, remaining: 2 },
          ],
        });
      } finally {
        await t.db.execute(sql`
          delete from channel_number_ranges
          where device_id = ${disc} and id <> all(${`{${ranges.map((r) => r.id).join(',')}}`}::bigint[])`);
        for (const r of ranges) {
          await t.db.execute(sql`update channel_number_ranges set next_no = ${r.next_no} where id = ${r.id}`);
        }
      }
      const cancelled = await post('cancel', id);
      expect(cancelled.json.data).toMatchObject({ status: 'cancelled', skipped: 3 });
    });
  });
});
