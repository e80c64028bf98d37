import { CODE, SESSION_CODE, SUMMARY_STORE_ID } from '@kaipiao/shared';
import { type SQL, sql } from 'drizzle-orm';
import { AppError } from './app-error.ts';

/**
 * The one scope rule (issue 21 item 1, docs/security.md): what a call may reach is its session's
 * business and, inside it, a set of stores. The auth hook builds `req.scope` once per request from
 * the session, the employee's store scope and the selected store (`sid`); services and repos take
 * the scope and filter through the helpers below — never by hand from `client_id` / `sid`.
 *
 * Which routes need a scope is declared in the route table (`config.scope`, plugins/auth.ts); the
 * store matrix test (test/scope-matrix.test.ts) walks every route declared `store`.
 */

/** How much of the caller a route needs (every API route declares one). */
export type RouteScope =
  /** no session (login, the buyer's scan page, sandbox controls) */
  | 'public'
  /** a session, no business (org list, user info, logout) */
  | 'user'
  /** a business; the route's rows are the business's own (goods codes, buyer titles, the business's stores) */
  | 'business'
  /** a business and stores: the route reads or writes store-owned rows and filters them through the scope */
  | 'store';

export type Scope = {
  orgId: number;
  clientId: number;
  userId: number;
  employeeId: number;
  /** group administrator or business administrator: every store of the business */
  isAdmin: boolean;
  /** the store the call acts for; null = the all-stores summary (sid -1) */
  storeId: number | null;
  /**
   * The stores this call may read: the selected store, or in the summary every store the employee
   * may use. null = every store of the business (no store condition needed).
   */
  storeIds: readonly number[] | null;
  /** every store the employee may use in this business, whatever is selected; null = all */
  permittedStoreIds: ReadonlySet<number> | null;
  /** the permission urls (menu entries) the employee holds in this business */
  permissions: ReadonlySet<string>;
};

/**
 * The request's scope, for a route declared `business` or `store` (the auth hook refused the call
 * with 10688 before the handler when it has none). A route declared `user` that names no business
 * gets the same refusal here; one that may go without reads `req.scope` itself.
 */
export function scopeOf(req: { scope: Scope | null }): Scope {
  if (!req.scope) throw new AppError(CODE.SWITCH_STORE, '');
  return req.scope;
}

/** The business and the stores a read covers (repos filter through it): `storeIds` null = every store. */
export type StoreScope = Pick<Scope, 'clientId' | 'storeIds'>;

/**
 * Who a service acts as, recorded on what it writes: the business, the store (null = the all-stores
 * summary) and the user — null for a job acting without a session (batch runner, scan queue,
 * reconciliation).
 */
export type Actor = Pick<Scope, 'clientId' | 'storeId'> & { userId: Scope['userId'] | null };

/** An actor that issues: always for one store, never the summary (its routes declare `store: 'specific'`). */
export type IssuingActor = Actor & { storeId: number };

/** An actor reaching the scope's stores rather than one store (red-letter forms and voids). */
export type StoresActor = StoreScope & Pick<Actor, 'userId'>;

/** The scope as the issuing actor: refuses the summary (10688 choose a store) as `store: 'specific'` does. */
export function issuingActor(scope: Scope): IssuingActor {
  if (scope.storeId === null) throw new AppError(CODE.SWITCH_STORE);
  return { clientId: scope.clientId, storeId: scope.storeId, userId: scope.userId };
}

export function buildScope(v: {
  orgId: number;
  clientId: number;
  userId: number;
  employeeId: number;
  isAdmin: boolean;
  permittedStoreIds: ReadonlySet<number> | null;
  permissions: ReadonlySet<string>;
  sid: number;
}): Scope {
  const storeId = v.sid === SUMMARY_STORE_ID ? null : v.sid;
  const storeIds =
    storeId !== null ? [storeId] : v.permittedStoreIds === null ? null : [...v.permittedStoreIds];
  return {
    orgId: v.orgId,
    clientId: v.clientId,
    userId: v.userId,
    employeeId: v.employeeId,
    isAdmin: v.isAdmin,
    storeId,
    storeIds,
    permittedStoreIds: v.permittedStoreIds,
    permissions: v.permissions,
  };
}

/** The refusal for a store outside the scope (spec gives no wording: 无权限操作该门店). */
export const storeRefused = () => new AppError(SESSION_CODE.STORE_NOT_PERMITTED);

/**
 * The stores a read covers, narrowed by an optional `store_ids` filter from the request: null = every
 * store of the business, [] = nothing.
 */
export function readableStores(scope: Scope, requested?: readonly number[]): number[] | null {
  const base = scope.storeIds;
  if (!requested || requested.length === 0) return base === null ? null : [...base];
  if (base === null) return [...new Set(requested)];
  const allowed = new Set(base);
  return [...new Set(requested)].filter((id) => allowed.has(id));
}

