import { DEVICE_CODE } from '@kaipiao/shared';
import type { StoreBody } from '@kaipiao/shared/schemas/devices';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { storeRefused } from '../../lib/scope.ts';
import type { ClientAccess } from '../session/access.ts';
import * as repo from './repo.ts';

/**
 * Stores (spec §7 Client and stores): the business's stores as the employee may see them, saving one
 * with its settings and devices, and enabling or disabling it. Another business's store is not
 * found; a store of the business outside the employee's stores is refused as not permitted.
 */

type App = FastifyInstance;

const visible = (access: ClientAccess, id: number) => access.storeIds === null || access.storeIds.has(id);

export async function listStores(app: App, access: ClientAccess, includeDisabled: boolean) {
  const rows = await repo.selectStores(app.db, access.clientId, includeDisabled);
  return rows
    .filter((s) => visible(access, s.id))
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
export async function assertStoreVisible(app: App, access: ClientAccess, id: number): Promise<void> {
  if (visible(access, id) && (await repo.storeExists(app.db, access.clientId, id))) return;
  await repo.refuseOtherStore(app.db, access.clientId, id);
  throw new AppError(DEVICE_CODE.STORE_NOT_FOUND);
}

/** Adds (no id) or edits a store; its code is unique in the business and its devices are the business's. */
export async function saveStore(
  app: App,
  access: ClientAccess,
  body: Pick<
    StoreBody,
    'client_store_id' | 'name' | 'code' | 'default_invoice_types' | 'device_ids' | 'remark'
  >,
) {
  return app.db.transaction(async (tx) => {
    let id = body.client_store_id;
    if (id !== undefined) {
      if (!(await repo.storeExists(tx, access.clientId, id))) throw new AppError(DEVICE_CODE.STORE_NOT_FOUND);
      if (!visible(access, id)) throw storeRefused();
    }
    if (await repo.storeCodeTaken(tx, access.clientId, body.code, id ?? 0)) {
      throw new AppError(DEVICE_CODE.STORE_CODE_TAKEN);
    }
    const ids = [...new Set(body.device_ids)];
    if (ids.length > 0 && (await repo.countOwnDevices(tx, access.clientId, ids)) !== ids.length) {
      throw new AppError(DEVICE_CODE.DEVICE_NOT_FOUND);
    }
    if (id === undefined) {
      id = await repo.insertStore(tx, access.clientId, body.name, body.code);
    } else {
      await repo.updateStore(tx, id, body.name, body.code);
    }
    await repo.upsertSettings(tx, access.clientId, id, body);
    await repo.replaceDevices(tx, id, ids);
    return id;
  });
}

export async function setStoreStatus(app: App, access: ClientAccess, id: number, status: string) {
  if (!visible(access, id)) {
    await repo.refuseOtherStore(app.db, access.clientId, id);
    throw new AppError(DEVICE_CODE.STORE_NOT_FOUND);
  }
  if (!(await repo.updateStatus(app.db, access.clientId, id, status))) {
    throw new AppError(DEVICE_CODE.STORE_NOT_FOUND);
  }
}
