import { beijingMonth, DEVICE_CODE } from '@kaipiao/shared';
import { DEVICE_KIND_LABELS } from '@kaipiao/shared/schemas/devices';
import type { FastifyInstance } from 'fastify';
import type { DbOrTx } from '../../channels/numbers.ts';
import { AppError } from '../../lib/app-error.ts';
import { employeeScope, type Scope, storeRefused } from '../../lib/scope.ts';
import { applyAppFilingLocks } from './filing-locks.ts';
import * as repo from './repo.ts';

/**
 * What every devices file uses (issue 19 item 7): the device as the console shows it, the devices an
 * employee may see and one device of the business. The device pages are service.ts, accounts.ts,
 * stock.ts and filings.ts; stores are modules/stores.
 */

type App = FastifyInstance;
export const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

function toDevice(d: repo.DeviceRow) {
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
export async function listDevices(app: App, scope: Scope, storeId?: number) {
  await applyAppFilingLocks(app, new Date(), scope.clientId);
  const stores = storeId !== undefined && storeId > 0 ? [storeId] : employeeScope(scope).storeIds;
  return (await repo.selectDevices(app.db, scope, stores)).map(toDevice);
}

/** One device of the business; another business's id is refused as not found. */
export async function loadDevice(db: DbOrTx, scope: Scope, id: number, lock = false) {
  const row = await repo.selectDevice(db, scope, id, lock);
  if (!row) throw new AppError(DEVICE_CODE.DEVICE_NOT_FOUND);
  const permitted = scope.permittedStoreIds;
  if (permitted && !(row.stores ?? []).some((s) => permitted.has(s.client_store_id))) {
    throw storeRefused();
  }
  return toDevice(row);
}
