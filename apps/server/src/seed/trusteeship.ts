import { and, eq } from 'drizzle-orm';
import { addNumberRange } from '../channels/numbers.ts';
import type { Db } from '../db/client.ts';
import {
  clientStores,
  clients,
  deviceTrusteeships,
  taxDevices,
  trusteeshipGrants,
} from '../db/schema/index.ts';
import { hostingLocation } from '../modules/trusteeship/service.ts';

const HOSTED_DEVICE_NO = '539966778899';

/**
 * The demo software business's hosted device (domain.md §8.4): a 税控盘 kept in the hosting centre,
 * bound to no store, granted to 上海分部 (which has no disc of its own) so it can issue 026/007 there.
 * Idempotent by device number; demo only (tests make their own trusteeships).
 */
export async function seedDemoTrusteeship(db: Db, demo: { software: { taxCode: string } }): Promise<void> {
  const [client] = await db.select().from(clients).where(eq(clients.taxCode, demo.software.taxCode));
  if (!client) return;
  const [exists] = await db
    .select({ id: taxDevices.id })
    .from(taxDevices)
    .where(and(eq(taxDevices.clientId, client.id), eq(taxDevices.deviceNo, HOSTED_DEVICE_NO)));
  if (exists) return;
  const [store] = await db
    .select()
    .from(clientStores)
    .where(and(eq(clientStores.clientId, client.id), eq(clientStores.code, 'SH')));
  if (!store) return;
  await db.transaction(async (tx) => {
    const [device] = await tx
      .insert(taxDevices)
      .values({
        clientId: client.id,
        kind: 'tax_disc',
        channel: 'BAIWANG',
        name: '税控盘（托管）',
        deviceNo: HOSTED_DEVICE_NO,
        invoiceTypes: ['026', '007'],
        perInvoiceLimit: '99999.99',
        hosted: true,
      })
      .returning({ id: taxDevices.id });
    const deviceId = device!.id;
    const [t] = await tx
      .insert(deviceTrusteeships)
      .values({
        clientId: client.id,
        deviceId,
        mode: 'device',
        location: hostingLocation(deviceId, 'device'),
      })
      .returning({ id: deviceTrusteeships.id });
    await tx
      .insert(trusteeshipGrants)
      .values({ deviceId, storeId: store.id, trusteeshipId: t!.id, clientId: client.id });
    await addNumberRange(tx, { deviceId, invoiceType: '026', count: 500 });
    await addNumberRange(tx, { deviceId, invoiceType: '007', count: 200 });
  });
}
