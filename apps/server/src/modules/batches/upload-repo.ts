import type { BatchDryRun } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../channels/numbers.ts';
import type { RawRow } from '../../db/rows.ts';
import type { batches, clients, taxDevices } from '../../db/schema/index.ts';
import { storeMayUseDeviceSql } from '../invoices/issue/eligibility-sql.ts';

/**
 * The reads of a batch's upload and dry run (service.ts; the batches' own rows are in repo.ts): the
 * device with its binding and month's quota, the tax classes and the seller the rows are built
 * against, and the dry run's counts, splits and earlier upload of the same file.
 */

/** The device's columns (`quota_used`: of the month asked about, else 0) and whether the store may use it. */
export type DeviceRow = Pick<
  RawRow<typeof taxDevices>,
  | 'id'
  | 'name'
  | 'kind'
  | 'status'
  | 'online'
  | 'locked'
  | 'invoice_types'
  | 'per_invoice_limit'
  | 'monthly_quota'
  | 'quota_used'
> & { bound: boolean };

/** The business's device, whether it is bound to the store, and its quota used in `month`. */
export async function loadDevice(
  db: DbOrTx,
  q: { clientId: number; storeId: number; deviceId: number; month: string },
): Promise<DeviceRow | null> {
  const { clientId, storeId, deviceId, month } = q;
  const res = await db.execute<DeviceRow>(sql`
    select d.id, d.name, d.kind, d.status, d.online, d.locked, d.invoice_types, d.per_invoice_limit,
      d.monthly_quota, case when d.quota_month = ${month} then d.quota_used else 0 end as quota_used,
      ${storeMayUseDeviceSql(sql`d.id`, sql`${storeId}::int`)} as bound
    from tax_devices d where d.id = ${deviceId} and d.client_id = ${clientId}`);
  return res.rows[0] ?? null;
}

export type TaxClassRow = { code: string; short_name: string; is_summary: boolean };

/** The tax classification codes among `codes` (non-empty, 19 digits each). */
export async function taxClasses(db: DbOrTx, codes: readonly string[]): Promise<TaxClassRow[]> {
  const res = await db.execute<TaxClassRow>(sql`
          select code, short_name, is_summary from tax_class_codes
          where code = any(${`{${codes.join(',')}}`}::text[])`);
  return res.rows;
}

/** The business's tax code and taxpayer type (undefined when there is no such business). */
export async function sellerOf(
  db: DbOrTx,
  clientId: number,
): Promise<Pick<RawRow<typeof clients>, 'tax_code' | 'taxpayer_type'> | undefined> {
  const res = await db.execute<Pick<RawRow<typeof clients>, 'tax_code' | 'taxpayer_type'>>(
    sql`select tax_code, taxpayer_type from clients where id = ${clientId}`,
  );
  return res.rows[0];
}

export type TypeCount = { invoice_type: string; n: number; open_n: number; open_amount: string };

/** A batch's rows by invoice type: all of them, and those still to issue with their amount. */
export async function typeCounts(db: DbOrTx, batchId: number): Promise<TypeCount[]> {
  const res = await db.execute<TypeCount>(sql`
      select invoice_type, count(*)::int as n,
        count(*) filter (where status in ('pending', 'issuing', 'failed'))::int as open_n,
        coalesce(sum(total_amount) filter (where status in ('pending', 'issuing', 'failed')), 0)::text as open_amount
      from batch_rows where batch_id = ${batchId} group by invoice_type order by invoice_type`);
  return res.rows;
}

export type SplitSource = {
  source_serial: string;
  source_row: number;
  parts: number;
  lines: number;
  amount: string;
  invoice_type: string;
};

/** The invoices of the file that were split, in file order (the first 200). */
export async function splitSources(db: DbOrTx, batchId: number): Promise<SplitSource[]> {
  const res = await db.execute<SplitSource>(sql`
      select source_serial, min(source_row) as source_row, count(*)::int as parts, sum(line_count)::int as lines,
        sum(total_amount)::text as amount, min(invoice_type) as invoice_type
      from batch_rows where batch_id = ${batchId} and part_count > 1
      group by source_serial order by min(seq) limit 200`);
  return res.rows;
}

export type EarlierUpload = Pick<RawRow<typeof batches>, 'id' | 'created_at'> & {
  status: BatchDryRun['status'];
};

/** The latest earlier batch of the business uploaded from the same file, if any. */
export async function earlierUpload(
  db: DbOrTx,
  q: { clientId: number; batchId: number; fileSha256: string },
): Promise<EarlierUpload | null> {
  const { clientId, batchId } = q;
  const res = await db.execute<EarlierUpload>(sql`
      select id, created_at, status from batches
      where client_id = ${clientId} and file_sha256 = ${q.fileSha256} and id <> ${batchId} and id < ${batchId}
      order by id desc limit 1`);
  return res.rows[0] ?? null;
}
