import { beijingMonth, beijingParts, INVOICE_CODE, messageFor } from '@kaipiao/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { AppError } from '../lib/app-error.ts';
import { executePrepared } from '../lib/prepared.ts';
import {
  type AtOnceIssued,
  atOnceKey,
  type ChannelBatchRequest,
  type InDatabaseChannel,
  type IssuedSql,
  type IssueRecorder,
  type RecordOutcome,
} from './in-database.ts';
import {
  allocateInvoiceNumbers,
  type DbOrTx,
  DIGITAL_CHANNEL_DIGIT,
  deviceStock,
  isDigitalType,
  makeCheckCode,
} from './numbers.ts';
import type {
  BureauInvoiceRef,
  ChannelFailed,
  ChannelIssueRequest,
  ChannelOutcome,
  ChannelQueryResult,
  DeviceQuota,
  DeviceState,
  VoidOutcome,
  VoidRequest,
} from './port.ts';
import { SandboxRedChannel } from './red-bureau.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const SANDBOX_FAULTS = ['none', 'error', 'timeout', 'unknown'] as const;
export type SandboxFault = (typeof SANDBOX_FAULTS)[number];

type ControlRow = {
  latency_ms: number;
  fault: SandboxFault;
  fault_code: string;
  fault_message: string;
  timeout_ms: number;
  unknown_visible_after_s: number;
  fault_applies: boolean;
};

type Control = {
  latencyMs: number;
  fault: SandboxFault;
  faultCode: string;
  faultMessage: string;
  timeoutMs: number;
  unknownVisibleAfterS: number;
};

const NO_CONTROL: Control = {
  latencyMs: 0,
  fault: 'none',
  faultCode: '',
  faultMessage: '',
  timeoutMs: 0,
  unknownVisibleAfterS: 0,
};

/** The channel already holds an invoice for this serial: answer with it instead of issuing again. */
class AlreadyIssued extends Error {}

const refusal = (code: number): ChannelFailed => ({
  status: 'failed',
  code,
  bureauCode: String(code),
  message: messageFor(code),
});

/** The plain port's caller records nothing inside the channel's transaction. */
const RECORD_NOTHING: RecordOutcome = async () => undefined;

/**
 * The sandbox tax channel (architecture.md §1): issues real-format numbers from per-device counters
 * and stock ranges, enforces device state, the per-invoice limit and the monthly quota, and can be
 * made slow or faulty per device through `channel_sandbox_controls` (dev routes). Its own tables
 * (`channel_*`, `sandbox_invoice_states`, and the device columns it keeps for the bureau) are its
 * business. It implements the plain port (red-letter work and voids: red-bureau.ts) and, sharing our
 * database, the in-database strategies (in-database.ts).
 */
export class SandboxTaxChannel implements InDatabaseChannel {
  readonly inDatabase = true as const;
  /** device → its control row, briefly cached: most issues find no control at all */
  private readonly controls = new Map<number, { at: number; control: Control | null; faulty: boolean }>();

  /** the port's red-letter and void calls */
  private readonly red: SandboxRedChannel;

  constructor(
    private readonly db: Db,
    /** how long a device's control row may be reused; the dev routes of this process invalidate it */
    private readonly controlTtlMs = 1000,
  ) {
    this.red = new SandboxRedChannel(db);
  }

  buyerUsed(q: BureauInvoiceRef): Promise<boolean> {
    return this.red.buyerUsed(q);
  }

  voidInvoice(q: VoidRequest): Promise<VoidOutcome> {
    return this.red.voidInvoice(q);
  }

  /** Forget the cached control of a device (the dev routes call this after a change). */
  invalidateControl(deviceId: number): void {
    this.controls.delete(deviceId);
  }

  /** The port: issue, and leave the outcome to the caller. */
  issue(req: ChannelIssueRequest): Promise<ChannelOutcome> {
    return this.issueRecorded(req, { record: RECORD_NOTHING });
  }

