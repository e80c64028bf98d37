import { INVOICE_CODE, type InvoiceType, SCAN_CODE } from '@kaipiao/shared';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import type { SettingsRow } from './repo.ts';
import * as repo from './repo.ts';

/**
 * A store's scan settings (domain.md §8.1): whether requests with known goods are issued at once or
 * wait for a clerk, the device and kind they are issued with, and how long an order code lives.
 */

type Db = FastifyInstance['db'];

export type { SettingsRow };

export async function getSettings(db: Db, clientId: number, storeId: number): Promise<SettingsRow> {
  const row = await repo.selectSettings(db, clientId, storeId);
  return (
    row ?? {
      store_id: storeId,
      mode: 'audit',
      device_id: null,
      invoice_type: '82',
      default_valid_minutes: 1440,
    }
  );
}

export async function saveSettings(
  db: Db,
  a: { clientId: number; storeId: number; userId: number | null },
  body: {
    mode: 'audit' | 'immediate';
    device_id: number | null;
    invoice_type: string;
    default_valid_minutes: number;
  },
): Promise<SettingsRow> {
  if (body.device_id !== null) {
    const bound = await repo.deviceServesStore(db, a.clientId, a.storeId, body.device_id);
    if (!bound) throw new AppError(INVOICE_CODE.DEVICE_NOT_BOUND);
  }
  await repo.upsertSettings(db, a, body);
  return getSettings(db, a.clientId, a.storeId);
}

/** The device and kind scan requests of a store are issued with. */
export async function issuingDevice(db: Db, clientId: number, storeId: number) {
  const s = await getSettings(db, clientId, storeId);
  const d = await repo.selectIssuingDevice(db, clientId, storeId, s.device_id, s.invoice_type);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a device without any kind is refused when it is saved (devices service), so only !d decides
  if (!d || d.invoice_types.length === 0) throw new AppError(SCAN_CODE.NO_DEVICE);
  const invoiceType = d.invoice_types.includes(s.invoice_type) ? s.invoice_type : d.invoice_types[0]!;
  return { deviceId: d.id, invoiceType: invoiceType as InvoiceType };
}
