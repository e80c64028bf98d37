import { beijingInstant, beijingMonth, beijingParts } from '@kaipiao/shared';
import { and, eq, sql } from 'drizzle-orm';
import { loadEnv } from '../config/env.ts';
import type { Db } from '../db/client.ts';
import {
  clientStores,
  clients,
  deviceFilings,
  storeSettings,
  taxAccounts,
  taxDevices,
} from '../db/schema/index.ts';
import { sealSecret } from '../lib/secret-box.ts';

/**
 * Demo 电子税务局 accounts (issue 5): the software company has a white-listed account logged in and
 * real-name verified on its 数电 device and a second one logged out; the hotel's account is not
 * white-listed (so its 税局账号 page stays hidden). Last month's filing is done on the software
 * company's main discs, not on the branch disc; stores get default invoice kinds. Idempotent: a business
 * with accounts is left alone.
 */
export async function seedDemoTaxAccounts(
  db: Db,
  demo: { software: { taxCode: string }; hotel: { taxCode: string } },
): Promise<void> {
  const dataDir = loadEnv(process.env).dataDir;
  const plan = [
    {
      taxCode: demo.software.taxCode,
      accounts: [
        {
          account: '91330106MA2KC7LM1A-zhangli',
          phone: '17612342696',
          identity: '03',
          personName: '张丽',
          white: true,
          online: true,
        },
        {
          account: '91330106MA2KC7LM1A-liqiang',
          phone: '13912345678',
          identity: '09',
          personName: '李强',
          white: false,
          online: false,
        },
      ],
    },
    {
      taxCode: demo.hotel.taxCode,
      accounts: [
        {
          account: '91330102MA2H8R4T2U-wangfang',
          phone: '13712345678',
          identity: '02',
          personName: '王芳',
          white: false,
          online: false,
        },
      ],
    },
  ];
  for (const p of plan) {
    const [client] = await db.select().from(clients).where(eq(clients.taxCode, p.taxCode));
    if (!client) continue;
    // default invoice kinds per store: 数电 普票 first, 专票 at head office
    const stores = await db.select().from(clientStores).where(eq(clientStores.clientId, client.id));
    if (stores.length > 0) {
      await db
        .insert(storeSettings)
        .values(
          stores.map((st) => ({
            storeId: st.id,
            clientId: client.id,
            defaultInvoiceTypes: st.code === 'HQ' ? ['82', '81'] : ['82'],
          })),
        )
        .onConflictDoNothing();
    }
    const has = await db
      .select({ id: taxAccounts.id })
      .from(taxAccounts)
      .where(eq(taxAccounts.clientId, client.id))
      .limit(1);
    if (has.length > 0) continue;
    const [digital] = await db
      .select({ id: taxDevices.id })
      .from(taxDevices)
      .where(and(eq(taxDevices.clientId, client.id), eq(taxDevices.kind, 'digital')))
      .limit(1);
    const rows = [];
    for (const a of p.accounts) {
      rows.push({
        clientId: client.id,
        deviceId: a.online ? (digital?.id ?? null) : null,
        account: a.account,
        passwordEnc: await sealSecret(dataDir, 'Demo@2026tax'),
        phone: a.phone,
        identity: a.identity,
        personName: a.personName,
        channel: 'GP900000',
        whiteListed: a.white,
        loginState: a.online ? 'online' : 'offline',
        realNameState: a.online ? 'verified' : 'none',
        sessionExpiresAt: a.online ? new Date(Date.now() + 3 * 3600_000) : null,
      });
    }
    await db.insert(taxAccounts).values(rows);
    await db.execute(sql`update clients set has_white_listed_tax_account = exists (
      select 1 from tax_accounts where client_id = ${client.id} and white_listed and status = 'active') where id = ${client.id}`);
    // last month's filing done on main discs (a device is only liable for a month it existed in:
    // filing.ts isLiable; demo-filings.ts files what the history makes liable)
    const { year, month } = beijingParts();
    const period = beijingMonth(beijingInstant({ year, month: month - 1, day: 1 }));
    const discs = await db
      .select({ id: taxDevices.id, kind: taxDevices.kind, parentId: taxDevices.parentId })
      .from(taxDevices)
      .where(eq(taxDevices.clientId, client.id));
    const filed = discs.filter((d) => d.kind !== 'digital' && d.parentId === null);
    if (filed.length > 0) {
      const at = beijingInstant({ year, month, day: 3, hour: 10 }); // the 3rd, 10:00 Beijing
      await db
        .insert(deviceFilings)
        .values(
          filed.map((d) => ({
            clientId: client.id,
            deviceId: d.id,
            period,
            copiedAt: at,
            clearedAt: at,
            uploadNo: `SB${period.replace('-', '')}${String(d.id).padStart(6, '0')}`,
          })),
        )
        .onConflictDoNothing();
    }
  }
}
