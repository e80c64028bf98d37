import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../channels/numbers.ts';
import type { DeviceRow } from '../devices/repo.ts';
import { storeMayUseDeviceSql } from './issue/eligibility-sql.ts';

/**
 * The SQL of the invoice form's metadata (metadata-routes.ts): the business's stores, the active
 * devices of a store (or of every store given) with their blank stock, a store's default kinds and
 * the kinds its devices issue.
 */

/** Whether the store is one of the business's. */
export async function storeOfBusiness(db: DbOrTx, clientId: number, id: number): Promise<boolean> {
  const res = await db.execute(sql`select 1 from client_stores where id = ${id} and client_id = ${clientId}`);
  return res.rows.length > 0;
}

/** A device as the issue form lists it: the devices page's row without hosting, status and stores. */
export type EquipmentRow = Omit<DeviceRow, 'hosted' | 'status' | 'stores'>;

/**
 * The business's active devices bound or granted (hosted issuing) to one of `stores` (null = any
 * store of the business), 数电 first, with their blank stock by kind.
 */
export async function equipmentOf(
  db: DbOrTx,
  clientId: number,
  stores: readonly number[] | null,
): Promise<EquipmentRow[]> {
  const res = await db.execute<EquipmentRow>(sql`
        select d.id, d.kind, d.channel, d.name, d.device_no, d.extension_no, d.parent_id, d.online, d.locked,
          d.invoice_types, d.per_invoice_limit, d.monthly_quota, d.quota_used, d.quota_month,
          (select jsonb_object_agg(s.invoice_type, s.left) from (
             select r.invoice_type, sum(r.end_no - r.next_no + 1) as left from channel_number_ranges r
             where r.device_id = d.id and r.next_no <= r.end_no group by r.invoice_type) s) as stock
        from tax_devices d
        where d.client_id = ${clientId} and d.status = 'active'
          and exists (
            -- stores bound to the device, and stores granted hosted issuing (trusteeship module)
            select 1 from (select store_id from device_stores where device_id = d.id
              union all select store_id from trusteeship_grants where device_id = d.id) ds
            join client_stores cs on cs.id = ds.store_id
            where cs.client_id = ${clientId}
              ${stores ? sql`and ds.store_id = any(${`{${stores.join(',')}}`}::int[])` : sql``})
        order by case d.kind when 'digital' then 0 else 1 end, d.id`);
  return res.rows;
}

/** The store's default invoice kinds (stores page); undefined when it has no settings row. */
export async function storeDefaultKinds(
  db: DbOrTx,
  clientId: number,
  storeId: number,
): Promise<string[] | undefined> {
  const settings = await db.execute<{ kinds: string[] }>(
    sql`select default_invoice_types as kinds from store_settings
               where store_id = ${storeId} and client_id = ${clientId}`,
  );
  return settings.rows[0]?.kinds;
}

/** The kinds the business's active devices issue: those of one store (bound or granted), or of all. */
export async function deviceKinds(
  db: DbOrTx,
  clientId: number,
  storeId: number | undefined,
): Promise<string[]> {
  const res = await db.execute<{ t: string }>(sql`
        select distinct unnest(d.invoice_types) as t
        from tax_devices d
        where d.client_id = ${clientId} and d.status = 'active'
          ${storeId !== undefined ? sql`and ${storeMayUseDeviceSql(sql`d.id`, sql`${storeId}::int`)}` : sql``}`);
  return res.rows.map((r) => r.t);
}
