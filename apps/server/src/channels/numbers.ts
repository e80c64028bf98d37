import { createHash } from 'node:crypto';
import {
  beijingCompactDay,
  beijingMonth,
  beijingParts,
  DIGITAL_INVOICE_TYPES,
  INVOICE_CODE,
  type InvoiceType,
} from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { AppError } from '../lib/app-error.ts';

/** A database handle or an open transaction: both run `execute`. */
export type DbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

/** Issuing-channel digit (position 5) of sandbox 数电 numbers: 2 = 电子发票服务平台 (domain.md §1.2). */
export const DIGITAL_CHANNEL_DIGIT = '2';

/** Kind suffix (digits 11-12) of the 12-digit invoice codes (domain.md §1.2, heuristic). */
const CODE_SUFFIX: Partial<Record<InvoiceType, string>> = {
  '007': '04',
  '025': '06',
  '026': '11',
  '028': '13',
  '032': '11',
};

export const isDigitalType = (t: string): boolean => (DIGITAL_INVOICE_TYPES as readonly string[]).includes(t);

/**
 * Year, 'YYYY-MM' and 'YYYYMMDD' of an instant in Beijing time (@kaipiao/shared time/beijing.ts).
 * Kept for modules/invoices/service.ts; new code calls beijingParts / beijingMonth directly.
 */
export function shanghaiParts(d: Date): { year: number; month: string; ymd: string } {
  return { year: beijingParts(d).year, month: beijingMonth(d), ymd: beijingCompactDay(d) };
}

/** `YY + area(2) + channel(1) + sequence(15)`: the 20-digit 数电 number. */
export function formatDigitalNumber(year: number, areaCode: string, seq: number): string {
  const yy = String(year % 100).padStart(2, '0');
  return `${yy}${areaCode.padStart(2, '0').slice(-2)}${DIGITAL_CHANNEL_DIGIT}${String(seq).padStart(15, '0')}`;
}

/**
 * A 发票代码 for a stock batch: 12 digits `0 + area(4) + YY + batch(3) + kind(2)` for the electronic and
 * ordinary kinds, 10 digits `area(4) + YY + batch(1) + 130` for paper 专票 (004).
 */
export function makeInvoiceCode(invoiceType: string, year: number, batch: number, areaCode = '33'): string {
  const area = `${areaCode.padStart(2, '0').slice(-2)}00`;
  const yy = String(year % 100).padStart(2, '0');
  if (invoiceType === '004') return `${area}${yy}${batch % 10}130`;
  const suffix = CODE_SUFFIX[invoiceType as InvoiceType] ?? '04';
  return `0${area}${yy}${String(batch % 1000).padStart(3, '0')}${suffix}`;
}

/** 20-digit 校验码 printed on the ordinary kinds (not on 专票, not on 数电); deterministic per number. */
export function makeCheckCode(invoiceType: string, invoiceCode: string, invoiceNo: string): string {
  if (isDigitalType(invoiceType) || ['004', '028'].includes(invoiceType)) return '';
  const hex = createHash('sha256').update(`${invoiceCode}:${invoiceNo}`).digest('hex');
  let digits = '';
  for (let i = 0; digits.length < 20; i += 2) digits += String(Number.parseInt(hex.slice(i, i + 2), 16) % 10);
  return digits;
}

export type AllocatedNumber = { invoiceCode: string; invoiceNo: string };

type DeviceForNumbers = { clientId: number; areaCode: string };

async function loadDevice(tx: DbOrTx, deviceId: number): Promise<DeviceForNumbers> {
  const res = await tx.execute<{ client_id: number; area_code: string }>(
    sql`select client_id, area_code from tax_devices where id = ${deviceId}`,
  );
  const row = res.rows[0];
  if (!row) throw new AppError(INVOICE_CODE.DEVICE_NOT_FOUND);
  return { clientId: row.client_id, areaCode: row.area_code };
}

/**
 * Hands out `count` invoice numbers of one device, in order and without gaps (architecture.md §5).
 * Call it inside the transaction that records the invoices: the counter / range row stays locked
 * until that transaction ends, and a rollback gives the numbers back.
 * - 数电 kinds (81, 82): one 15-digit sequence per device and calendar year of `issuedAt` (Beijing
 *   time), shared by both kinds; numbers `YY + area + channel digit + sequence`.
 * - older kinds: the device's stock ranges of that kind, lowest first (code + 8-digit number);
 *   throws 13108 when the stock cannot cover `count` (nothing is taken then).
 * `device` may be passed when the caller has already read it (saves a query).
 */