  async issueRecorded(req: ChannelIssueRequest, recorder: IssueRecorder): Promise<ChannelOutcome> {
    const { record } = recorder;
    const control = await this.takeControl(req.deviceId);
    if (control.latencyMs > 0) await sleep(control.latencyMs);

    if (control.fault === 'error') {
      const outcome: ChannelFailed = {
        status: 'failed',
        code: INVOICE_CODE.CHANNEL_ERROR,
        bureauCode: control.faultCode || '10000',
        message: control.faultMessage || '税局系统繁忙，请稍后重试',
      };
      await this.db.transaction((tx) => record(tx, outcome));
      return outcome;
    }
    if (control.fault === 'timeout') {
      // the request never reached the bureau; the caller only sees its timer run out
      if (control.timeoutMs > 0) await sleep(control.timeoutMs);
      const outcome: ChannelOutcome = { status: 'unknown', reason: 'timeout', message: '税局响应超时' };
      await this.db.transaction((tx) => record(tx, outcome));
      return outcome;
    }

    if (control.fault === 'none' && recorder.issuedSql) {
      const fast = await this.issueInOneStatement({ items: [req] }, recorder.issuedSql, false);
      const issued = fast.get(atOnceKey(req.clientId, req.serialNo));
      if (issued) return issued.outcome;
      // nothing was issued (a refusal, no stock, the serial already known, or the invoice moved
      // on): the transactional path below finds out which and records it
    }

    try {
      return await this.db.transaction(async (tx) => {
        // on disk before the caller hears of it, whatever the server's default (IssuedSql)
        await tx.execute(sql`select set_config('synchronous_commit', 'on', true)`);
        const checked = await this.reserve(tx, req);
        if (checked.status === 'failed') {
          await record(tx, checked);
          return checked;
        }
        const issuedAt = new Date();
        let numbers: Awaited<ReturnType<typeof allocateInvoiceNumbers>>;
        try {
          numbers = await allocateInvoiceNumbers(tx, {
            deviceId: req.deviceId,
            invoiceType: req.invoiceType,
            count: 1,
            issuedAt,
            device: { clientId: req.clientId, areaCode: checked.areaCode },
          });
        } catch (err) {
          if (err instanceof AppError && err.code === INVOICE_CODE.STOCK_EXHAUSTED) {
            // count 1 takes nothing when it fails, but the quota reservation above must go: redo
            // the recording in a transaction of its own
            throw new StockExhausted();
          }
          throw err;
        }
        const { invoiceCode, invoiceNo } = numbers[0]!;
        const checkCode = makeCheckCode(req.invoiceType, invoiceCode, invoiceNo);
        const visibleAfter = control.fault === 'unknown' ? control.unknownVisibleAfterS : 0;
        const inserted = await tx.execute(sql`
          insert into channel_sandbox_issues
            (client_id, serial_no, device_id, invoice_type, invoice_code, invoice_no, check_code, total_amount,
             issued_at, visible_at)
          values (${req.clientId}, ${req.serialNo}, ${req.deviceId}, ${req.invoiceType}, ${invoiceCode},
            ${invoiceNo}, ${checkCode}, ${req.totalAmount}, ${issuedAt.toISOString()},
            now() + make_interval(secs => ${visibleAfter}))
          on conflict (client_id, serial_no) do nothing`);
        if (inserted.rowCount === 0) throw new AlreadyIssued();
        const outcome: ChannelOutcome =
          control.fault === 'unknown'
            ? { status: 'unknown', reason: 'unknown', message: '税局返回未知结果' }
            : { status: 'issued', invoiceCode, invoiceNo, checkCode, issuedAt };
        await record(tx, outcome);
        return outcome;
      });
    } catch (err) {
      if (err instanceof StockExhausted) {
        const outcome = refusal(INVOICE_CODE.STOCK_EXHAUSTED);
        await this.db.transaction((tx) => record(tx, outcome));
        return outcome;
      }
      if (err instanceof AlreadyIssued) {
        // the bureau answers a repeated serial with the invoice it already made
        const known = await this.querySerial({ clientId: req.clientId, serialNo: req.serialNo });
        const outcome: ChannelOutcome =
          known.state === 'issued'
            ? { status: 'issued', ...known }
            : { status: 'unknown', reason: 'unknown', message: '税局返回未知结果' };
        await this.db.transaction((tx) => record(tx, outcome));
        return outcome;
      }
      throw err;
    }
  }

  /**
   * Issues the batch in the caller's statement that creates its invoices (InDatabaseChannel.issueAtOnce).
   * A device with a fault or latency configured issues nothing here (the two-step path simulates
   * those): the statement itself checks, so the hot path reads no control row. A concurrent
   * request with one of the serials (unique violation, the whole statement undone) answers null.
   */
  async issueAtOnce(
    batch: ChannelBatchRequest,
    caller: IssuedSql,
  ): Promise<Map<string, AtOnceIssued> | null> {
    try {
      return await this.issueInOneStatement(batch, caller, true);
    } catch (err) {
      if ((err as { code?: string }).code === '23505') return null;
      throw err;
    }
  }

