import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../channels/numbers.ts';
import type { LeftJoined, RawRow } from '../../db/rows.ts';
import type {
  channelNumberRanges,
  deviceFilings,
  stockMovements,
  taxDevices,
} from '../../db/schema/index.ts';
import { deviceSql, employeeScope, refuseIfOtherStore, type Scope, storeSql } from '../../lib/scope.ts';

/**
 * The SQL of devices, 电子税务局 accounts, invoice stock and monthly filing (issue 19 item 4): the
 * services hold the rules, this file the statements. Every read is inside the business
 * (`client_id`), and store-owned rows go through lib/scope.ts's helpers.
 */

const intArray = (ids: readonly number[]) => `{${ids.join(',')}}`;
/** The stores the employee may use, whatever store is selected (devices are a management page). */
const permitted = (scope: Scope) => employeeScope(scope).storeIds;

// ---- devices ---------------------------------------------------------------------------------

type DeviceRaw = RawRow<typeof taxDevices>;

/** The device's columns, its stock left per invoice type and the stores it is bound to. */
export type DeviceRow = Pick<
  DeviceRaw,
  | 'id'
  | 'kind'
  | 'channel'
  | 'name'
  | 'device_no'
  | 'extension_no'
  | 'parent_id'
  | 'hosted'
  | 'online'
  | 'locked'
  | 'status'
  | 'invoice_types'
  | 'per_invoice_limit'
  | 'monthly_quota'
  | 'quota_used'
  | 'quota_month'
> & {
  stock: Record<string, number | string> | null;
  stores: Array<{ client_store_id: number; name: string }> | null;
};

/** The device columns, with the stores it is bound to named only where the employee may see them. */
const deviceSelect = (scope: Scope) => sql`
  select d.id, d.kind, d.channel, d.name, d.device_no, d.extension_no, d.parent_id, d.hosted, d.online, d.locked,
    d.status, d.invoice_types, d.per_invoice_limit, d.monthly_quota, d.quota_used, d.quota_month,
    (select jsonb_object_agg(s.invoice_type, s.left) from (
       select r.invoice_type, sum(r.end_no - r.next_no + 1) as left from channel_number_ranges r
       where r.device_id = d.id and r.next_no <= r.end_no group by r.invoice_type) s) as stock,
    (select jsonb_agg(jsonb_build_object('client_store_id', cs.id, 'name', cs.name) order by cs.id)
       from device_stores ds join client_stores cs on cs.id = ds.store_id
       where ds.device_id = d.id and ${storeSql(permitted(scope), sql`cs.id`)}) as stores
  from tax_devices d where d.client_id = ${scope.clientId}`;

/** The business's devices, those bound to one of `stores` when given: 数电 first, branches after their main disc. */
export async function selectDevices(
  db: DbOrTx,
  scope: Scope,
  stores: readonly number[] | null,
): Promise<DeviceRow[]> {
  const res = await db.execute<DeviceRow>(sql`${deviceSelect(scope)}
    ${stores ? sql`and exists (select 1 from device_stores ds where ds.device_id = d.id and ds.store_id = any(${intArray(stores)}::int[]))` : sql``}
    order by case d.kind when 'digital' then 0 else 1 end, coalesce(d.parent_id, d.id), d.extension_no, d.id`);
  return res.rows;
}

/** One device of the business (locked `for update` when asked), or undefined. */
export async function selectDevice(
  db: DbOrTx,
  scope: Scope,
  id: number,
  lock: boolean,
): Promise<DeviceRow | undefined> {
  const res = await db.execute<DeviceRow>(sql`${deviceSelect(scope)} and d.id = ${id}
    ${lock ? sql`for update of d` : sql``}`);
  return res.rows[0];
}

/** A device's number ranges that still hold numbers. */
export async function selectOpenRanges(db: DbOrTx, clientId: number, deviceId: number) {
  const res = await db.execute<
    Pick<
      RawRow<typeof channelNumberRanges>,
      'invoice_type' | 'invoice_code' | 'start_no' | 'end_no' | 'next_no'
    >
  >(sql`select invoice_type, invoice_code, start_no, end_no, next_no from channel_number_ranges
    where device_id = ${deviceId} and client_id = ${clientId} and next_no <= end_no order by invoice_type, id`);
  return res.rows;
}

/** A main disc's branch discs. */
export async function selectBranches(db: DbOrTx, clientId: number, deviceId: number) {
  const res = await db.execute<Pick<DeviceRaw, 'id' | 'name' | 'extension_no'>>(
    sql`select id, name, extension_no from tax_devices where parent_id = ${deviceId} and client_id = ${clientId} order by extension_no`,
  );
  return res.rows;
}

// ---- tax accounts ----------------------------------------------------------------------------

