import {
  DEVICE_KINDS,
  type DeviceKind,
  type GrantStoresBody,
  type HandOverBody,
  type RevokeBody,
  TRUST_CODE,
  TRUSTEESHIP_STATUS,
  type TrusteeshipItem,
  type TrusteeshipList,
} from '@kaipiao/shared';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { assertDeviceInScope, assertStores, employeeScope, type Scope } from '../../lib/scope.ts';
import * as repo from './repo.ts';

/**
 * Trusteeship (托管, domain.md §8.4): a business hands a disc / UKey (device hosting) or its 数电
 * account (account hosting) to the hosting centre, then chooses which of its stores may issue
 * through it. The grants are what the issuing check reads (invoices repo `bound`, get-tax-equipment,
 * batch upload), next to the device's local store binding; revoking deletes them in one transaction.
 */

type Db = FastifyInstance['db'];

const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());

/** Sandbox hosting centre: a cabinet slot for a disc, a kept session for a 数电 account. */
export function hostingLocation(deviceId: number, mode: 'device' | 'account'): string {
  if (mode === 'account')
    return `杭州托管中心 · 数电会话主机 S${String((deviceId % 8) + 1).padStart(2, '0')}`;
  const cabinet = String.fromCharCode(65 + (deviceId % 4));
  return `杭州托管中心 ${cabinet}区-${String((deviceId % 20) + 1).padStart(2, '0')}号柜-${(deviceId % 48) + 1}槽`;
}

const isPgUnique = (e: unknown, constraint: string) => {
  const c =
    (e as { cause?: { code?: string; constraint?: string } }).cause ??
    (e as { code?: string; constraint?: string });
  return c.code === '23505' && c.constraint === constraint;
};

const storesOf = (scope: Scope) => employeeScope(scope).storeIds as number[] | null;

/** Stores must be the business's and, for a store-scoped employee, within the scope. */
async function checkStores(db: Db, scope: Scope, ids: number[]): Promise<number[]> {
  if (ids.length === 0) throw new AppError(TRUST_CODE.NO_STORES);
  const found = await repo.storesOfClient(db, scope.clientId, ids);
  if (found.length !== ids.length) throw new AppError(TRUST_CODE.STORE_NOT_FOUND);
  assertStores(employeeScope(scope), ids);
  return ids;
}

async function toItem(app: FastifyInstance, d: repo.DeviceRow): Promise<TrusteeshipItem> {
  const [state, quota] = await Promise.all([app.taxChannel.deviceState(d.id), app.taxChannel.quota(d.id)]);
  const status = (d.trust_status ?? 'none') as TrusteeshipItem['status'];
  const mode = (d.mode ?? (d.kind === 'digital' ? 'account' : 'device')) as TrusteeshipItem['mode'];
  return {
    device_id: d.id,
    name: d.name,
    kind: d.kind,
    kind_name: DEVICE_KINDS[d.kind as DeviceKind] ?? d.kind,
    device_no: d.device_no,
    extension_no: d.extension_no,
    is_main: d.parent_id === null && d.extension_no === 0,
    mode,
    status,
    status_name: TRUSTEESHIP_STATUS[status],
    location: status === 'hosted' ? (d.location ?? '') : '',
    contact_mobile: d.contact_mobile ?? '',
    handed_over_at: iso(d.handed_over_at),
    handed_over_by: d.handed_over_by ?? '',
    revoked_at: iso(d.revoked_at),
    revoke_reason: d.revoke_reason ?? '',
    online: state?.online ?? false,
    locked: state?.locked ?? false,
    invoice_types: d.invoice_types,
    per_invoice_limit: quota?.perInvoiceLimit ?? '0.00',
    monthly_quota: quota?.monthlyQuota ?? null,
    quota_used: quota?.quotaUsed ?? '0.00',
    stock: quota?.stock ?? {},
    bound_stores: d.bound ?? [],
    granted_stores: d.granted ?? [],
  };
}

/** The devices the scope may use (bound to or granted to one of its stores), with only its stores named. */
export async function listTrusteeships(app: FastifyInstance, scope: Scope): Promise<TrusteeshipList> {
  const [devices, stores] = await Promise.all([
    repo.listDevices(app.db, employeeScope(scope)),
    repo.listStores(app.db, employeeScope(scope)),
  ]);
  return { list: await Promise.all(devices.map((d) => toItem(app, d))), stores };
}

