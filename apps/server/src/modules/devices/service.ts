import { beijingMonth, DEVICE_CODE } from '@kaipiao/shared';
import { DEVICE_KIND_LABELS, maskPhone, type TaxAccountBody } from '@kaipiao/shared/schemas/devices';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { DbOrTx } from '../../channels/numbers.ts';
import { addNumberRange } from '../../channels/numbers.ts';
import { AppError } from '../../lib/app-error.ts';
import { deviceSql, refuseIfOtherStore, storeRefused, storeSql } from '../../lib/scope.ts';
import { sealSecret } from '../../lib/secret-box.ts';
import type { ClientAccess } from '../session/access.ts';
import { filesMonthly, filingClock, filingFlags, filingRefusal, isLiable } from './filing.ts';
import { applyFilingLocks } from './filing-locks.ts';

type App = FastifyInstance;
type Actor = { access: ClientAccess; userId: number };

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);
const intArray = (ids: number[]) => `{${ids.join(',')}}`;

// ---- devices ---------------------------------------------------------------------------------

type DeviceRow = {
  id: number;
  kind: string;
  channel: string;
  name: string;
  device_no: string;
  extension_no: number;
  parent_id: number | null;
  hosted: boolean;
  online: boolean;
  locked: boolean;
  status: string;
  invoice_types: string[];
  per_invoice_limit: string;
  monthly_quota: string | null;
  quota_used: string;
  quota_month: string;
  stock: Record<string, number | string> | null;
  stores: Array<{ client_store_id: number; name: string }> | null;
};

/** The device columns, with the stores it is bound to named only where the employee may see them. */
const deviceSelect = (access: ClientAccess) => sql`
  select d.id, d.kind, d.channel, d.name, d.device_no, d.extension_no, d.parent_id, d.hosted, d.online, d.locked,
    d.status, d.invoice_types, d.per_invoice_limit, d.monthly_quota, d.quota_used, d.quota_month,
    (select jsonb_object_agg(s.invoice_type, s.left) from (
       select r.invoice_type, sum(r.end_no - r.next_no + 1) as left from channel_number_ranges r
       where r.device_id = d.id and r.next_no <= r.end_no group by r.invoice_type) s) as stock,
    (select jsonb_agg(jsonb_build_object('client_store_id', cs.id, 'name', cs.name) order by cs.id)
       from device_stores ds join client_stores cs on cs.id = ds.store_id
       where ds.device_id = d.id and ${storeSql(permitted(access), sql`cs.id`)}) as stores
  from tax_devices d where d.client_id = ${access.clientId}`;
const permitted = (access: ClientAccess) => (access.storeIds === null ? null : [...access.storeIds]);

function toDevice(d: DeviceRow) {
  const month = beijingMonth();
  return {
    device_id: d.id,
    name: d.name,
    kind: d.kind,
    kind_name: d.hosted
      ? `${DEVICE_KIND_LABELS[d.kind] ?? d.kind}-托管`
      : (DEVICE_KIND_LABELS[d.kind] ?? d.kind),
    channel: d.channel,
    device_no: d.device_no,
    extension_no: d.extension_no,
    parent_id: d.parent_id,
    is_main: d.parent_id === null && d.extension_no === 0,
    hosted: d.hosted,
    online: d.online,
    locked: d.locked,
    status: d.status,
    invoice_types: d.invoice_types,
    per_invoice_limit: d.per_invoice_limit,
    monthly_quota: d.monthly_quota,
    quota_used: d.quota_month === month ? d.quota_used : '0.00',
    stock: Object.fromEntries(Object.entries(d.stock ?? {}).map(([k, v]) => [k, Number(v)])),
    stores: d.stores ?? [],
  };
}

/**
 * Devices the user may see: every device for whole-business users, else those bound to their stores.
 * A 锁死期 that has come is applied first, so what is shown is what issuing will find.
 */
export async function listDevices(app: App, access: ClientAccess, storeId?: number) {
  await applyFilingLocks(app.db, new Date(), access.clientId);
  const stores =
    storeId !== undefined && storeId > 0 ? [storeId] : access.storeIds ? [...access.storeIds] : null;
  const res = await app.db.execute<DeviceRow>(sql`${deviceSelect(access)}
    ${stores ? sql`and exists (select 1 from device_stores ds where ds.device_id = d.id and ds.store_id = any(${intArray(stores)}::int[]))` : sql``}
    order by case d.kind when 'digital' then 0 else 1 end, coalesce(d.parent_id, d.id), d.extension_no, d.id`);
  return res.rows.map(toDevice);
}

