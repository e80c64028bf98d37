import { beijingInstant, beijingParts } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { RawRow } from '../db/rows.ts';
import type { taxDevices } from '../db/schema/index.ts';
import { FILING_KINDS, filingClock, isLiable } from '../modules/devices/filing.ts';

/**
 * The demo's monthly filing, so that `npm start` keeps issuing after the 15th (domain.md §7.1 lock):
 * the year of history says the devices it issued on existed then, so their `created_at` is moved back
 * to their first invoice; every tax-control device liable for the previous month gets that month
 * copied and cleared (as its owner would have done by the 3rd), which also lifts a filing lock.
 * Idempotent; runs with the history on every start.
 */
export async function seedDemoFilings(
  db: Db,
  demo: { software: { taxCode: string }; hotel: { taxCode: string } },
  now = new Date(),
): Promise<number> {
  const clock = filingClock(now);
  const { year, month } = beijingParts(now);
  const third = beijingInstant({ year, month, day: 3, hour: 10 }); // the 3rd, 10:00 Beijing
  const filedAt = (third < now ? third : now).toISOString();
  const taxCodes = `{${demo.software.taxCode},${demo.hotel.taxCode}}`;
  await db.execute(sql`update tax_devices d set created_at = h.first_at
    from (select device_id, min(issued_at) as first_at from invoices
          where client_id in (select id from clients where tax_code = any(${taxCodes}::text[]))
            and issued_at is not null group by device_id) h
    where d.id = h.device_id and h.first_at < d.created_at`);
  const devices = await db.execute<Pick<RawRow<typeof taxDevices>, 'id' | 'client_id' | 'created_at'>>(sql`
    select d.id, d.client_id, d.created_at from tax_devices d
    join clients c on c.id = d.client_id and c.tax_code = any(${taxCodes}::text[])
    where d.status = 'active' and d.kind = any(${`{${FILING_KINDS.join(',')}}`}::text[])
      and not exists (select 1 from device_filings f
        where f.device_id = d.id and f.period = ${clock.period} and f.cleared_at is not null)`);
  const due = devices.rows.filter((d) => isLiable(new Date(d.created_at), clock));
  for (const d of due) {
    await db.execute(sql`insert into device_filings
        (client_id, device_id, period, copied_at, cleared_at, invoice_count, total_amount, total_tax, upload_no)
      select ${d.client_id}, ${d.id}, ${clock.period}, ${filedAt}, ${filedAt}, count(*),
        coalesce(sum(total_amount), 0), coalesce(sum(total_tax), 0),
        ${`SB${clock.period.replace('-', '')}${String(d.id).padStart(6, '0')}`}
      from invoices where device_id = ${d.id} and status in ('issued', 'voided')
        and issued_at >= ${clock.from.toISOString()} and issued_at < ${clock.to.toISOString()}
      on conflict (device_id, period, client_id) do update
        set copied_at = coalesce(device_filings.copied_at, excluded.copied_at), cleared_at = excluded.cleared_at`);
    await db.execute(sql`update tax_devices set locked = false where id = ${d.id}`);
  }
  return due.length;
}