export type AccountRow = {
  id: number;
  account: string;
  phone: string;
  identity: string;
  person_name: string;
  channel: string;
  device_id: number | null;
  device_name: string | null;
  white_listed: boolean;
  login_state: string;
  real_name_state: string;
  session_expires_at: string | null;
  status: string;
  has_password: boolean;
};

/**
 * A tax account is the stores' whose device it logs in (an account without a device is the whole
 * business's): a store-scoped employee reaches only accounts of devices bound or granted to its stores.
 */
const accountInScope = (scope: Scope) => deviceSql(permitted(scope), sql`a.device_id`);

/**
 * Accounts with their effective state: the account's own columns, or the real-name module's live
 * session of the account's 数电 device (realname_sessions), whichever is later. The password column
 * is never selected here.
 */
export async function selectAccountStates(db: DbOrTx, scope: Scope): Promise<AccountRow[]> {
  const res = await db.execute<AccountRow>(sql`
    select a.id, a.account, a.phone, a.identity, a.person_name, a.channel, a.device_id, d.name as device_name,
      a.white_listed, a.status, (a.password_enc <> '') as has_password,
      x.expires as session_expires_at,
      case when x.expires > now() then 'online' else 'offline' end as login_state,
      case
        when rs.auth_status = 2 and x.expires > now() then 'verified'
        when rs.auth_status = 1 then 'pending'
        when rs.auth_status in (3, 4) then 'expired'
        when a.real_name_state = 'verified' and not (x.expires > now()) then 'expired'
        else a.real_name_state end as real_name_state
    from tax_accounts a
    left join tax_devices d on d.id = a.device_id
    left join realname_sessions rs on rs.client_id = a.client_id and rs.device_id = a.device_id
    cross join lateral (select greatest(a.session_expires_at, rs.login_expires_at) as expires) x
    where a.client_id = ${scope.clientId} and ${accountInScope(scope)}
    order by a.id`);
  return res.rows;
}

/** The business flag the login and menu read: whether any active account is white-listed. */
export async function syncWhiteList(db: DbOrTx, clientId: number): Promise<void> {
  await db.execute(sql`update clients set has_white_listed_tax_account = exists (
    select 1 from tax_accounts where client_id = ${clientId} and white_listed and status = 'active') where id = ${clientId}`);
}

export async function selectWhiteListed(db: DbOrTx, clientId: number) {
  const res = await db.execute<{ id: number; account: string; person_name: string }>(
    sql`select id, account, person_name from tax_accounts where client_id = ${clientId} and white_listed and status = 'active' order by id`,
  );
  return res.rows;
}

/** Whether another account of the business (not `exceptId`) already uses this account name. */
export async function accountTaken(db: DbOrTx, clientId: number, account: string, exceptId: number) {
  const res = await db.execute(
    sql`select 1 from tax_accounts where client_id = ${clientId} and account = ${account} and id <> ${exceptId}`,
  );
  return res.rows.length > 0;
}

export type AccountValues = {
  device_id: number | null;
  account: string;
  phone: string;
  identity: string;
  person_name: string;
  channel: string;
};

export async function insertAccount(
  db: DbOrTx,
  clientId: number,
  a: AccountValues,
  sealedPassword: string,
): Promise<number> {
  const r = await db.execute<{ id: number }>(sql`insert into tax_accounts
    (client_id, device_id, account, password_enc, phone, identity, person_name, channel)
    values (${clientId}, ${a.device_id}, ${a.account}, ${sealedPassword}, ${a.phone}, ${a.identity},
      ${a.person_name}, ${a.channel}) returning id`);
  return r.rows[0]!.id;
}

/**
 * Updates an account the employee may reach; an empty phone or a null password keeps the stored one,
 * and a new password or account ends the bureau session. False when no such account is in scope.
 */
export async function updateAccount(
  db: DbOrTx,
  scope: Scope,
  id: number,
  a: AccountValues,
  sealedPassword: string | null,
): Promise<boolean> {
  const r = await db.execute(sql`update tax_accounts a set device_id = ${a.device_id}, account = ${a.account},
      password_enc = coalesce(${sealedPassword}, password_enc), phone = case when ${a.phone} = '' then phone else ${a.phone} end, identity = ${a.identity},
      person_name = ${a.person_name}, channel = ${a.channel},
      -- a new password or account ends the bureau session
      login_state = case when ${sealedPassword}::text is null and account = ${a.account} then login_state else 'offline' end,
      session_expires_at = case when ${sealedPassword}::text is null and account = ${a.account} then session_expires_at else null end,
      updated_at = now()
    where id = ${id} and client_id = ${scope.clientId} and ${accountInScope(scope)} returning id`);
  return r.rows.length > 0;
}