/** Whether the call may act on rows of `storeId` (read scope: the selected store or the summary's). */
export function canReachStore(scope: Scope, storeId: number | null | undefined): boolean {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: a missing store id is in no list, so the next line answers the same
  if (storeId === null || storeId === undefined) return scope.storeIds === null;
  return scope.storeIds === null || scope.storeIds.includes(storeId);
}

/** Refuses (12003 无权限操作该门店) unless the call may act on rows of `storeId`. */
export function assertStore(scope: Scope, storeId: number | null | undefined): void {
  if (!canReachStore(scope, storeId)) throw storeRefused();
}

/** Refuses unless every id is a store the call may act on. */
export function assertStores(scope: Scope, storeIds: readonly number[]): void {
  for (const id of storeIds) assertStore(scope, id);
}

const intArray = (ids: readonly number[]) => sql`${`{${ids.join(',')}}`}::int[]`;

/** `column` (a store id) within the scope: `true` for every store, else `column = any(…)`. */
export function storeSql(scope: Scope | readonly number[] | null, column: SQL): SQL {
  const ids = scopeIds(scope);
  if (ids === null) return sql`true`;
  // Stryker disable next-line ConditionalExpression: a shortcut; `= any('{}')` / `<@ '{}'` on a store array is false as well
  if (ids.length === 0) return sql`false`;
  return sql`${column} = any(${intArray(ids)})`;
}

/**
 * `column` (a store-id array, null = every store) within the scope: rows covering every store are
 * visible only to a call that reaches every store; a row covering stores is visible when all of
 * them are within the scope.
 */
export function storeArraySql(scope: Scope | readonly number[] | null, column: SQL): SQL {
  const ids = scopeIds(scope);
  if (ids === null) return sql`true`;
  // Stryker disable next-line ConditionalExpression: a shortcut; `= any('{}')` / `<@ '{}'` on a store array is false as well
  if (ids.length === 0) return sql`false`;
  return sql`(${column} is not null and ${column} <@ ${intArray(ids)})`;
}

/**
 * A tax device (`deviceId` column) usable within the scope: bound to one of its stores
 * (`device_stores`) or granted to one while hosted (`trusteeship_grants`). Every device of the
 * business when the scope reaches every store.
 */
export function deviceSql(scope: Scope | readonly number[] | null, deviceId: SQL): SQL {
  const ids = scopeIds(scope);
  if (ids === null) return sql`true`;
  // Stryker disable next-line ConditionalExpression: a shortcut; `store_id = any('{}')` is false as well
  if (ids.length === 0) return sql`false`;
  return sql`(exists (select 1 from device_stores ds_ where ds_.device_id = ${deviceId} and ds_.store_id = any(${intArray(ids)}))
    or exists (select 1 from trusteeship_grants tg_ where tg_.device_id = ${deviceId} and tg_.store_id = any(${intArray(ids)})))`;
}

function scopeIds(scope: Scope | readonly number[] | null): readonly number[] | null {
  if (scope === null) return null;
  if (Array.isArray(scope)) return scope as readonly number[];
  return (scope as Scope).storeIds;
}

/**
 * The scope widened to every store the employee may use, whatever store is selected: for management
 * pages (trusteeship, devices, stores) that list the business's set-up rather than one store's records.
 */
export function employeeScope(scope: Scope): Scope {
  const ids = scope.permittedStoreIds === null ? null : [...scope.permittedStoreIds];
  return { ...scope, storeIds: ids };
}

/**
 * Refuses (12003 无权限操作该门店) a row of a store the employee may not use, whatever store is
 * selected: for single rows named by id (a batch, a scan code, an invoice's documents), found first
 * within the business so that a missing id and another business's id stay "not found".
 */
export function assertEmployeeStore(scope: Scope, storeId: number | null | undefined): void {
  assertStore(employeeScope(scope), storeId);
}

type Exec = { execute: (q: SQL) => Promise<{ rows: unknown[] }> };

/**
 * Refuses (12003) a row of the business that lies in a store outside `scope`: `storeOf` is a query
 * giving the row's store id(s) within the business (none = not the business's, left to the caller's
 * own not-found). For rows found by id when the scoped query missed them.
 */
export async function refuseIfOtherStore(db: Exec, storeOf: SQL): Promise<void> {
  const res = await db.execute(storeOf);
  if (res.rows.length > 0) throw storeRefused();
}

/**
 * A device named by id must be one the employee may use (bound to or granted to one of its stores):
 * a device of the business outside them is refused with 12003; an unknown id is left to the caller.
 */
export async function assertDeviceInScope(db: Exec, scope: Scope, deviceId: number): Promise<void> {
  const s = employeeScope(scope);
  // Stryker disable next-line ConditionalExpression: a shortcut; with every store deviceSql is true, so the query below passes too
  if (s.storeIds === null) return;
  const res = await db.execute(sql`
    select ${deviceSql(s, sql`d.id`)} as ok from tax_devices d where d.id = ${deviceId} and d.client_id = ${scope.clientId}`);
  const row = res.rows[0] as { ok: boolean } | undefined;
  if (row && !row.ok) throw storeRefused();
}