export async function allocateInvoiceNumbers(
  tx: DbOrTx,
  opts: { deviceId: number; invoiceType: string; count: number; issuedAt: Date; device?: DeviceForNumbers },
): Promise<AllocatedNumber[]> {
  const { deviceId, invoiceType, count, issuedAt } = opts;
  if (!Number.isInteger(count) || count < 1) throw new Error(`allocateInvoiceNumbers: bad count ${count}`);
  const device = opts.device ?? (await loadDevice(tx, deviceId));
  if (isDigitalType(invoiceType)) {
    const { year } = beijingParts(issuedAt);
    const res = await tx.execute<{ last_seq: number | string }>(sql`
      insert into channel_number_counters (device_id, series, year, client_id, last_seq)
      values (${deviceId}, 'digital', ${year}, ${device.clientId}, ${count})
      on conflict (device_id, series, year, client_id)
      do update set last_seq = channel_number_counters.last_seq + excluded.last_seq, updated_at = now()
      returning last_seq`);
    const last = Number(res.rows[0]!.last_seq);
    const first = last - count + 1;
    return Array.from({ length: count }, (_, i) => ({
      invoiceCode: '',
      invoiceNo: formatDigitalNumber(year, device.areaCode, first + i),
    }));
  }

  const out: AllocatedNumber[] = [];
  while (out.length < count) {
    const want = count - out.length;
    // lock the lowest range with numbers left; a waiter re-reads the row once the holder commits
    const res = await tx.execute<{ invoice_code: string; first_no: number; taken: number }>(sql`
      with pick as (
        select id, next_no, least(${want}::int, end_no - next_no + 1) as take
        from channel_number_ranges
        where device_id = ${deviceId} and invoice_type = ${invoiceType} and next_no <= end_no
        order by id
        limit 1
        for update
      )
      update channel_number_ranges r
      set next_no = pick.next_no + pick.take
      from pick
      where r.id = pick.id
      returning r.invoice_code, pick.next_no as first_no, pick.take as taken`);
    const row = res.rows[0];
    if (!row) throw new AppError(INVOICE_CODE.STOCK_EXHAUSTED);
    for (let i = 0; i < Number(row.taken); i++) {
      out.push({
        invoiceCode: row.invoice_code,
        invoiceNo: String(Number(row.first_no) + i).padStart(8, '0'),
      });
    }
  }
  return out;
}

/**
 * 领用 (requisition) of blank stock onto a device: a new range of `count` numbers under the invoice
 * code of `year`'s batch. Numbers continue after the highest range already handed out under that
 * code (any business), so one code never repeats a number.
 */
export async function addNumberRange(
  tx: DbOrTx,
  opts: { deviceId: number; invoiceType: string; count: number; year?: number; batch?: number },
): Promise<{ invoiceCode: string; startNo: number; endNo: number }> {
  const device = await loadDevice(tx, opts.deviceId);
  const year = opts.year ?? beijingParts().year;
  const code = makeInvoiceCode(opts.invoiceType, year, opts.batch ?? 1, device.areaCode);
  const res = await tx.execute<{ start_no: number; end_no: number }>(sql`
    insert into channel_number_ranges (client_id, device_id, invoice_type, invoice_code, start_no, end_no, next_no)
    select ${device.clientId}, ${opts.deviceId}, ${opts.invoiceType}, ${code}, s.start_no, s.start_no + ${opts.count} - 1, s.start_no
    from (select coalesce(max(end_no), 0) + 1 as start_no from channel_number_ranges where invoice_code = ${code}) s
    returning start_no, end_no`);
  const row = res.rows[0]!;
  return { invoiceCode: code, startNo: Number(row.start_no), endNo: Number(row.end_no) };
}

/** Remaining blank stock per invoice type of a device (older kinds only). */
export async function deviceStock(db: DbOrTx, deviceId: number): Promise<Record<string, number>> {
  const res = await db.execute<{ invoice_type: string; left: number | string }>(sql`
    select invoice_type, sum(end_no - next_no + 1) as left
    from channel_number_ranges
    where device_id = ${deviceId} and next_no <= end_no
    group by invoice_type`);
  return Object.fromEntries(res.rows.map((r) => [r.invoice_type, Number(r.left)]));
}
