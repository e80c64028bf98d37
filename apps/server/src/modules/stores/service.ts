import { DEVICE_CODE } from '@kaipiao/shared';
import type { StoreBody } from '@kaipiao/shared/schemas/devices';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { type Scope, storeRefused } from '../../lib/scope.ts';
import * as repo from './repo.ts';

/**
 * Stores (spec §7 Client and stores): the business's stores as the employee may see them, saving one
 * with its settings and devices, and enabling or disabling it. Another business's store is not
 * found; a store of the business outside the employee's stores is refused as not permitted.
 */

type App = FastifyInstance;

/** Whether the employee may use the store, whatever store is selected (a management page). */
const visible = (scope: Scope, id: number) =>
  scope.permittedStoreIds === null || scope.permittedStoreIds.has(id);

export async function listStores(app: App, scope: Scope, includeDisabled: boolean) {
  const rows = await repo.selectStores(app.db, scope.clientId, includeDisabled);
  return rows
    .filter((s) => visible(scope, s.id))
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

/** The store exists in the business and the employee may use it (else 21001 or not permitted). */
export async function assertStoreVisible(app: App, scope: Scope, id: number): Promise<void> {
  if (visible(scope, id) && (await repo.storeExists(app.db, scope.clientId, id))) return;
  await repo.refuseOtherStore(app.db, scope.clientId, id);
  throw new AppError(DEVICE_CODE.STORE_NOT_FOUND);
}

/** Adds (no id) or edits a store; its code is unique in the business and its devices are the business's. */
export async function saveStore(
  app: App,
  scope: Scope,
  body: Pick<
    StoreBody,
    'client_store_id' | 'name' | 'code' | 'default_invoice_types' | 'device_ids' | 'remark'
  >,
) {
  return app.db.transaction(async (tx) => {
    let id = body.client_store_id;
    if (id !== undefined) {
      if (!(await repo.storeExists(tx, scope.clientId, id))) throw new AppError(DEVICE_CODE.STORE_NOT_FOUND);
      if (!visible(scope, id)) throw storeRefused();
    }
    if (await repo.storeCodeTaken(tx, scope.clientId, body.code, id ?? 0)) {
      throw new AppError(DEVICE_CODE.STORE_CODE_TAKEN);
    }
    const ids = [...new Set(body.device_ids)];
    if (ids.length > 0 && (await repo.countOwnDevices(tx, scope.clientId, ids)) !== ids.length) {
      throw new AppError(DEVICE_CODE.DEVICE_NOT_FOUND);
    }
    if (id === undefined) {
      id = await repo.insertStore(tx, scope.clientId, body.name, body.code);
    } else {
      await repo.updateStore(tx, id, body.name, body.code);
    }
    await repo.upsertSettings(tx, scope.clientId, id, body);
    await repo.replaceDevices(tx, scope.clientId, id, ids);
    return id;
  });
}

export async function setStoreStatus(app: App, scope: Scope, id: number, status: string) {
  if (!visible(scope, id)) {
    await repo.refuseOtherStore(app.db, scope.clientId, id);
    throw new AppError(DEVICE_CODE.STORE_NOT_FOUND);
  }
  if (!(await repo.updateStatus(app.db, scope.clientId, id, status))) {
    throw new AppError(DEVICE_CODE.STORE_NOT_FOUND);
  }
}