/** Sets an in-scope account's status; false when no such account is in scope. */
export async function updateAccountStatus(
  db: DbOrTx,
  scope: Scope,
  id: number,
  status: string,
): Promise<boolean> {
  const r = await db.execute(
    sql`update tax_accounts a set status = ${status}, updated_at = now()
      where id = ${id} and client_id = ${scope.clientId} and ${accountInScope(scope)} returning id`,
  );
  return r.rows.length > 0;
}

/** Refuses (store not permitted) when the account exists in the business but outside the caller's stores. */
export async function refuseOtherStoreAccount(db: DbOrTx, clientId: number, id: number): Promise<void> {
  await refuseIfOtherStore(db, sql`select 1 from tax_accounts where id = ${id} and client_id = ${clientId}`);
}

/** The employees who may issue for the business: administrators and those with a scope in it. */
export async function selectIssuingClerks(db: DbOrTx, orgId: number, clientId: number) {
  const res = await db.execute<{ id: number; name: string }>(sql`
    select e.id, u.nickname as name from employees e join users u on u.id = e.user_id
    where e.org_id = ${orgId} and e.status = 'active'
      and (e.role = 'admin' or e.is_group_admin
        or exists (select 1 from employee_scopes s where s.employee_id = e.id and s.client_id = ${clientId}))
    order by e.id`);
  return res.rows;
}

// ---- stock -----------------------------------------------------------------------------------

/** The newest 200 stock movements of the business, or of one device (as source or target). */
export async function selectMovements(db: DbOrTx, clientId: number, deviceId?: number) {
  const res = await db.execute<
    Pick<
      RawRow<typeof stockMovements>,
      | 'id'
      | 'kind'
      | 'device_id'
      | 'target_device_id'
      | 'invoice_type'
      | 'count'
      | 'invoice_code'
      | 'start_no'
      | 'end_no'
      | 'created_at'
    > & { device_name: string; target_device_name: string | null }
  >(sql`select m.id, m.kind, m.device_id, d.name as device_name, m.target_device_id, t.name as target_device_name,
      m.invoice_type, m.count, m.invoice_code, m.start_no, m.end_no, m.created_at
    from stock_movements m join tax_devices d on d.id = m.device_id left join tax_devices t on t.id = m.target_device_id
    where m.client_id = ${clientId}
      ${deviceId ? sql`and (m.device_id = ${deviceId} or m.target_device_id = ${deviceId})` : sql``}
    order by m.id desc limit 200`);
  return res.rows;
}