/** One device of the business; another business's id is refused as not found. */
export async function loadDevice(db: DbOrTx, access: ClientAccess, id: number, lock = false) {
  const res = await db.execute<DeviceRow>(sql`${deviceSelect(access)} and d.id = ${id}
    ${lock ? sql`for update of d` : sql``}`);
  const row = res.rows[0];
  if (!row) throw new AppError(DEVICE_CODE.DEVICE_NOT_FOUND);
  if (access.storeIds && !(row.stores ?? []).some((s) => access.storeIds!.has(s.client_store_id))) {
    throw storeRefused();
  }
  return toDevice(row);
}

export async function deviceDetail(app: App, access: ClientAccess, id: number) {
  await applyFilingLocks(app.db, new Date(), access.clientId);
  const d = await loadDevice(app.db, access, id);
  const ranges = await app.db.execute<{
    invoice_type: string;
    invoice_code: string;
    start_no: number;
    end_no: number;
    next_no: number;
  }>(sql`select invoice_type, invoice_code, start_no, end_no, next_no from channel_number_ranges
    where device_id = ${id} and client_id = ${access.clientId} and next_no <= end_no order by invoice_type, id`);
  const branches = await app.db.execute<{ id: number; name: string; extension_no: number }>(
    sql`select id, name, extension_no from tax_devices where parent_id = ${id} and client_id = ${access.clientId} order by extension_no`,
  );
  const movements = await listMovements(app, access, id);
  const filings = filesMonthly(d.kind) ? await listFilings(app, access, id) : [];
  return {
    ...d,
    ranges: ranges.rows.map((r) => ({ ...r, left: r.end_no - r.next_no + 1 })),
    branches: branches.rows.map((b) => ({ device_id: b.id, name: b.name, extension_no: b.extension_no })),
    movements,
    filing: filings[0] ?? null,
  };
}