  /**
   * The common case in one statement, for any number of devices: the caller's guard yields the
   * invoices that may be issued (see IssuedSql); each device checks state, kind, limit and quota on
   * its row for all of its invoices the guard passed and reserves the quota; its counter (数电,
   * any number of invoices) or a stock range (an older kind: one invoice, alone) gives the numbers
   * in the items' order, the bureau's records are written and the caller's CTEs record the issued
   * invoices. A device that refuses issues none of its invoices and leaves the others' alone. The
   * per-device locks last for this statement only, and it commits synchronously (see IssuedSql). `plainOnly`: a device with a sandbox control row (a fault, even a used-up one,
   * or a latency) issues nothing. Answers what was issued, by `atOnceKey`.
   */
  private async issueInOneStatement(
    batch: ChannelBatchRequest,
    caller: IssuedSql,
    plainOnly: boolean,
  ): Promise<Map<string, AtOnceIssued>> {
    const issuedAt = new Date();
    const { year } = beijingParts(issuedAt);
    const month = beijingMonth(issuedAt);
    const yy = String(year % 100).padStart(2, '0');
    const { items } = batch;
    if (items.length === 0) return new Map();
    const digital = items.every((i) => isDigitalType(i.invoiceType));
    if (!digital && items.length !== 1) throw new Error('stock numbers are handed out one invoice at a time');
    const withCheck = !digital && makeCheckCode(items[0]!.invoiceType, '0', '0') !== '';
    const alloc: SQL = digital
      ? sql`
        ctr as (
          insert into channel_number_counters (device_id, series, year, client_id, last_seq)
          select dev.id, 'digital', ${year}, dev.client_id, dev.n from dev
          on conflict (device_id, series, year, client_id)
          do update set last_seq = channel_number_counters.last_seq + excluded.last_seq, updated_at = now()
          returning device_id, last_seq
        ),
        alloc as (
          select g.client_id, g.device_id, g.invoice_type, g.serial_no, g.total_amount, ''::text as invoice_code,
            ${yy} || right('00' || dev.area_code, 2) || ${DIGITAL_CHANNEL_DIGIT}
              || lpad((ctr.last_seq - dev.n
                       + row_number() over (partition by g.device_id order by g.ord))::text, 15, '0') as invoice_no
          from ok g
          join dev on dev.id = g.device_id and dev.client_id = g.client_id
          join ctr on ctr.device_id = dev.id
        )`
      : sql`
        pick as (
          select r.id, r.invoice_code, r.next_no from channel_number_ranges r, dev, items x
          where r.device_id = dev.id and r.invoice_type = x.invoice_type and r.next_no <= r.end_no
          order by r.id limit 1
          for update of r
        ),
        took as (
          update channel_number_ranges r set next_no = pick.next_no + 1 from pick where r.id = pick.id
          returning pick.invoice_code, lpad(pick.next_no::text, 8, '0') as invoice_no
        ),
        alloc as (
          select g.client_id, g.device_id, g.invoice_type, g.serial_no, g.total_amount, took.invoice_code,
            took.invoice_no
          from ok g, took
        )`;
    // the batch as one JSON parameter: the statement text does not depend on its size or devices
    const asked = JSON.stringify(
      items.map((i, k) => ({
        ord: k + 1,
        client_id: i.clientId,
        device_id: i.deviceId,
        invoice_type: i.invoiceType,
        serial_no: i.serialNo,
        total_amount: i.totalAmount,
      })),
    );
    const res = await executePrepared<{
      client_id: number;
      serial_no: string;
      invoice_code: string;
      invoice_no: string;
      check_code: string;
      recorded_id: number | string | null;
    }>(
      this.db,
      sql`
      with cfg as (select set_config('synchronous_commit', 'on', true) as v),
      items as (
        select * from jsonb_to_recordset(${asked}::jsonb)
          as x(ord int, client_id int, device_id int, invoice_type text, serial_no text, total_amount numeric)
      ),
      guard as (${caller.guard}),
      -- the invoices the caller's guard passes and the bureau holds no invoice for (a subquery per
      -- item: an anti-join would hash all of a business's issues for the generic plan)
      ok as (
        select x.* from items x join guard g on g.client_id = x.client_id and g.serial_no = x.serial_no
        where (select 1 from channel_sandbox_issues s where s.client_id = x.client_id and s.serial_no = x.serial_no)
          is null
      ),
      want as (
        select device_id, client_id, count(*)::int as n, sum(total_amount) as amount, max(total_amount) as top,
          array_agg(distinct invoice_type) as kinds
        from ok group by device_id, client_id
      ),
      dev as (
        update tax_devices d set
          quota_used = case when d.monthly_quota is null then d.quota_used
                            when d.quota_month = ${month} then d.quota_used + w.amount
                            else w.amount end,
          quota_month = case when d.monthly_quota is null then d.quota_month else ${month} end
        from want w, cfg
        where d.id = w.device_id and d.client_id = w.client_id
          and d.status = 'active' and d.online and not d.locked
          and w.kinds <@ d.invoice_types
          and d.per_invoice_limit >= w.top
          and (d.monthly_quota is null
               or (case when d.quota_month = ${month} then d.quota_used else 0 end) + w.amount <= d.monthly_quota)
          ${
            plainOnly
              ? sql`and not exists (select 1 from channel_sandbox_controls c where c.device_id = d.id
                      and (c.fault <> 'none' or c.latency_ms > 0))`
              : sql``
          }
          ${
            digital
              ? sql``
              : sql`and exists (select 1 from channel_number_ranges r where r.device_id = d.id
                      and r.invoice_type = any(w.kinds) and r.next_no <= r.end_no)`
          }
        returning d.id, d.client_id, d.area_code, w.n
      ),
      ${alloc},
      issued as (
        insert into channel_sandbox_issues
          (client_id, serial_no, device_id, invoice_type, invoice_code, invoice_no, check_code, total_amount, issued_at)
        select a.client_id, a.serial_no, a.device_id, a.invoice_type, a.invoice_code, a.invoice_no,
          case when ${withCheck} then (
            select string_agg((get_byte(sha256(convert_to(a.invoice_code || ':' || a.invoice_no, 'UTF8')), i) % 10)::text,
              '' order by i)
            from generate_series(0, 19) i)
          else '' end,
          a.total_amount, ${issuedAt.toISOString()}
        from alloc a
        returning client_id, serial_no, invoice_code, invoice_no, check_code, issued_at
      ),
      ${caller.ctes}
      select issued.client_id, issued.serial_no, issued.invoice_code, issued.invoice_no, issued.check_code,
        recorded.id as recorded_id
      from issued left join recorded on recorded.client_id = issued.client_id and recorded.serial_no = issued.serial_no`,
    );
    const out = new Map<string, AtOnceIssued>();
    if (res.rows.length === 0) return out;
    // durable already: the statement committed synchronously (cfg), so nobody hears of an
    // invoice a crash could take back
    for (const row of res.rows) {
      if (row.recorded_id === null) {
        // cannot happen while the guard holds; refuse loudly rather than lose a number
        throw new Error(`sandbox issue of ${row.serial_no} allocated ${row.invoice_no} but recorded nothing`);
      }
      out.set(atOnceKey(row.client_id, row.serial_no), {
        outcome: {
          status: 'issued',
          invoiceCode: row.invoice_code,
          invoiceNo: row.invoice_no,
          checkCode: row.check_code,
          issuedAt,
        },
        recordedId: Number(row.recorded_id),
      });
    }
    return out;
  }

