import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../channels/numbers.ts';
import { refuseIfOtherStore } from '../../lib/scope.ts';

/** The SQL of stores (spec §7 Client and stores): the store, its settings and the devices bound to it. */

const intArray = (ids: readonly number[]) => `{${ids.join(',')}}`;

export type StoreRow = {
  id: number;
  name: string;
  code: string;
  status: string;
  default_invoice_types: string[] | null;
  remark: string | null;
  devices: Array<{ device_id: number; name: string; kind: string }> | null;
};

/** The business's stores (only active ones unless asked) with their settings and bound devices. */
export async function selectStores(
  db: DbOrTx,
  clientId: number,
  includeDisabled: boolean,
): Promise<StoreRow[]> {
  const res =
    await db.execute<StoreRow>(sql`select cs.id, cs.name, cs.code, cs.status, ss.default_invoice_types, ss.remark,
      (select jsonb_agg(jsonb_build_object('device_id', d.id, 'name', d.name, 'kind', d.kind) order by d.id)
        from device_stores ds join tax_devices d on d.id = ds.device_id where ds.store_id = cs.id) as devices
    from client_stores cs left join store_settings ss on ss.store_id = cs.id
    where cs.client_id = ${clientId} ${includeDisabled ? sql`` : sql`and cs.status = 'active'`}
    order by cs.id`);
  return res.rows;
}

export async function storeExists(db: DbOrTx, clientId: number, id: number): Promise<boolean> {
  const r = await db.execute(sql`select 1 from client_stores where id = ${id} and client_id = ${clientId}`);
  return r.rows.length > 0;
}

/** Refuses (store not permitted) when the store exists in the business but outside the caller's stores. */
export async function refuseOtherStore(db: DbOrTx, clientId: number, id: number): Promise<void> {
  await refuseIfOtherStore(db, sql`select 1 from client_stores where id = ${id} and client_id = ${clientId}`);
}

/** Whether another store of the business (not `exceptId`) already has this code. */
export async function storeCodeTaken(db: DbOrTx, clientId: number, code: string, exceptId: number) {
  const r = await db.execute(
    sql`select 1 from client_stores where client_id = ${clientId} and code = ${code} and id <> ${exceptId}`,
  );
  return r.rows.length > 0;
}

/** How many of `ids` are the business's devices. */
export async function countOwnDevices(db: DbOrTx, clientId: number, ids: readonly number[]): Promise<number> {
  const r = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from tax_devices where client_id = ${clientId} and id = any(${intArray(ids)}::int[])`,
  );
  return r.rows[0]!.n;
}

export async function insertStore(db: DbOrTx, clientId: number, name: string, code: string): Promise<number> {
  const r = await db.execute<{ id: number }>(
    sql`insert into client_stores (client_id, name, code) values (${clientId}, ${name}, ${code}) returning id`,
  );
  return r.rows[0]!.id;
}

export async function updateStore(db: DbOrTx, id: number, name: string, code: string): Promise<void> {
  await db.execute(sql`update client_stores set name = ${name}, code = ${code} where id = ${id}`);
}

export async function upsertSettings(
  db: DbOrTx,
  clientId: number,
  storeId: number,
  s: { default_invoice_types: readonly string[]; remark: string },
): Promise<void> {
  await db.execute(sql`insert into store_settings (store_id, client_id, default_invoice_types, remark)
    values (${storeId}, ${clientId}, ${`{${s.default_invoice_types.join(',')}}`}::text[], ${s.remark})
    on conflict (store_id, client_id) do update set default_invoice_types = excluded.default_invoice_types,
      remark = excluded.remark, updated_at = now()`);
}

/** The store issues through exactly these devices. */
export async function replaceDevices(
  db: DbOrTx,
  clientId: number,
  storeId: number,
  deviceIds: readonly number[],
): Promise<void> {
  await db.execute(sql`delete from device_stores where store_id = ${storeId}`);
  if (deviceIds.length > 0) {
    await db.execute(
      sql`insert into device_stores (device_id, store_id, client_id)
        select unnest(${intArray(deviceIds)}::int[]), ${storeId}, ${clientId}`,
    );
  }
}

/** Sets a store's status; false when the business has no such store. */
export async function updateStatus(
  db: DbOrTx,
  clientId: number,
  id: number,
  status: string,
): Promise<boolean> {
  const r = await db.execute(
    sql`update client_stores set status = ${status} where id = ${id} and client_id = ${clientId} returning id`,
  );
  return r.rows.length > 0;
}