export async function groupByChannel(app: App, access: ClientAccess) {
  const devices = await listDevices(app, access);
  const groups = new Map<string, typeof devices>();
  for (const d of devices.filter((x) => x.status === 'active')) {
    const key = d.channel || d.kind;
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  return [...groups].map(([channel, list]) => ({
    channel,
    kind_name: list[0]!.kind_name,
    devices: list.map((d) => ({
      device_id: d.device_id,
      name: d.name,
      is_main: d.is_main,
      online: d.online,
    })),
  }));
}

/**
 * spec §7 check-tax, the device check: each device's readiness, and `check_auth` (spec §4: the
 * device-authorisation socket opens while it is 1). Whether a 数电 device needs authorisation is the
 * real-name module's answer (realname_sessions and the bureau's prompts), the state the socket carries.
 */
export async function checkTax(app: App, access: ClientAccess) {
  const devices = (await listDevices(app, access)).filter((d) => d.status === 'active');
  const needs = devices.some((d) => d.kind === 'digital')
    ? await app.realName.service.authNeeds(access.clientId)
    : new Map<number, boolean>();
  const items = devices.map((d) => {
    const needAuth = needs.get(d.device_id) === true;
    const message = !d.online
      ? '设备离线'
      : d.locked
        ? '设备已锁死，请完成抄税清卡'
        : needAuth
          ? '税局登录已失效，请重新登录并实名认证'
          : '正常';
    return {
      device_id: d.device_id,
      name: d.name,
      online: d.online,
      locked: d.locked,
      need_auth: needAuth,
      message,
    };
  });
  return { check_auth: items.some((x) => x.need_auth) ? (1 as const) : (0 as const), devices: items };
}

// ---- stores ----------------------------------------------------------------------------------

export async function listStores(app: App, access: ClientAccess, includeDisabled: boolean) {
  const res = await app.db.execute<{
    id: number;
    name: string;
    code: string;
    status: string;
    default_invoice_types: string[] | null;
    remark: string | null;
    devices: Array<{ device_id: number; name: string; kind: string }> | null;
  }>(sql`select cs.id, cs.name, cs.code, cs.status, ss.default_invoice_types, ss.remark,
      (select jsonb_agg(jsonb_build_object('device_id', d.id, 'name', d.name, 'kind', d.kind) order by d.id)
        from device_stores ds join tax_devices d on d.id = ds.device_id where ds.store_id = cs.id) as devices
    from client_stores cs left join store_settings ss on ss.store_id = cs.id
    where cs.client_id = ${access.clientId} ${includeDisabled ? sql`` : sql`and cs.status = 'active'`}
    order by cs.id`);
  return res.rows
    .filter((s) => access.storeIds === null || access.storeIds.has(s.id))
    .map((s) => ({
      client_store_id: s.id,
      name: s.name,
      code: s.code,
      status: s.status,
      default_invoice_types: s.default_invoice_types ?? [],
      remark: s.remark ?? '',
      devices: s.devices ?? [],
    }));
}

export async function saveStore(
  app: App,
  access: ClientAccess,
  body: {
    client_store_id?: number;
    name: string;
    code: string;
    default_invoice_types: string[];
    device_ids: number[];
    remark: string;
  },
) {
  return app.db.transaction(async (tx) => {
    let id = body.client_store_id;
    if (id !== undefined) {
      const r = await tx.execute(
        sql`select 1 from client_stores where id = ${id} and client_id = ${access.clientId}`,
      );
      if (r.rows.length === 0) throw new AppError(DEVICE_CODE.STORE_NOT_FOUND);
      if (access.storeIds && !access.storeIds.has(id)) throw storeRefused();
    }
    const taken = await tx.execute(
      sql`select 1 from client_stores where client_id = ${access.clientId} and code = ${body.code} and id <> ${id ?? 0}`,
    );
    if (taken.rows.length > 0) throw new AppError(DEVICE_CODE.STORE_CODE_TAKEN);
    const ids = [...new Set(body.device_ids)];
    if (ids.length > 0) {
      const own = await tx.execute(
        sql`select count(*)::int as n from tax_devices where client_id = ${access.clientId} and id = any(${intArray(ids)}::int[])`,
      );
      if ((own.rows[0] as { n: number }).n !== ids.length) throw new AppError(DEVICE_CODE.DEVICE_NOT_FOUND);
    }
    if (id === undefined) {
      const r = await tx.execute<{ id: number }>(
        sql`insert into client_stores (client_id, name, code) values (${access.clientId}, ${body.name}, ${body.code}) returning id`,
      );
      id = r.rows[0]!.id;
    } else {
      await tx.execute(
        sql`update client_stores set name = ${body.name}, code = ${body.code} where id = ${id}`,
      );
    }
    await tx.execute(sql`insert into store_settings (store_id, client_id, default_invoice_types, remark)
      values (${id}, ${access.clientId}, ${`{${body.default_invoice_types.join(',')}}`}::text[], ${body.remark})
      on conflict (store_id) do update set default_invoice_types = excluded.default_invoice_types,
        remark = excluded.remark, updated_at = now()`);
    await tx.execute(sql`delete from device_stores where store_id = ${id}`);
    if (ids.length > 0) {
      await tx.execute(
        sql`insert into device_stores (device_id, store_id) select unnest(${intArray(ids)}::int[]), ${id}`,
      );
    }
    return id;
  });
}

export async function setStoreStatus(app: App, access: ClientAccess, id: number, status: string) {
  if (access.storeIds && !access.storeIds.has(id)) {
    await refuseIfOtherStore(
      app.db,
      sql`select 1 from client_stores where id = ${id} and client_id = ${access.clientId}`,
    );
    throw new AppError(DEVICE_CODE.STORE_NOT_FOUND);
  }
  const r = await app.db.execute(
    sql`update client_stores set status = ${status} where id = ${id} and client_id = ${access.clientId} returning id`,
  );
  if (r.rows.length === 0) throw new AppError(DEVICE_CODE.STORE_NOT_FOUND);
}

// ---- tax accounts ----------------------------------------------------------------------------

type AccountRow = {
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
 * Accounts with their effective state: the account's own columns, or the real-name module's live
 * session of the account's 数电 device (realname_sessions), whichever is later. The password column
 * is never selected here.
 */
export async function accountStates(app: App, access: ClientAccess) {
  const res = await app.db.execute<AccountRow>(sql`
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
    where a.client_id = ${access.clientId} and ${accountInScope(access)}
    order by a.id`);
  return res.rows.map((r) => ({
    ...r,
    phone: maskPhone(r.phone),
    device_name: r.device_name ?? '',
    session_expires_at: iso(r.session_expires_at),
  }));
}

/**
 * A tax account is the stores' whose device it logs in (an account without a device is the whole
 * business's): a store-scoped employee reaches only accounts of devices bound or granted to its stores.
 */
const accountInScope = (access: ClientAccess) => deviceSql(permitted(access), sql`a.device_id`);

async function syncWhiteList(db: DbOrTx, clientId: number) {
  await db.execute(sql`update clients set has_white_listed_tax_account = exists (
    select 1 from tax_accounts where client_id = ${clientId} and white_listed and status = 'active') where id = ${clientId}`);
}

export async function whiteList(app: App, access: ClientAccess) {
  const res = await app.db.execute<{ id: number; account: string; person_name: string }>(
    sql`select id, account, person_name from tax_accounts where client_id = ${access.clientId} and white_listed and status = 'active' order by id`,
  );
  return { white_listed: res.rows.length > 0, accounts: res.rows };
}

export async function assertWhiteListed(app: App, access: ClientAccess) {
  if (!(await whiteList(app, access)).white_listed) throw new AppError(DEVICE_CODE.NOT_WHITE_LISTED);
}

export async function saveAccount(app: App, access: ClientAccess, body: Required<TaxAccountBody>) {
  if (body.device_id !== null) {
    const d = await loadDevice(app.db, access, body.device_id);
    if (d.kind !== 'digital') throw new AppError(DEVICE_CODE.TYPE_NOT_SUPPORTED);
  }
  const sealed = body.password ? await sealSecret(app.env.dataDir, body.password) : null;
  return app.db.transaction(async (tx) => {
    const dup = await tx.execute(
      sql`select 1 from tax_accounts where client_id = ${access.clientId} and account = ${body.account} and id <> ${body.id ?? 0}`,
    );
    if (dup.rows.length > 0) throw new AppError(DEVICE_CODE.ACCOUNT_TAKEN);
    let id = body.id;
    if (id === undefined) {
      if (!sealed) throw new AppError(DEVICE_CODE.PASSWORD_REQUIRED);
      if (!body.phone) throw new AppError(DEVICE_CODE.PHONE_REQUIRED);
      const r = await tx.execute<{ id: number }>(sql`insert into tax_accounts
        (client_id, device_id, account, password_enc, phone, identity, person_name, channel)
        values (${access.clientId}, ${body.device_id}, ${body.account}, ${sealed}, ${body.phone}, ${body.identity},
          ${body.person_name}, ${body.channel}) returning id`);
      id = r.rows[0]!.id;
    } else {
      const r =
        await tx.execute(sql`update tax_accounts a set device_id = ${body.device_id}, account = ${body.account},
          password_enc = coalesce(${sealed}, password_enc), phone = case when ${body.phone} = '' then phone else ${body.phone} end, identity = ${body.identity},
          person_name = ${body.person_name}, channel = ${body.channel},
          -- a new password or account ends the bureau session
          login_state = case when ${sealed}::text is null and account = ${body.account} then login_state else 'offline' end,
          session_expires_at = case when ${sealed}::text is null and account = ${body.account} then session_expires_at else null end,
          updated_at = now()
        where id = ${id} and client_id = ${access.clientId} and ${accountInScope(access)} returning id`);
      if (r.rows.length === 0) {
        await refuseIfOtherStore(
          tx,
          sql`select 1 from tax_accounts where id = ${id} and client_id = ${access.clientId}`,
        );
        throw new AppError(DEVICE_CODE.ACCOUNT_NOT_FOUND);
      }
    }
    await syncWhiteList(tx, access.clientId);
    return id;
  });
}

export async function setAccountStatus(app: App, access: ClientAccess, id: number, status: string) {
  const r = await app.db.execute(
    sql`update tax_accounts a set status = ${status}, updated_at = now()
      where id = ${id} and client_id = ${access.clientId} and ${accountInScope(access)} returning id`,
  );
  if (r.rows.length === 0) {
    await refuseIfOtherStore(
      app.db,
      sql`select 1 from tax_accounts where id = ${id} and client_id = ${access.clientId}`,
    );
    throw new AppError(DEVICE_CODE.ACCOUNT_NOT_FOUND);
  }
  await syncWhiteList(app.db, access.clientId);
}

/** Health board: every active tax account × every clerk who may issue for the business. */
export async function healthBoard(app: App, access: ClientAccess) {
  const accounts = (await accountStates(app, access)).filter((a) => a.status === 'active');
  const clerks = await app.db.execute<{ id: number; name: string }>(sql`
    select e.id, u.nickname as name from employees e join users u on u.id = e.user_id
    where e.org_id = ${access.orgId} and e.status = 'active'
      and (e.role = 'admin' or e.is_group_admin
        or exists (select 1 from employee_scopes s where s.employee_id = e.id and s.client_id = ${access.clientId}))
    order by e.id`);
  const now = Date.now();
  return accounts.flatMap((a) =>
    clerks.rows.map((c) => ({
      tax_account_id: a.id,
      account: a.account,
      person_name: a.person_name,
      device_id: a.device_id,
      device_name: a.device_name,
      clerk_id: c.id,
      clerk_name: c.name,
      login_state: a.login_state,
      real_name_state: a.real_name_state,
      session_expires_at: a.session_expires_at,
      seconds_left:
        a.login_state === 'online' && a.session_expires_at
          ? Math.max(0, Math.floor((new Date(a.session_expires_at).getTime() - now) / 1000))
          : 0,
    })),
  );
}

// ---- stock -----------------------------------------------------------------------------------

export async function listMovements(app: App, access: ClientAccess, deviceId?: number) {
  const res = await app.db.execute<{
    id: number;
    kind: string;
    device_id: number;
    device_name: string;
    target_device_id: number | null;
    target_device_name: string | null;
    invoice_type: string;
    count: number;
    invoice_code: string;
    start_no: number | null;
    end_no: number | null;
    created_at: string;
  }>(sql`select m.id, m.kind, m.device_id, d.name as device_name, m.target_device_id, t.name as target_device_name,
      m.invoice_type, m.count, m.invoice_code, m.start_no, m.end_no, m.created_at
    from stock_movements m join tax_devices d on d.id = m.device_id left join tax_devices t on t.id = m.target_device_id
    where m.client_id = ${access.clientId}
      ${deviceId ? sql`and (m.device_id = ${deviceId} or m.target_device_id = ${deviceId})` : sql``}
    order by m.id desc limit 200`);
  return res.rows.map((m) => ({
    ...m,
    id: Number(m.id),
    target_device_name: m.target_device_name ?? '',
    created_at: iso(m.created_at)!,
  }));
}

/** 领票: the sandbox bureau grants a new range onto a main disc. */
export async function applyStock(
  app: App,
  actor: Actor,
  body: { device_id: number; invoice_type: string; count: number },
) {
  if (body.count < 1 || body.count > 1000) throw new AppError(DEVICE_CODE.APPLY_LIMIT);
  return app.db.transaction(async (tx) => {
    const d = await loadDevice(tx, actor.access, body.device_id, true);
    if (d.kind === 'digital') throw new AppError(DEVICE_CODE.NOT_STOCK_DEVICE);
    if (d.status !== 'active') throw new AppError(DEVICE_CODE.DEVICE_DISABLED);
    if (!d.is_main) throw new AppError(DEVICE_CODE.NOT_MAIN_DISC);
    if (!d.invoice_types.includes(body.invoice_type)) throw new AppError(DEVICE_CODE.TYPE_NOT_SUPPORTED);
    // ranges of one code are numbered from max(end_no) + 1: one grant per invoice type at a time
    await tx.execute(sql`select pg_advisory_xact_lock(727021, hashtext(${body.invoice_type}))`);
    const r = await addNumberRange(tx, {
      deviceId: d.device_id,
      invoiceType: body.invoice_type,
      count: body.count,
    });
    await tx.execute(sql`insert into stock_movements (client_id, kind, device_id, invoice_type, count, invoice_code, start_no, end_no, user_id)
      values (${actor.access.clientId}, 'apply', ${d.device_id}, ${body.invoice_type}, ${body.count}, ${r.invoiceCode}, ${r.startNo}, ${r.endNo}, ${actor.userId})`);
    return r;
  });
}

/**
 * 分发 (main → branch) and 退回 (branch → main). The source device's ranges of the kind are locked
 * (`for update`) and the count is checked against what they hold under that lock, so concurrent moves
 * and issuing can never take more than there is. Numbers move from the tails of the newest ranges: a
 * whole untouched range changes device, otherwise its tail is cut off into a new range.
 */
export async function moveStock(
  app: App,
  actor: Actor,
  kind: 'distribute' | 'return',
  body: { device_id: number; target_device_id: number; invoice_type: string; count: number },
) {
  return app.db.transaction(async (tx) => {
    const src = await loadDevice(tx, actor.access, body.device_id);
    const dst = await loadDevice(tx, actor.access, body.target_device_id);
    if (src.kind === 'digital' || dst.kind === 'digital') throw new AppError(DEVICE_CODE.NOT_STOCK_DEVICE);
    const main = kind === 'distribute' ? src : dst;
    const branch = kind === 'distribute' ? dst : src;
    if (!main.is_main) throw new AppError(DEVICE_CODE.NOT_MAIN_DISC);
    if (branch.parent_id !== main.device_id) throw new AppError(DEVICE_CODE.NOT_BRANCH_OF);
    if (!src.invoice_types.includes(body.invoice_type) || !dst.invoice_types.includes(body.invoice_type)) {
      throw new AppError(DEVICE_CODE.TYPE_NOT_SUPPORTED);
    }
    const ranges = await tx.execute<{
      id: number;
      invoice_code: string;
      start_no: number;
      end_no: number;
      next_no: number;
    }>(
      sql`select id, invoice_code, start_no, end_no, next_no from channel_number_ranges
        where device_id = ${src.device_id} and invoice_type = ${body.invoice_type} and next_no <= end_no
        order by id desc for update`,
    );
    const total = ranges.rows.reduce((s, r) => s + (r.end_no - r.next_no + 1), 0);
    if (total < body.count) throw new AppError(DEVICE_CODE.STOCK_NOT_ENOUGH);
    let need = body.count;
    const moved: Array<{ code: string; start: number; end: number }> = [];
    for (const r of ranges.rows) {
      if (need === 0) break;
      const left = r.end_no - r.next_no + 1;
      const take = Math.min(left, need);
      const start = r.end_no - take + 1;
      if (take === left && r.next_no === r.start_no) {
        await tx.execute(
          sql`update channel_number_ranges set device_id = ${dst.device_id} where id = ${r.id}`,
        );
      } else {
        await tx.execute(sql`update channel_number_ranges set end_no = end_no - ${take} where id = ${r.id}`);
        await tx.execute(sql`insert into channel_number_ranges (client_id, device_id, invoice_type, invoice_code, start_no, end_no, next_no)
          values (${actor.access.clientId}, ${dst.device_id}, ${body.invoice_type}, ${r.invoice_code}, ${start}, ${r.end_no}, ${start})`);
      }
      moved.push({ code: r.invoice_code, start, end: r.end_no });
      need -= take;
    }
    for (const m of moved) {
      await tx.execute(sql`insert into stock_movements (client_id, kind, device_id, target_device_id, invoice_type, count, invoice_code, start_no, end_no, user_id)
        values (${actor.access.clientId}, ${kind}, ${src.device_id}, ${dst.device_id}, ${body.invoice_type}, ${m.end - m.start + 1}, ${m.code}, ${m.start}, ${m.end}, ${actor.userId})`);
    }
    return { moved: body.count };
  });
}

// ---- filing ----------------------------------------------------------------------------------

type FilingRow = {
  device_id: number;
  created_at: string | Date;
  copied_at: string | Date | null;
  cleared_at: string | Date | null;
  upload_no: string | null;
};

/** a device without a filing row for the period has neither copied nor cleared it */
const filingState = (f: FilingRow) => ({
  copiedAt: f.copied_at ? new Date(f.copied_at) : null,
  clearedAt: f.cleared_at ? new Date(f.cleared_at) : null,
});

export async function listFilings(app: App, access: ClientAccess, deviceId?: number) {
  const clock = filingClock(new Date());
  const devices = (await listDevices(app, access)).filter(
    (d) =>
      filesMonthly(d.kind) && d.status === 'active' && (deviceId === undefined || d.device_id === deviceId),
  );
  if (devices.length === 0) return [];
  const from = clock.from.toISOString();
  const to = clock.to.toISOString();
  const ids = intArray(devices.map((d) => d.device_id));
  const filings = await app.db.execute<FilingRow>(sql`
    select d.id as device_id, d.created_at, f.copied_at, f.cleared_at, f.upload_no
    from tax_devices d left join device_filings f on f.device_id = d.id and f.period = ${clock.period}
    where d.client_id = ${access.clientId} and d.id = any(${ids}::int[])`);
  const totals = await app.db.execute<{ device_id: number; n: number; amount: string; tax: string }>(sql`
    select device_id, count(*)::int as n, coalesce(sum(total_amount), 0)::numeric(18,2)::text as amount,
      coalesce(sum(total_tax), 0)::numeric(18,2)::text as tax
    from invoices where client_id = ${access.clientId} and device_id = any(${ids}::int[])
      and status in ('issued', 'voided') and issued_at >= ${from} and issued_at < ${to}
    group by device_id`);
  return devices.map((d) => {
    const f = filings.rows.find((x) => x.device_id === d.device_id)!;
    const t = totals.rows.find((x) => x.device_id === d.device_id);
    const flags = filingFlags(clock, filingState(f), isLiable(new Date(f.created_at), clock));
    return {
      device_id: d.device_id,
      device_name: d.name,
      kind: d.kind_name,
      period: clock.period,
      in_window: clock.inWindow,
      window_end: clock.windowEnd,
      copied_at: iso(f.copied_at),
      cleared_at: iso(f.cleared_at),
      copy_due: flags.copyDue,
      lock_due: flags.lockDue,
      locked: d.locked,
      invoice_count: t?.n ?? 0,
      total_amount: t?.amount ?? '0.00',
      total_tax: t?.tax ?? '0.00',
      upload_no: f.upload_no ?? '',
    };
  });
}

const REFUSALS = {
  out_of_window: DEVICE_CODE.FILING_OUT_OF_WINDOW,
  already_copied: DEVICE_CODE.FILING_ALREADY_COPIED,
  not_copied: DEVICE_CODE.FILING_NOT_COPIED,
  already_cleared: DEVICE_CODE.FILING_ALREADY_CLEARED,
} as const;

/**
 * 抄税 (summary upload to the sandbox bureau) or 清卡, which also lifts the filing lock. After the 15th
 * only a device whose lock is due may file (逾期抄报 of the overdue period).
 */
export async function fileDevice(
  app: App,
  actor: Actor,
  action: 'copy' | 'clear',
  deviceId: number,
  now = new Date(),
) {
  const clock = filingClock(now);
  return app.db.transaction(async (tx) => {
    const d = await loadDevice(tx, actor.access, deviceId, true);
    if (!filesMonthly(d.kind)) throw new AppError(DEVICE_CODE.FILING_NOT_APPLICABLE);
    const cur = await tx.execute<FilingRow>(
      sql`select d.id as device_id, d.created_at, f.copied_at, f.cleared_at, f.upload_no
        from tax_devices d left join device_filings f on f.device_id = d.id and f.period = ${clock.period}
        where d.id = ${deviceId} for update of d`,
    );
    const f = cur.rows[0]!;
    const refusal = filingRefusal(action, clock, filingState(f), isLiable(new Date(f.created_at), clock));
    if (refusal) throw new AppError(REFUSALS[refusal]);
    if (action === 'copy') {
      const from = clock.from.toISOString();
      const to = clock.to.toISOString();
      const uploadNo = `SB${clock.period.replace('-', '')}${String(deviceId).padStart(6, '0')}`;
      await tx.execute(sql`insert into device_filings (client_id, device_id, period, copied_at, invoice_count, total_amount, total_tax, upload_no, user_id)
        select ${actor.access.clientId}, ${deviceId}, ${clock.period}, now(), count(*), coalesce(sum(total_amount), 0), coalesce(sum(total_tax), 0), ${uploadNo}, ${actor.userId}
        from invoices where client_id = ${actor.access.clientId} and device_id = ${deviceId}
          and status in ('issued', 'voided') and issued_at >= ${from} and issued_at < ${to}
        on conflict (device_id, period) do update set copied_at = now(), invoice_count = excluded.invoice_count,
          total_amount = excluded.total_amount, total_tax = excluded.total_tax, upload_no = excluded.upload_no`);
    } else {
      await tx.execute(
        sql`update device_filings set cleared_at = now() where device_id = ${deviceId} and period = ${clock.period}`,
      );
      await tx.execute(sql`update tax_devices set locked = false where id = ${deviceId}`);
    }
  });
}