  /**
   * Checks device state, kind, per-invoice limit and monthly quota and reserves the quota, in one
   * statement that locks the device row for the rest of the transaction.
   */
  private async reserve(
    tx: DbOrTx,
    req: ChannelIssueRequest,
  ): Promise<{ status: 'ok'; areaCode: string } | ChannelFailed> {
    const month = beijingMonth();
    const amount = req.totalAmount;
    const res = await tx.execute<{ area_code: string }>(sql`
      update tax_devices d set
        quota_used = case when d.monthly_quota is null then d.quota_used
                          when d.quota_month = ${month} then d.quota_used + ${amount}::numeric
                          else ${amount}::numeric end,
        quota_month = case when d.monthly_quota is null then d.quota_month else ${month} end
      where d.id = ${req.deviceId} and d.client_id = ${req.clientId}
        and d.status = 'active' and d.online and not d.locked
        and ${req.invoiceType} = any(d.invoice_types)
        and d.per_invoice_limit >= ${amount}::numeric
        and (d.monthly_quota is null
             or (case when d.quota_month = ${month} then d.quota_used else 0 end) + ${amount}::numeric <= d.monthly_quota)
      returning d.area_code`);
    const row = res.rows[0];
    if (row) return { status: 'ok', areaCode: row.area_code };
    return refusal(await this.diagnose(tx, req));
  }

