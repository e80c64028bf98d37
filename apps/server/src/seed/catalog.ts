import { usccCheckChar } from '@kaipiao/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { buyerTitles, clients, goods } from '../db/schema/index.ts';

/** A USCC with its check character computed (GB 32100-2015), from the first 17 characters. */
export const uscc = (first17: string) => `${first17}${usccCheckChar(first17)}`;

type GoodsSeed = {
  name: string;
  taxClassCode: string;
  shortName: string;
  unit: string;
  price: string | null;
  taxRate: string;
  isDefault?: boolean;
};

type TitleSeed = {
  titleType: 1 | 2;
  name: string;
  taxCode?: string;
  address?: string;
  phone?: string;
  bankName?: string;
  bankAccount?: string;
  email?: string;
  mobile?: string;
  useCount?: number;
};

// general taxpayer: modern services at 6% (domain.md §6.2)
export const SOFTWARE_GOODS: readonly GoodsSeed[] = [
  {
    name: '软件开发服务',
    taxClassCode: '3040201010000000000',
    shortName: '信息技术服务',
    unit: '项',
    price: null,
    taxRate: '0.06',
    isDefault: true,
  },
  {
    name: '软件维护服务',
    taxClassCode: '3040201030000000000',
    shortName: '信息技术服务',
    unit: '年',
    price: '20000',
    taxRate: '0.06',
  },
  {
    name: '技术咨询服务',
    taxClassCode: '3040102000000000000',
    shortName: '研发和技术服务',
    unit: '次',
    price: '5000',
    taxRate: '0.06',
  },
  {
    name: '信息系统集成服务',
    taxClassCode: '3040203000000000000',
    shortName: '信息技术服务',
    unit: '项',
    price: null,
    taxRate: '0.06',
  },
  {
    name: '软件使用费',
    taxClassCode: '3040201990000000000',
    shortName: '信息技术服务',
    unit: '套/年',
    price: '9800',
    taxRate: '0.06',
  },
];

// small-scale hotel: 1% until 2027-12-31; parking is 不动产经营租赁 at the 5% levy rate
export const HOTEL_GOODS: readonly GoodsSeed[] = [
  {
    name: '住宿费',
    taxClassCode: '3070402000000000000',
    shortName: '住宿服务',
    unit: '间/天',
    price: '388',
    taxRate: '0.01',
    isDefault: true,
  },
  {
    name: '餐费',
    taxClassCode: '3070401000000000000',
    shortName: '餐饮服务',
    unit: '次',
    price: null,
    taxRate: '0.01',
  },
  // 财税〔2016〕140号: a hotel's meeting rooms are 会议展览服务
  {
    name: '会议室租赁',
    taxClassCode: '3040304000000000000',
    shortName: '会展服务',
    unit: '场',
    price: '1200',
    taxRate: '0.01',
  },
  {
    name: '停车费',
    taxClassCode: '3040502020200000000',
    shortName: '不动产经营租赁',
    unit: '次',
    price: '20',
    taxRate: '0.05',
  },
];

