import { and, eq, inArray } from 'drizzle-orm';
import { addNumberRange } from '../channels/numbers.ts';
import type { Db } from '../db/client.ts';
import { clientStores, clients, deviceStores, taxDevices } from '../db/schema/index.ts';

type DeviceSeed = {
  key: string;
  kind: string;
  channel: string;
  name: string;
  deviceNo: string;
  extensionNo?: number;
  parentKey?: string;
  invoiceTypes: string[];
  perInvoiceLimit: string;
  monthlyQuota?: string;
  hosted?: boolean;
  /** store codes the device is bound to */
  stores: string[];
  /** blank stock requisitioned per invoice type */
  stock?: Record<string, number>;
};

const SOFTWARE_DEVICES: DeviceSeed[] = [
  {
    key: 'digital',
    kind: 'digital',
    channel: 'GP900000',
    name: '数电账户（电子发票服务平台）',
    deviceNo: 'GP900000-330106-0001',
    invoiceTypes: ['81', '82'],
    perInvoiceLimit: '1000000.00',
    monthlyQuota: '10000000.00',
    stores: ['HQ', 'BJ', 'SH'],
  },
  {
    key: 'ukey',
    kind: 'ukey',
    channel: 'UKEY',
    name: '税务UKey（总部）',
    deviceNo: '661906543210',
    invoiceTypes: ['026', '004', '007', '028'],
    perInvoiceLimit: '99999.99',
    stores: ['HQ'],
    stock: { '026': 1000, '004': 250, '007': 500, '028': 1000 },
  },
  {
    key: 'golden-main',
    kind: 'golden_disc',
    channel: 'AISINO',
    name: '金税盘（主盘）',
    deviceNo: '499912345678',
    extensionNo: 0,
    invoiceTypes: ['007', '004', '025'],
    perInvoiceLimit: '999999.99',
    stores: ['HQ'],
    stock: { '007': 500, '004': 250, '025': 1000 },
  },
  {
    key: 'golden-branch',
    kind: 'golden_disc',
    channel: 'AISINO',
    name: '金税盘（分盘1）',
    deviceNo: '499912345678',
    extensionNo: 1,
    parentKey: 'golden-main',
    invoiceTypes: ['007', '004', '025'],
    perInvoiceLimit: '999999.99',
    stores: ['BJ'],
    stock: { '007': 100, '004': 50, '025': 200 },
  },
];

const HOTEL_DEVICES: DeviceSeed[] = [
  {
    key: 'digital',
    kind: 'digital',
    channel: 'GP900000',
    name: '数电账户（电子发票服务平台）',
    deviceNo: 'GP900000-330102-0001',
    invoiceTypes: ['82', '81'],
    perInvoiceLimit: '100000.00',
    monthlyQuota: '1000000.00',
    stores: ['BS', 'LJ'],
  },
  {
    key: 'tax-disc',
    kind: 'tax_disc',
    channel: 'BAIWANG',
    name: '税控盘（北山街店）',
    deviceNo: '539900112233',
    invoiceTypes: ['026'],
    perInvoiceLimit: '99999.99',
    stores: ['BS'],
    stock: { '026': 1000 },
  },
];

async function seedClientDevices(db: Db, taxCode: string, seeds: DeviceSeed[]): Promise<void> {
  const [client] = await db.select().from(clients).where(eq(clients.taxCode, taxCode));
  if (!client) return;
  const existing = await db
    .select({ id: taxDevices.id })
    .from(taxDevices)
    .where(eq(taxDevices.clientId, client.id));
  if (existing.length > 0) return;
  const stores = await db
    .select()
    .from(clientStores)
    .where(
      and(
        eq(clientStores.clientId, client.id),
        inArray(
          clientStores.code,
          seeds.flatMap((s) => s.stores),
        ),
      ),
    );
  const storeId = new Map(stores.map((s) => [s.code, s.id]));
  await db.transaction(async (tx) => {
    const ids = new Map<string, number>();
    for (const s of seeds) {
      const [row] = await tx
        .insert(taxDevices)
        .values({
          clientId: client.id,
          kind: s.kind,
          channel: s.channel,
          name: s.name,
          deviceNo: s.deviceNo,
          extensionNo: s.extensionNo ?? 0,
          parentId: s.parentKey ? ids.get(s.parentKey) : null,
          areaCode: '33',
          invoiceTypes: s.invoiceTypes,
          perInvoiceLimit: s.perInvoiceLimit,
          monthlyQuota: s.monthlyQuota ?? null,
          hosted: s.hosted ?? false,
        })
        .returning({ id: taxDevices.id });
      ids.set(s.key, row!.id);
      const bound = s.stores.map((c) => storeId.get(c)).filter((id): id is number => id !== undefined);
      if (bound.length > 0) {
        await tx
          .insert(deviceStores)
          .values(bound.map((sid) => ({ deviceId: row!.id, storeId: sid, clientId: client.id })));
      }
      for (const [invoiceType, count] of Object.entries(s.stock ?? {})) {
        await addNumberRange(tx, { deviceId: row!.id, invoiceType, count });
      }
    }
  });
}

/**
 * Tax devices of the demo businesses (domain.md §7): idempotent, a business that already has
 * devices is left alone. Software company: a 数电 account on every store, a 税务UKey at HQ, a
 * 金税盘 main disc (HQ) and branch disc (滨江); hotel: a 数电 account on both stores and a 税控盘.
 */
export async function seedDemoDevices(
  db: Db,
  demo: { software: { taxCode: string }; hotel: { taxCode: string } },
): Promise<void> {
  await seedClientDevices(db, demo.software.taxCode, SOFTWARE_DEVICES);
  await seedClientDevices(db, demo.hotel.taxCode, HOTEL_DEVICES);
}
