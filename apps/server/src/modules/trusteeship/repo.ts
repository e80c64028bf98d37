import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { LeftJoined, Prefixed, RawRow } from '../../db/rows.ts';
import type { deviceTrusteeships, taxDevices } from '../../db/schema/index.ts';
import { deviceSql, type Scope, storeSql } from '../../lib/scope.ts';

type Db = FastifyInstance['db'];
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** SQL only (style.md): the trusteeship rows of a business and their grants. */

type TrustRaw = RawRow<typeof deviceTrusteeships>;

/** The device's columns and its latest trusteeship's (left-joined; `t.id as trust_id`, `t.status as trust_status`). */
export type DeviceRow = Pick<
  RawRow<typeof taxDevices>,
  'id' | 'kind' | 'name' | 'device_no' | 'extension_no' | 'parent_id' | 'status' | 'invoice_types'
> &
  LeftJoined<
    Prefixed<'trust_', Pick<TrustRaw, 'id' | 'status'>> &
      Pick<
        TrustRaw,
        'mode' | 'location' | 'contact_mobile' | 'handed_over_at' | 'revoked_at' | 'revoke_reason'
      >
  > & {
    /** the handing-over user's nickname ('' when unknown) */
    handed_over_by: string | null;
    bound: { id: number; name: string }[] | null;
    granted: { id: number; name: string }[] | null;
  };

const rows = async <T>(db: Db | Tx, q: SQL) => (await db.execute(q)).rows as T[];

/** Every active device of the business with its latest trusteeship (hosted, else the last revoked). */
export function listDevices(db: Db, scope: Scope, deviceId?: number): Promise<DeviceRow[]> {
  return rows<DeviceRow>(
    db,
    sql`
    select d.id, d.kind, d.name, d.device_no, d.extension_no, d.parent_id, d.status, d.invoice_types,
      t.id as trust_id, t.status as trust_status, t.mode, t.location, t.contact_mobile,
      t.handed_over_at, coalesce(u.nickname, '') as handed_over_by, t.revoked_at, t.revoke_reason,
      (select jsonb_agg(jsonb_build_object('id', s.id, 'name', s.name) order by s.id)
         from device_stores ds join client_stores s on s.id = ds.store_id
         where ds.device_id = d.id and ${storeSql(scope, sql`s.id`)}) as bound,
      (select jsonb_agg(jsonb_build_object('id', s.id, 'name', s.name) order by s.id)
         from trusteeship_grants g join client_stores s on s.id = g.store_id
         where g.device_id = d.id and ${storeSql(scope, sql`s.id`)}) as granted
    from tax_devices d
    left join lateral (
      select * from device_trusteeships x where x.device_id = d.id
      order by (x.status = 'hosted') desc, x.id desc limit 1) t on true
    left join users u on u.id = t.handed_over_by
    where d.client_id = ${scope.clientId} and d.status = 'active' and ${deviceSql(scope, sql`d.id`)}
      ${deviceId === undefined ? sql`` : sql`and d.id = ${deviceId}`}
    order by case d.kind when 'digital' then 0 else 1 end, d.id`,
  );
}

/** The business's stores within the scope. */
export function listStores(db: Db, scope: Scope): Promise<{ id: number; name: string }[]> {
  return rows(
    db,
    sql`select id, name from client_stores where client_id = ${scope.clientId} and ${storeSql(scope, sql`id`)} order by id`,
  );
}

/** The ids among `ids` that are stores of the business. */
export async function storesOfClient(db: Db | Tx, clientId: number, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const r = await rows<{ id: number }>(
    db,
    sql`select id from client_stores where client_id = ${clientId} and id = any(${`{${ids.join(',')}}`}::int[])`,
  );
  return r.map((x) => x.id);
}

/** The device row, locked, when it belongs to the business and the scope may use it. */
export async function lockDevice(tx: Tx, scope: Scope, deviceId: number) {
  const [d] = await rows<{ id: number; kind: string; status: string }>(
    tx,
    sql`select id, kind, status from tax_devices d where id = ${deviceId} and client_id = ${scope.clientId}
      and ${deviceSql(scope, sql`d.id`)} for update`,
  );
  return d ?? null;
}

export async function hostedTrusteeship(tx: Tx, deviceId: number) {
  const [t] = await rows<{ id: number }>(
    tx,
    sql`select id from device_trusteeships where device_id = ${deviceId} and status = 'hosted'`,
  );
  return t ?? null;
}

export async function insertTrusteeship(
  tx: Tx,
  v: {
    clientId: number;
    deviceId: number;
    mode: string;
    location: string;
    contactMobile: string;
    userId: number;
  },
): Promise<number> {
  const [r] = await rows<{ id: number }>(
    tx,
    sql`insert into device_trusteeships (client_id, device_id, mode, location, contact_mobile, handed_over_by)
      values (${v.clientId}, ${v.deviceId}, ${v.mode}, ${v.location}, ${v.contactMobile}, ${v.userId})
      returning id`,
  );
  return r!.id;
}

/**
 * Makes the grants of a hosted device exactly `storeIds` within `scope` (the employee's stores; null =
 * every store): grants of stores outside the scope are left as they are.
 */
export async function replaceGrants(
  tx: Tx,
  v: {
    clientId: number;
    deviceId: number;
    trusteeshipId: number;
    storeIds: number[];
    scope: number[] | null;
    userId: number;
  },
): Promise<void> {
  const ids = `{${v.storeIds.join(',')}}`;
  await tx.execute(sql`
    delete from trusteeship_grants where device_id = ${v.deviceId} and not (store_id = any(${ids}::int[]))
      ${v.scope ? sql`and store_id = any(${`{${v.scope.join(',')}}`}::int[])` : sql``}`);
  await tx.execute(sql`
    insert into trusteeship_grants (device_id, store_id, trusteeship_id, client_id, granted_by)
    select ${v.deviceId}, s, ${v.trusteeshipId}, ${v.clientId}, ${v.userId} from unnest(${ids}::int[]) s
    on conflict (device_id, store_id, client_id) do nothing`);
}

/** Ends a trusteeship: the grants go (issuing through them stops at once), the row keeps the history. */
export async function revokeTrusteeship(
  tx: Tx,
  v: { trusteeshipId: number; deviceId: number; reason: string; userId: number },
): Promise<void> {
  await tx.execute(sql`
    with gone as (delete from trusteeship_grants where device_id = ${v.deviceId} returning store_id)
    update device_trusteeships set status = 'revoked', revoked_at = now(), revoked_by = ${v.userId},
      revoke_reason = ${v.reason}, revoked_store_ids = coalesce((select array_agg(store_id order by store_id) from gone), '{}')
    where id = ${v.trusteeshipId}`);
  await tx.execute(sql`update tax_devices set hosted = false where id = ${v.deviceId}`);
}

/**
 * The hosting centre brings a handed-over device online in its cabinet (sandbox); `hosted` is the flag
 * the devices pages label (e.g. 金税盘-托管).
 */
export async function markHosted(tx: Tx, deviceId: number): Promise<void> {
  await tx.execute(sql`update tax_devices set online = true, hosted = true where id = ${deviceId}`);
}