export const SOFTWARE_TITLES: readonly TitleSeed[] = [
  {
    titleType: 2,
    name: '杭州数澜网络科技有限公司',
    taxCode: uscc('91330110MA2GQ7K3P'),
    address: '浙江省杭州市余杭区文一西路998号',
    phone: '0571-86001234',
    bankName: '中国银行杭州余杭支行',
    bankAccount: '358960001234567',
    email: 'finance@shulan.example.com',
    useCount: 12,
  },
  {
    titleType: 2,
    name: '上海云帆信息技术有限公司',
    taxCode: uscc('91310115MA1H8RT2X'),
    address: '上海市浦东新区张江路88号',
    phone: '021-50801234',
    bankName: '招商银行上海张江支行',
    bankAccount: '121908765410202',
    email: 'ap@yunfan.example.com',
    useCount: 8,
  },
  {
    titleType: 2,
    name: '北京智联星辰科技有限公司',
    taxCode: uscc('91110108MA01C4N6Q'),
    address: '北京市海淀区中关村大街27号',
    phone: '010-62501234',
    bankName: '中国工商银行北京中关村支行',
    bankAccount: '0200004509200123456',
    email: 'invoice@xingchen.example.com',
    useCount: 5,
  },
  {
    titleType: 2,
    name: '深圳前海星桥数据服务有限公司',
    taxCode: uscc('91440300MA5F2K8L1'),
    address: '深圳市前海深港合作区前湾一路1号',
    phone: '0755-86001234',
    bankName: '平安银行深圳前海分行',
    bankAccount: '15000098765432',
    useCount: 3,
  },
  {
    titleType: 2,
    name: '南京易达物流有限公司',
    taxCode: uscc('91320105MA1XK3R5T'),
    address: '南京市建邺区江东中路108号',
    phone: '025-86001234',
    bankName: '南京银行建邺支行',
    bankAccount: '0156200000123456',
    useCount: 2,
  },
  {
    titleType: 2,
    name: '宁波海曙恒通贸易有限公司',
    taxCode: uscc('91330203MA2H4P6W8'),
    address: '浙江省宁波市海曙区中山西路66号',
    phone: '0574-87001234',
    useCount: 1,
  },
  {
    titleType: 1,
    name: '浙江省信息技术研究院',
    taxCode: uscc('12330000MB1A2C3D4'),
    address: '浙江省杭州市西湖区天目山路148号',
    phone: '0571-87001234',
  },
  { titleType: 1, name: '张伟', mobile: '13900001111', email: 'zhangwei@example.com', useCount: 4 },
  { titleType: 1, name: '李娜', mobile: '13900002222' },
  { titleType: 1, name: '王芳', email: 'wangfang@example.com' },
];

export const HOTEL_TITLES: readonly TitleSeed[] = [
  {
    titleType: 2,
    name: '杭州数澜网络科技有限公司',
    taxCode: uscc('91330110MA2GQ7K3P'),
    address: '浙江省杭州市余杭区文一西路998号',
    phone: '0571-86001234',
    useCount: 6,
  },
  {
    titleType: 2,
    name: '杭州湖畔旅行社有限公司',
    taxCode: uscc('91330106MA2B7N4H2'),
    address: '浙江省杭州市西湖区曙光路120号',
    phone: '0571-87651234',
    useCount: 3,
  },
  { titleType: 1, name: '陈静', mobile: '13900003333', email: 'chenjing@example.com', useCount: 2 },
];

async function seedClientCatalog(
  db: Db,
  taxCode: string,
  goodsSeeds: readonly GoodsSeed[],
  titles: readonly TitleSeed[],
) {
  const [client] = await db.select({ id: clients.id }).from(clients).where(eq(clients.taxCode, taxCode));
  if (!client) return;
  await db
    .insert(goods)
    .values(
      goodsSeeds.map((g) => ({
        clientId: client.id,
        spec: '',
        priceIncludesTax: true,
        isDefault: false,
        ...g,
      })),
    )
    .onConflictDoNothing();
  await db
    .insert(buyerTitles)
    .values(
      titles.map((t) => ({
        clientId: client.id,
        ...t,
        useCount: t.useCount ?? 0,
        lastUsedAt: t.useCount ? new Date() : null,
      })),
    )
    .onConflictDoNothing();
}

/**
 * Goods codes and buyer titles of the demo businesses; idempotent (existing names are kept, at
 * most one default per business by the partial unique index).
 */
export async function seedDemoCatalog(
  db: Db,
  demo: { software: { taxCode: string }; hotel: { taxCode: string } },
): Promise<void> {
  await seedClientCatalog(db, demo.software.taxCode, SOFTWARE_GOODS, SOFTWARE_TITLES);
  await seedClientCatalog(db, demo.hotel.taxCode, HOTEL_GOODS, HOTEL_TITLES);
}