  /** Which rule refused the device (the slow path after `reserve` matched no row). */
  private async diagnose(tx: DbOrTx, req: ChannelIssueRequest): Promise<number> {
    const res = await tx.execute<{
      status: string;
      online: boolean;
      locked: boolean;
      invoice_types: string[];
      over_limit: boolean;
    }>(sql`
      select status, online, locked, invoice_types, per_invoice_limit < ${req.totalAmount}::numeric as over_limit
      from tax_devices where id = ${req.deviceId} and client_id = ${req.clientId}`);
    const d = res.rows[0];
    if (!d) return INVOICE_CODE.DEVICE_NOT_FOUND;
    if (d.status !== 'active') return INVOICE_CODE.DEVICE_DISABLED;
    if (!d.online) return INVOICE_CODE.DEVICE_OFFLINE;
    if (d.locked) return INVOICE_CODE.DEVICE_LOCKED;
    if (!d.invoice_types.includes(req.invoiceType)) return INVOICE_CODE.DEVICE_TYPE_UNSUPPORTED;
    if (d.over_limit) return INVOICE_CODE.OVER_INVOICE_LIMIT;
    return INVOICE_CODE.QUOTA_EXCEEDED;
  }

  /**
   * The device's sandbox behaviour. A device without a fault is read from a short cache; a fault
   * is taken from the database every time, its remaining count consumed atomically.
   */
  private async takeControl(deviceId: number): Promise<Control> {
    const hit = this.controls.get(deviceId);
    if (hit && !hit.faulty && Date.now() - hit.at < this.controlTtlMs) return hit.control ?? NO_CONTROL;
    const res = await this.db.execute<ControlRow>(sql`
      with claim as (
        update channel_sandbox_controls s set fault_remaining = s.fault_remaining - 1, updated_at = now()
        where s.device_id = ${deviceId} and s.fault <> 'none' and s.fault_remaining > 0
        returning 1
      )
      select latency_ms, fault, fault_code, fault_message, timeout_ms, unknown_visible_after_s,
        (fault <> 'none' and (fault_remaining is null or exists (select 1 from claim))) as fault_applies
      from channel_sandbox_controls where device_id = ${deviceId}`);
    return this.remember(deviceId, res.rows[0]);
  }

  private remember(deviceId: number, c: ControlRow | undefined): Control {
    const control: Control | null = c
      ? {
          latencyMs: c.latency_ms,
          fault: c.fault_applies ? c.fault : 'none',
          faultCode: c.fault_code,
          faultMessage: c.fault_message,
          timeoutMs: c.timeout_ms,
          unknownVisibleAfterS: c.unknown_visible_after_s,
        }
      : null;
    // a configured fault (even one used up) keeps the device off the cache until it is cleared
    this.controls.set(deviceId, { at: Date.now(), control, faulty: c !== undefined && c.fault !== 'none' });
    return control ?? NO_CONTROL;
  }

  async querySerial(q: { clientId: number; serialNo: string }): Promise<ChannelQueryResult> {
    const res = await this.db.execute<{
      invoice_type: string;
      invoice_code: string;
      invoice_no: string;
      check_code: string;
      issued_at: Date | string;
      visible: boolean;
    }>(sql`
      select invoice_type, invoice_code, invoice_no, check_code, issued_at, visible_at <= now() as visible
      from channel_sandbox_issues where client_id = ${q.clientId} and serial_no = ${q.serialNo}`);
    const r = res.rows[0];
    if (!r) return { state: 'not_issued' };
    if (!r.visible) return { state: 'pending' };
    return {
      state: 'issued',
      invoiceType: r.invoice_type,
      invoiceCode: r.invoice_code,
      invoiceNo: r.invoice_no,
      checkCode: r.check_code,
      issuedAt: new Date(r.issued_at),
    };
  }

  async deviceState(deviceId: number): Promise<DeviceState | null> {
    const res = await this.db.execute<{ online: boolean; locked: boolean; status: string }>(
      sql`select online, locked, status from tax_devices where id = ${deviceId}`,
    );
    const r = res.rows[0];
    return r ? { deviceId, online: r.online, locked: r.locked, active: r.status === 'active' } : null;
  }

  async quota(deviceId: number): Promise<DeviceQuota | null> {
    const month = beijingMonth();
    const res = await this.db.execute<{
      per_invoice_limit: string;
      monthly_quota: string | null;
      quota_used: string;
      quota_month: string;
    }>(
      sql`select per_invoice_limit, monthly_quota, quota_used, quota_month from tax_devices where id = ${deviceId}`,
    );
    const r = res.rows[0];
    if (!r) return null;
    return {
      deviceId,
      perInvoiceLimit: r.per_invoice_limit,
      monthlyQuota: r.monthly_quota,
      quotaUsed: r.quota_month === month ? r.quota_used : '0.00',
      quotaMonth: month,
      stock: await deviceStock(this.db, deviceId),
    };
  }
}

class StockExhausted extends Error {}