/** Ranges of one code are numbered from max(end_no) + 1: one grant per invoice type at a time. */
export async function lockStockGrant(tx: DbOrTx, invoiceType: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(727021, hashtext(${invoiceType}))`);
}

export type Movement = {
  kind: 'apply' | 'distribute' | 'return';
  deviceId: number;
  targetDeviceId: number | null;
  invoiceType: string;
  count: number;
  invoiceCode: string;
  startNo: number;
  endNo: number;
  userId: number;
};

export async function insertMovement(tx: DbOrTx, clientId: number, m: Movement): Promise<void> {
  await tx.execute(sql`insert into stock_movements (client_id, kind, device_id, target_device_id, invoice_type, count, invoice_code, start_no, end_no, user_id)
    values (${clientId}, ${m.kind}, ${m.deviceId}, ${m.targetDeviceId}, ${m.invoiceType}, ${m.count}, ${m.invoiceCode}, ${m.startNo}, ${m.endNo}, ${m.userId})`);
}

/** A device's ranges of one kind that still hold numbers, newest first, locked `for update`. */
export async function lockOpenRanges(tx: DbOrTx, deviceId: number, invoiceType: string) {
  const res = await tx.execute<
    Pick<RawRow<typeof channelNumberRanges>, 'id' | 'invoice_code' | 'start_no' | 'end_no' | 'next_no'>
  >(
    sql`select id, invoice_code, start_no, end_no, next_no from channel_number_ranges
      where device_id = ${deviceId} and invoice_type = ${invoiceType} and next_no <= end_no
      order by id desc for update`,
  );
  return res.rows;
}

/** A whole untouched range changes device. */
export async function moveRange(tx: DbOrTx, rangeId: number, toDeviceId: number): Promise<void> {
  await tx.execute(sql`update channel_number_ranges set device_id = ${toDeviceId} where id = ${rangeId}`);
}

/** The last `take` numbers of a range are cut off into a new range of `toDeviceId`. */
export async function cutRangeTail(
  tx: DbOrTx,
  clientId: number,
  range: { id: number; invoice_code: string; end_no: number },
  take: number,
  toDeviceId: number,
  invoiceType: string,
): Promise<void> {
  const start = range.end_no - take + 1;
  await tx.execute(sql`update channel_number_ranges set end_no = end_no - ${take} where id = ${range.id}`);
  await tx.execute(sql`insert into channel_number_ranges (client_id, device_id, invoice_type, invoice_code, start_no, end_no, next_no)
    values (${clientId}, ${toDeviceId}, ${invoiceType}, ${range.invoice_code}, ${start}, ${range.end_no}, ${start})`);
}

// ---- filing ----------------------------------------------------------------------------------

/** The device (`d.id as device_id`, its creation) and its filing of the period, if any (left-joined). */
export type FilingRow = { device_id: DeviceRaw['id'] } & Pick<DeviceRaw, 'created_at'> &
  LeftJoined<Pick<RawRow<typeof deviceFilings>, 'copied_at' | 'cleared_at' | 'upload_no'>>;

/** Each device's filing row for the period (null columns where it has none). */
export async function selectFilings(
  db: DbOrTx,
  clientId: number,
  deviceIds: readonly number[],
  period: string,
): Promise<FilingRow[]> {
  const res = await db.execute<FilingRow>(sql`
    select d.id as device_id, d.created_at, f.copied_at, f.cleared_at, f.upload_no
    from tax_devices d left join device_filings f on f.device_id = d.id and f.period = ${period}
    where d.client_id = ${clientId} and d.id = any(${intArray(deviceIds)}::int[])`);
  return res.rows;
}

/** One device's filing row for the period, the device locked `for update`. */
export async function lockFiling(tx: DbOrTx, deviceId: number, period: string): Promise<FilingRow> {
  const res = await tx.execute<FilingRow>(
    sql`select d.id as device_id, d.created_at, f.copied_at, f.cleared_at, f.upload_no
      from tax_devices d left join device_filings f on f.device_id = d.id and f.period = ${period}
      where d.id = ${deviceId} for update of d`,
  );
  return res.rows[0]!;
}

/**
 * Issued in [from, to): by `issued_at`, and by `coalesce(issued_at, created_at)` — the same value for
 * an issued or voided invoice — so that the business's month is read through the library's
 * invoices_lib_cover_idx (migration 0020 dropped the issue-time index that only these read).
 */
const issuedIn = (
  from: Date,
  to: Date,
) => sql`issued_at >= ${from.toISOString()} and issued_at < ${to.toISOString()}
  and coalesce(issued_at, created_at) >= ${from.toISOString()} and coalesce(issued_at, created_at) < ${to.toISOString()}`;

/** Issued and voided invoices per device in [from, to): what a summary upload (抄税) reports. */
export async function selectPeriodTotals(
  db: DbOrTx,
  clientId: number,
  deviceIds: readonly number[],
  from: Date,
  to: Date,
) {
  const res = await db.execute<{ device_id: number; n: number; amount: string; tax: string }>(sql`
    select device_id, count(*)::int as n, coalesce(sum(total_amount), 0)::numeric(18,2)::text as amount,
      coalesce(sum(total_tax), 0)::numeric(18,2)::text as tax
    from invoices where client_id = ${clientId} and device_id = any(${intArray(deviceIds)}::int[])
      and status in ('issued', 'voided') and ${issuedIn(from, to)}
    group by device_id`);
  return res.rows;
}

/** 抄税: records the period's totals of the device as uploaded now. */
export async function recordCopy(
  tx: DbOrTx,
  f: {
    clientId: number;
    deviceId: number;
    period: string;
    from: Date;
    to: Date;
    uploadNo: string;
    userId: number;
  },
): Promise<void> {
  await tx.execute(sql`insert into device_filings (client_id, device_id, period, copied_at, invoice_count, total_amount, total_tax, upload_no, user_id)
    select ${f.clientId}, ${f.deviceId}, ${f.period}, now(), count(*), coalesce(sum(total_amount), 0), coalesce(sum(total_tax), 0), ${f.uploadNo}, ${f.userId}
    from invoices where client_id = ${f.clientId} and device_id = ${f.deviceId}
      and status in ('issued', 'voided') and ${issuedIn(f.from, f.to)}
    on conflict (device_id, period, client_id) do update set copied_at = now(), invoice_count = excluded.invoice_count,
      total_amount = excluded.total_amount, total_tax = excluded.total_tax, upload_no = excluded.upload_no`);
}

/** 清卡: the period is cleared and the device's filing lock lifted. */
export async function recordClear(tx: DbOrTx, deviceId: number, period: string): Promise<void> {
  await tx.execute(
    sql`update device_filings set cleared_at = now() where device_id = ${deviceId} and period = ${period}`,
  );
  await tx.execute(sql`update tax_devices set locked = false where id = ${deviceId}`);
}
