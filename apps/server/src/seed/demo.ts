import { MENU } from '@kaipiao/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  authorityRules,
  clientStores,
  clients,
  employeeScopes,
  employees,
  notices,
  orgs,
  users,
  wecomUsers,
} from '../db/schema/index.ts';
import { hashPassword } from '../lib/crypto.ts';
import { seedDemoCatalog } from './catalog.ts';
import { seedDemoFilings } from './demo-filings.ts';
import { seedDemoHistory } from './demo-history.ts';
import { seedDemoDevices } from './devices.ts';
import { seedDemoRedForms } from './red-forms.ts';
import { seedDemoScan } from './scan.ts';
import { seedDemoTaxAccounts } from './tax-accounts.ts';
import { seedDemoTrusteeship } from './trusteeship.ts';

export const DEMO = {
  password: 'Kaipiao@2026',
  admin: { account: 'kaipiao_admin', nickname: '集团管理员', mobile: '13800000001' },
  clerk: { account: 'kaipiao_clerk', nickname: '开票员小王', mobile: '13800000002' },
  software: { name: '杭州云栈软件科技有限公司', taxCode: '91330106MA2KC7LM1A' },
  hotel: { name: '杭州西湖畔酒店管理有限公司', taxCode: '91330102MA2H8R4T2U' },
  /** the work app's (WeCom) demo corp: one bound clerk, one new hire not yet an employee */
  wecom: { corpId: 'wwkaipiaodemo', clerk: 'wangxiaohong', newHire: 'newhire' },
} as const;

// Invoicing clerk: everything except stores management, devices administration and the group.
const CLERK_URLS = MENU.filter(
  (m) =>
    m.area === 'main' &&
    ![
      '/group/client-store',
      '/hotel/group/client-store',
      '/device-project/account',
      '/invoice-manage/dispense',
    ].includes(m.url),
).map((m) => m.url);

/**
 * Seeds the demo tenant once (README): a group, a software company and a hotel, two logins. Devices,
 * catalog and a year of invoice history (`history`; default on except under NODE_ENV=test, where a
 * test that wants it calls seedDemoHistory) are added idempotently on every start.
 */
export async function seedDemo(db: Db, opts: { history?: boolean } = {}): Promise<boolean> {
  const history = opts.history ?? process.env.NODE_ENV !== 'test';
  const existing = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.account, DEMO.admin.account))
    .limit(1);
  if (existing.length > 0) {
    await seedDemoDevices(db, DEMO);
    await seedDemoTaxAccounts(db, DEMO);
    if (history) await seedDemoHistory(db, DEMO);
    if (history) await seedDemoFilings(db, DEMO);
    if (history) await seedDemoRedForms(db, DEMO);
    if (history) await seedDemoTrusteeship(db, DEMO);
    await seedDemoCatalog(db, DEMO);
    await seedDemoScan(db, DEMO, { requests: history });
    return false;
  }
  await db.transaction(async (tx) => {
    const year = new Date().getFullYear();
    const [org] = await tx
      .insert(orgs)
      .values({
        name: '云栈集团',
        packageCode: 'pro',
        packageExpiresAt: new Date(`${year + 1}-12-31T16:00:00Z`),
        bookkeepingExpiresAt: new Date(`${year + 1}-12-31T16:00:00Z`),
        // listed for the gray-release pages it demonstrates (trusteeship: hosted issuing)
        grayFeatures: ['/receipt-center/bill', '/invoice/trusteeship'],
      })
      .returning();
    const [software] = await tx
      .insert(clients)
      .values({
        orgId: org!.id,
        name: DEMO.software.name,
        taxCode: DEMO.software.taxCode,
        industry: 'general',
        taxpayerType: 'general',
        address: '浙江省杭州市西湖区文三路90号',
        phone: '0571-88886666',
        bankName: '招商银行杭州分行',
        bankAccount: '571908765410001',
        hasWhiteListedTaxAccount: true,
      })
      .returning();
    const [hotel] = await tx
      .insert(clients)
      .values({
        orgId: org!.id,
        name: DEMO.hotel.name,
        taxCode: DEMO.hotel.taxCode,
        industry: 'hotel',
        taxpayerType: 'small',
        address: '浙江省杭州市西湖区北山街78号',
        phone: '0571-87654321',
        bankName: '中国工商银行杭州西湖支行',
        bankAccount: '1202021109900012345',
      })
      .returning();
    const stores = await tx
      .insert(clientStores)
      .values([
        { clientId: software!.id, name: '文三路总部', code: 'HQ' },
        { clientId: software!.id, name: '滨江研发中心', code: 'BJ' },
        { clientId: software!.id, name: '上海分部', code: 'SH' },
        { clientId: hotel!.id, name: '北山街店', code: 'BS' },
        { clientId: hotel!.id, name: '龙井路店', code: 'LJ' },
      ])
      .returning();
    const [rule] = await tx
      .insert(authorityRules)
      .values({ orgId: org!.id, name: '开票员', urls: CLERK_URLS })
      .returning();
    // one hash per user: each gets its own random salt
    const [adminHash, clerkHash] = await Promise.all([
      hashPassword(DEMO.password),
      hashPassword(DEMO.password),
    ]);
    const [admin] = await tx
      .insert(users)
      // group admins verify their phone on a new device (spec §2 two-factor dialog)
      .values({
        ...DEMO.admin,
        passwordHash: adminHash,
        lastOrgId: org!.id,
        mfaRequired: true,
        taxRateChangeTips: 1,
      })
      .returning();
    const [clerk] = await tx
      .insert(users)
      // spec §2: both see the tax-rate-change tip on home until they close it
      .values({ ...DEMO.clerk, passwordHash: clerkHash, lastOrgId: org!.id, taxRateChangeTips: 1 })
      .returning();
    await tx
      .insert(employees)
      .values({ orgId: org!.id, userId: admin!.id, role: 'admin', isGroupAdmin: true });
    const [clerkEmp] = await tx
      .insert(employees)
      .values({ orgId: org!.id, userId: clerk!.id, role: 'staff', authorityRuleId: rule!.id })
      .returning();
    await tx
      .insert(employeeScopes)
      .values({ employeeId: clerkEmp!.id, clientId: software!.id, storeId: stores[0]!.id });
    await tx.insert(wecomUsers).values([
      { corpId: DEMO.wecom.corpId, qwUserId: DEMO.wecom.clerk, userId: clerk!.id, role: 2 },
      { corpId: DEMO.wecom.corpId, qwUserId: DEMO.wecom.newHire, userId: null, role: 0 },
    ]);
    await tx.insert(notices).values({
      title: '开票台商户版升级公告',
      content: '开票台商户版已全新升级：数电发票开具、批量开票与扫码开票体验全面优化。如有问题请联系客服。',
    });
  });
  await seedDemoDevices(db, DEMO);
  await seedDemoTaxAccounts(db, DEMO);
  if (history) await seedDemoHistory(db, DEMO);
  if (history) await seedDemoFilings(db, DEMO);
  if (history) await seedDemoRedForms(db, DEMO);
  if (history) await seedDemoTrusteeship(db, DEMO);
  await seedDemoCatalog(db, DEMO);
  await seedDemoScan(db, DEMO, { requests: history });
  return true;
}