async function itemOf(app: FastifyInstance, scope: Scope, deviceId: number): Promise<TrusteeshipItem> {
  const [d] = await repo.listDevices(app.db, employeeScope(scope), deviceId);
  if (!d) throw new AppError(TRUST_CODE.DEVICE_NOT_FOUND);
  return toItem(app, d);
}

/** 托管: the device goes to the hosting centre (online there) and the chosen stores may issue through it. */
export async function handOver(
  app: FastifyInstance,
  scope: Scope,
  body: HandOverBody,
): Promise<TrusteeshipItem> {
  await assertDeviceInScope(app.db, scope, body.device_id);
  if (!body.agree) throw new AppError(TRUST_CODE.AGREEMENT_REQUIRED);
  const { clientId } = scope;
  const storeIds = await checkStores(app.db, scope, body.store_ids);
  try {
    await app.db.transaction(async (tx) => {
      const d = await repo.lockDevice(tx, employeeScope(scope), body.device_id);
      if (!d) throw new AppError(TRUST_CODE.DEVICE_NOT_FOUND);
      if (d.status !== 'active') throw new AppError(TRUST_CODE.DEVICE_DISABLED);
      if (await repo.hostedTrusteeship(tx, d.id)) throw new AppError(TRUST_CODE.ALREADY_HOSTED);
      const mode = d.kind === 'digital' ? 'account' : 'device';
      const trusteeshipId = await repo.insertTrusteeship(tx, {
        clientId,
        deviceId: d.id,
        mode,
        location: hostingLocation(d.id, mode),
        contactMobile: body.contact_mobile,
        userId: scope.userId,
      });
      await repo.replaceGrants(tx, {
        clientId,
        deviceId: d.id,
        trusteeshipId,
        storeIds,
        scope: storesOf(scope),
        userId: scope.userId,
      });
      await repo.markHosted(tx, d.id);
    });
  } catch (e) {
    if (isPgUnique(e, 'device_trusteeships_hosted_uq')) throw new AppError(TRUST_CODE.ALREADY_HOSTED);
    throw e;
  }
  return itemOf(app, scope, body.device_id);
}

/** Which stores may issue through a hosted device (replaces the list). */
export async function grantStores(
  app: FastifyInstance,
  scope: Scope,
  body: GrantStoresBody,
): Promise<TrusteeshipItem> {
  await assertDeviceInScope(app.db, scope, body.device_id);
  const { clientId } = scope;
  const storeIds = await checkStores(app.db, scope, body.store_ids);
  await app.db.transaction(async (tx) => {
    const d = await repo.lockDevice(tx, employeeScope(scope), body.device_id);
    if (!d) throw new AppError(TRUST_CODE.DEVICE_NOT_FOUND);
    const t = await repo.hostedTrusteeship(tx, d.id);
    if (!t) throw new AppError(TRUST_CODE.NOT_HOSTED);
    await repo.replaceGrants(tx, {
      clientId,
      deviceId: d.id,
      trusteeshipId: t.id,
      storeIds,
      scope: storesOf(scope),
      userId: scope.userId,
    });
  });
  return itemOf(app, scope, body.device_id);
}

/** 撤销托管: the grants go at once; stores bound to the device locally keep it. */
export async function revoke(app: FastifyInstance, scope: Scope, body: RevokeBody): Promise<TrusteeshipItem> {
  await assertDeviceInScope(app.db, scope, body.device_id);
  await app.db.transaction(async (tx) => {
    const d = await repo.lockDevice(tx, employeeScope(scope), body.device_id);
    if (!d) throw new AppError(TRUST_CODE.DEVICE_NOT_FOUND);
    const t = await repo.hostedTrusteeship(tx, d.id);
    if (!t) throw new AppError(TRUST_CODE.NOT_HOSTED);
    await repo.revokeTrusteeship(tx, {
      trusteeshipId: t.id,
      deviceId: d.id,
      reason: body.reason,
      userId: scope.userId,
    });
  });
  return itemOf(app, scope, body.device_id);
}
