import {
  beijingMonth,
  beijingParts,
  computeLine,
  computeTotals,
  dec,
  fixed,
  invoiceQrText,
  startOfBeijingDay,
  usccCheckChar,
} from '@kaipiao/shared';
import { eq, inArray, sql } from 'drizzle-orm';
import { allocateInvoiceNumbers, type DbOrTx, isDigitalType, makeCheckCode } from '../channels/numbers.ts';
import type { Db } from '../db/client.ts';
import type { RawRow } from '../db/rows.ts';
import {
  clientStores,
  clients,
  deviceStores,
  type invoiceLines,
  type invoices,
  taxDevices,
  users,
} from '../db/schema/index.ts';
import { BEIJING_TZ } from '../lib/beijing-sql.ts';

/**
 * A year of invoicing history for the demo businesses (issue 3 item 8: the library, statistics and
 * home pages need something to show): ~4,000 invoices for the software company and ~3,000 for the
 * hotel over the past 12 months, with weekday and seasonal variation, realistic buyers and the demo
 * goods codes, a few red invoices that net out (full and partial), a few failures, and their events.
 * Numbers come from the channel's allocator in issue-time order, so invoices issued later continue
 * each device's sequence. Deterministic (seeded PRNG), idempotent (skips a business that already has
 * history), one multi-row INSERT per table per business.
 */

export const HISTORY_SERIAL_PREFIX = 'HIS';

/** mulberry32: small, fast, deterministic. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
type Rand = ReturnType<typeof prng>;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const between = (r: Rand, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
/** Index drawn with weight ∝ 1/(i+1)^s: a few regular customers, a long tail. */
function zipf(r: Rand, n: number, s = 1.1): number {
  let total = 0;
  for (let i = 0; i < n; i++) total += 1 / (i + 1) ** s;
  let x = r() * total;
  for (let i = 0; i < n; i++) {
    x -= 1 / (i + 1) ** s;
    if (x <= 0) return i;
  }
  return n - 1;
}

const USCC_ALPHABET = '0123456789ABCDEFGHJKLMNPQRTUWXY';
function makeUscc(r: Rand, area: string): string {
  let body = '';
  for (let i = 0; i < 9; i++) body += USCC_ALPHABET[Math.floor(r() * USCC_ALPHABET.length)];
  const first17 = `91${area}${body}`;
  return `${first17}${usccCheckChar(first17)}`;
}

type Buyer = {
  titleType: 1 | 2;
  name: string;
  taxCode: string;
  email: string;
  address: string;
  phone: string;
};

const CITIES: readonly [string, string][] = [
  ['杭州', '330106'],
  ['上海', '310115'],
  ['北京', '110108'],
  ['深圳', '440300'],
  ['南京', '320105'],
  ['宁波', '330203'],
  ['苏州', '320505'],
  ['广州', '440106'],
  ['成都', '510107'],
  ['武汉', '420111'],
  ['合肥', '340104'],
  ['绍兴', '330602'],
];
const WORDS = [
  '数澜',
  '云帆',
  '智联',
  '星桥',
  '易达',
  '恒通',
  '博远',
  '青禾',
  '明途',
  '启辰',
  '汇智',
  '锦程',
  '川流',
  '长风',
  '晨光',
  '新禾',
  '拓普',
  '安迅',
  '天衡',
  '盛源',
  '卓越',
  '鼎力',
  '华信',
  '远景',
  '同舟',
  '优品',
];
const TRADES = [
  '网络科技',
  '信息技术',
  '软件开发',
  '数据服务',
  '电子商务',
  '物流',
  '贸易',
  '智能制造',
  '文化传媒',
  '医疗器械',
  '教育科技',
  '供应链管理',
  '新能源科技',
  '建筑工程',
];
const SURNAMES =
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈';
const GIVEN = [
  '伟',
  '芳',
  '娜',
  '敏',
  '静',
  '磊',
  '洋',
  '艳',
  '勇',
  '军',
  '杰',
  '娟',
  '涛',
  '明',
  '超',
  '秀英',
  '霞',
  '平',
  '刚',
  '桂英',
  '子涵',
  '浩然',
  '雨桐',
  '思远',
  '欣怡',
  '宇航',
  '梓萱',
  '一鸣',
];

function companyPool(r: Rand, n: number, extra: readonly string[] = []): Buyer[] {
  const names = new Set<string>(extra);
  const out: Buyer[] = [];
  for (const name of extra) {
    const [, area] = CITIES.find(([c]) => name.startsWith(c)) ?? CITIES[0]!;
    out.push({ titleType: 2, name, taxCode: makeUscc(r, area), email: '', address: '', phone: '' });
  }
  while (out.length < n) {
    const [city, area] = pick(r, CITIES);
    const name = `${city}${pick(r, WORDS)}${pick(r, TRADES)}${r() < 0.15 ? '股份' : ''}有限公司`;
    if (names.has(name)) continue;
    names.add(name);
    out.push({
      titleType: 2,
      name,
      taxCode: makeUscc(r, area),
      email:
        r() < 0.6
          ? `finance${out.length}@${['example.com', 'example.cn', 'example.net'][out.length % 3]}`
          : '',
      address: `${city}市${pick(r, ['滨江区', '西湖区', '浦东新区', '海淀区', '南山区', '建邺区'])}${pick(r, WORDS)}路${between(r, 1, 999)}号`,
      phone: `0${between(r, 10, 999)}-${between(r, 80000000, 89999999)}`,
    });
  }
  return out;
}

const personName = (r: Rand) => `${SURNAMES[Math.floor(r() * SURNAMES.length)]}${pick(r, GIVEN)}`;

type Item = { name: string; code: string; short: string; unit: string; rate: string };
const SOFTWARE_ITEMS: readonly Item[] = [
  { name: '软件开发服务', code: '3040201010000000000', short: '信息技术服务', unit: '项', rate: '0.06' },
  { name: '软件维护服务', code: '3040201030000000000', short: '信息技术服务', unit: '年', rate: '0.06' },
  { name: '技术咨询服务', code: '3040102000000000000', short: '研发和技术服务', unit: '次', rate: '0.06' },
  { name: '信息系统集成服务', code: '3040203000000000000', short: '信息技术服务', unit: '项', rate: '0.06' },
  { name: '软件使用费', code: '3040201990000000000', short: '信息技术服务', unit: '套/年', rate: '0.06' },
];
const HOTEL_ITEMS = {
  room: { name: '住宿费', code: '3070402000000000000', short: '住宿服务', unit: '间/天', rate: '0.01' },
  meal: { name: '餐费', code: '3070401000000000000', short: '餐饮服务', unit: '次', rate: '0.01' },
  meeting: { name: '会议室租赁', code: '3040304000000000000', short: '会展服务', unit: '场', rate: '0.01' },
  parking: { name: '停车费', code: '3040502020200000000', short: '不动产经营租赁', unit: '次', rate: '0.05' },
} as const;

/** A line to store (its figures as invoice_lines keeps them), its item and the entered price. */
type Line = Pick<
  typeof invoiceLines.$inferSelect,
  'quantity' | 'amount' | 'taxAmount' | 'amountWithTax' | 'unitPrice' | 'unitPriceWithTax'
> & { item: Item; price: string | null };

function line(
  item: Item,
  quantity: number | null,
  priceWithTax: string | null,
  amountWithTax?: string,
): Line {
  const c = computeLine({
    priceIncludesTax: true,
    taxRate: item.rate,
    quantity: quantity === null ? null : String(quantity),
    price: priceWithTax,
    amount: amountWithTax ?? null,
  });
  return { item, price: priceWithTax, ...c };
}

type Draft = {
  serial: string;
  storeId: number;
  deviceId: number;
  invoiceType: string;
  direction: 'blue' | 'red';
  status: 'issued' | 'failed';
  redStatus: 'none' | 'partial' | 'full';
  issuedAt: Date;
  buyer: Buyer;
  lines: Line[];
  userId: number;
  drawer: string;
  remark: string;
  /** red → index of its blue draft */
  original: number | null;
  emailed: boolean;
  invoiceCode: string;
  invoiceNo: string | null;
};

type Ctx = {
  client: typeof clients.$inferSelect;
  stores: Map<string, number>;
  devices: (typeof taxDevices.$inferSelect & { storeIds: number[] })[];
  admin: { id: number; nickname: string };
  clerk: { id: number; nickname: string } | null;
};

const DAY = 86_400_000;
/** Midnight (Beijing) of the day `back` days before today. */
function beijingMidnight(now: Date, back: number): Date {
  return new Date(startOfBeijingDay(now).getTime() - back * DAY);
}

type Profile = {
  total: number;
  month: readonly number[];
  weekday: readonly number[];
  /** issue hour range (Beijing) */
  hours: [number, number];
};

const SOFTWARE_PROFILE: Profile = {
  total: 4000,
  month: [0.9, 0.55, 1.0, 1.0, 1.0, 1.1, 0.9, 0.9, 1.0, 0.85, 1.05, 1.45],
  weekday: [0.06, 1, 1.05, 1.05, 1, 0.95, 0.12], // Sun … Sat
  hours: [9, 18],
};
const HOTEL_PROFILE: Profile = {
  total: 3000,
  month: [0.8, 1.0, 0.9, 1.2, 1.35, 1.0, 1.2, 1.3, 1.0, 1.45, 0.9, 0.8],
  weekday: [1.3, 0.75, 0.75, 0.8, 0.85, 1.2, 1.5],
  hours: [7, 23],
};

/** Issue instants over the past 365 days (today so far included), weighted by month and weekday. */
function issueTimes(r: Rand, now: Date, p: Profile): Date[] {
  const days: { start: Date; w: number }[] = [];
  for (let back = 364; back >= 0; back--) {
    const start = beijingMidnight(now, back);
    const { month, weekday } = beijingParts(start);
    const growth = 0.85 + 0.3 * ((364 - back) / 364);
    days.push({ start, w: p.month[month - 1]! * p.weekday[weekday]! * growth });
  }
  const sum = days.reduce((s, d) => s + d.w, 0);
  const out: Date[] = [];
  let carry = 0;
  for (const d of days) {
    const exact = (p.total * d.w) / sum + carry;
    const n = Math.max(0, Math.round(exact * (0.8 + 0.4 * r())));
    carry = exact - n;
    for (let i = 0; i < n; i++) {
      const hour = p.hours[0] + r() * (p.hours[1] - p.hours[0]);
      const t = new Date(d.start.getTime() + hour * 3600_000 + Math.floor(r() * 60_000));
      if (t.getTime() < now.getTime() - 60_000) out.push(t);
    }
  }
  return out.sort((a, b) => a.getTime() - b.getTime());
}

function softwareLines(r: Rand): Line[] {
  const n = r() < 0.7 ? 1 : r() < 0.75 ? 2 : 3;
  const items = [...SOFTWARE_ITEMS].sort(() => r() - 0.5).slice(0, n);
  return items.map((item) => {
    if (item.name === '软件使用费') return line(item, between(r, 1, 20), '9800');
    if (item.name === '软件维护服务') return line(item, 1, String(between(r, 10, 60) * 1000));
    if (item.name === '技术咨询服务') return line(item, between(r, 1, 6), '5000');
    // project work: 5,000 – 300,000, a few large ones
    const big = r() < 0.08;
    return line(item, 1, String(between(r, big ? 800 : 50, big ? 3000 : 800) * 100));
  });
}

function hotelLines(r: Rand): Line[] {
  const out: Line[] = [];
  // a small-scale hotel near the ¥100,000 monthly threshold: ~250 invoices a month around ¥400
  const nights = r() < 0.75 ? 1 : between(r, 2, 3);
  const rooms = r() < 0.96 ? 1 : 2;
  const rate = pick(r, ['198', '238', '268', '298', '328', '388']);
  out.push(line(HOTEL_ITEMS.room, nights * rooms, rate));
  if (r() < 0.25) out.push(line(HOTEL_ITEMS.meal, null, null, String(between(r, 4, 40) * 10)));
  if (r() < 0.04) out.push(line(HOTEL_ITEMS.meeting, between(r, 1, 2), '1200'));
  if (r() < 0.12) out.push(line(HOTEL_ITEMS.parking, nights, '20'));
  return out;
}

/** A red line reversing `amountWithTax` of `of` (negative amounts, the bureau's red form). */
function redLine(of: Line, amountWithTax: string): Line {
  const c = computeLine({
    priceIncludesTax: true,
    taxRate: of.item.rate,
    quantity: null,
    price: null,
    amount: amountWithTax,
  });
  return { item: of.item, price: null, ...c, quantity: null, unitPrice: null, unitPriceWithTax: null };
}

async function loadCtx(db: Db, taxCode: string): Promise<Ctx | null> {
  const [client] = await db.select().from(clients).where(eq(clients.taxCode, taxCode));
  if (!client) return null;
  const storeRows = await db.select().from(clientStores).where(eq(clientStores.clientId, client.id));
  const deviceRows = await db.select().from(taxDevices).where(eq(taxDevices.clientId, client.id));
  if (deviceRows.length === 0) return null;
  const bindings = await db
    .select()
    .from(deviceStores)
    .where(
      inArray(
        deviceStores.deviceId,
        deviceRows.map((d) => d.id),
      ),
    );
  const people = await db
    .select({ id: users.id, nickname: users.nickname, account: users.account })
    .from(users)
    .where(inArray(users.account, ['kaipiao_admin', 'kaipiao_clerk']));
  const admin = people.find((p) => p.account === 'kaipiao_admin');
  if (!admin) return null;
  return {
    client,
    stores: new Map(storeRows.map((s) => [s.code, s.id])),
    devices: deviceRows.map((d) => ({
      ...d,
      storeIds: bindings.filter((b) => b.deviceId === d.id).map((b) => b.storeId),
    })),
    admin,
    clerk: people.find((p) => p.account === 'kaipiao_clerk') ?? null,
  };
}

function buildDrafts(ctx: Ctx, kind: 'software' | 'hotel', now: Date): Draft[] {
  const r = prng(kind === 'software' ? 20260101 : 20260202);
  const profile = kind === 'software' ? SOFTWARE_PROFILE : HOTEL_PROFILE;
  const times = issueTimes(r, now, profile);
  const digital = ctx.devices.find((d) => d.kind === 'digital' && d.status === 'active');
  if (!digital) return [];
  const oldKind = ctx.devices.find((d) => d.kind !== 'digital' && d.invoiceTypes.includes('026'));
  const storeCodes =
    kind === 'software'
      ? ['HQ', 'HQ', 'HQ', 'HQ', 'HQ', 'BJ', 'BJ', 'BJ', 'SH', 'SH']
      : ['BS', 'BS', 'BS', 'LJ', 'LJ'];
  const companies =
    kind === 'software'
      ? companyPool(r, 140, [
          '杭州数澜网络科技有限公司',
          '上海云帆信息技术有限公司',
          '北京智联星辰科技有限公司',
        ])
      : companyPool(r, 40, ['杭州湖畔旅行社有限公司', '杭州数澜网络科技有限公司']);
  const drafts: Draft[] = [];
  let oldKindLeft = kind === 'software' ? 120 : 150;
  for (const [i, at] of times.entries()) {
    const storeId = ctx.stores.get(pick(r, storeCodes))!;
    let buyer: Buyer;
    if (kind === 'software' && r() > 0.04) buyer = companies[zipf(r, companies.length)]!;
    else if (kind === 'hotel' && r() < 0.35) buyer = companies[zipf(r, companies.length, 0.9)]!;
    else {
      const name = personName(r);
      buyer = {
        titleType: 1,
        name,
        taxCode: '',
        email: r() < 0.4 ? `guest${i}@example.com` : '',
        address: '',
        phone: '',
      };
    }
    // a few old-kind 增值税电子普通发票 (026) on the disc bound to this store, the rest 数电
    let device = digital;
    let invoiceType = buyer.titleType === 2 && r() < (kind === 'software' ? 0.3 : 0.12) ? '81' : '82';
    if (oldKind && oldKindLeft > 0 && oldKind.storeIds.includes(storeId) && r() < 0.06) {
      device = oldKind;
      invoiceType = '026';
      oldKindLeft -= 1;
    }
    const useClerk = kind === 'software' && ctx.clerk && storeId === ctx.stores.get('HQ') && r() < 0.7;
    const who = useClerk ? ctx.clerk! : ctx.admin;
    drafts.push({
      serial: `${HISTORY_SERIAL_PREFIX}${kind === 'software' ? 'S' : 'H'}${String(i + 1).padStart(6, '0')}`,
      storeId,
      deviceId: device.id,
      invoiceType,
      direction: 'blue',
      status: 'issued',
      redStatus: 'none',
      issuedAt: at,
      buyer,
      lines: kind === 'software' ? softwareLines(r) : hotelLines(r),
      userId: who.id,
      drawer: who.nickname,
      remark:
        kind === 'hotel' && r() < 0.2
          ? `房号：${between(r, 2, 9)}${String(between(r, 1, 30)).padStart(2, '0')}`
          : '',
      original: null,
      emailed: Boolean(buyer.email) && r() < 0.8,
      invoiceCode: '',
      invoiceNo: null,
    });
  }

  // reds: ~1.5% of blue invoices, a few days later; 70% full, 30% partial (销售折让)
  const blueCount = drafts.length;
  let redSeq = 0;
  for (let i = 0; i < blueCount; i++) {
    const blue = drafts[i]!;
    if (r() >= 0.015) continue;
    const at = new Date(blue.issuedAt.getTime() + between(r, 1, 20) * DAY + between(r, 0, 90) * 60_000);
    if (at.getTime() > now.getTime() - 60_000) continue;
    const full = r() < 0.7;
    const first = blue.lines[0]!;
    const lines = full
      ? blue.lines.map((l) => redLine(l, fixed(dec(l.amountWithTax).neg())))
      : [redLine(first, fixed(dec(first.amountWithTax).times(-0.3)))];
    blue.redStatus = full ? 'full' : 'partial';
    redSeq += 1;
    drafts.push({
      ...blue,
      serial: `${HISTORY_SERIAL_PREFIX}${kind === 'software' ? 'S' : 'H'}R${String(redSeq).padStart(5, '0')}`,
      direction: 'red',
      redStatus: 'none',
      issuedAt: at,
      lines,
      original: i,
      emailed: false,
      remark: '',
    });
  }

  // a few failed submissions in the last two months (no number)
  if (kind === 'software') {
    for (let k = 0; k < 6; k++) {
      const base = drafts[between(r, Math.floor(blueCount * 0.8), blueCount - 1)]!;
      drafts.push({
        ...base,
        serial: `${HISTORY_SERIAL_PREFIX}SF${String(k + 1).padStart(5, '0')}`,
        status: 'failed',
        redStatus: 'none',
        issuedAt: new Date(base.issuedAt.getTime() + 5 * 60_000),
        emailed: false,
      });
    }
  }
  return drafts;
}

/** Numbers per device and year in issue order (81 and 82 share the 数电 sequence). */
async function assignNumbers(tx: DbOrTx, ctx: Ctx, drafts: Draft[]) {
  const groups = new Map<string, Draft[]>();
  for (const d of drafts) {
    if (d.status !== 'issued') continue;
    const { year } = beijingParts(d.issuedAt);
    const series = isDigitalType(d.invoiceType) ? 'digital' : d.invoiceType;
    const key = `${d.deviceId}:${series}:${year}`;
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  const keys = [...groups.keys()].sort((a, b) => Number(a.split(':')[2]) - Number(b.split(':')[2]));
  for (const key of keys) {
    const list = groups.get(key)!.sort((a, b) => a.issuedAt.getTime() - b.issuedAt.getTime());
    const device = ctx.devices.find((d) => d.id === list[0]!.deviceId)!;
    const numbers = await allocateInvoiceNumbers(tx, {
      deviceId: device.id,
      invoiceType: list[0]!.invoiceType,
      count: list.length,
      issuedAt: list[0]!.issuedAt,
      device: { clientId: ctx.client.id, areaCode: device.areaCode },
    });
    list.forEach((d, i) => {
      d.invoiceCode = numbers[i]!.invoiceCode;
      d.invoiceNo = numbers[i]!.invoiceNo;
    });
  }
}

async function insertHistory(tx: DbOrTx, ctx: Ctx, drafts: Draft[]) {
  const c = ctx.client;
  const cols = {
    store_id: [] as number[],
    device_id: [] as number[],
    serial_no: [] as string[],
    invoice_type: [] as string[],
    direction: [] as string[],
    status: [] as string[],
    red_status: [] as string[],
    invoice_code: [] as string[],
    invoice_no: [] as (string | null)[],
    check_code: [] as string[],
    issued_at: [] as (string | null)[],
    created_at: [] as string[],
    buyer_title_type: [] as number[],
    buyer_name: [] as string[],
    buyer_tax_code: [] as string[],
    buyer_email: [] as string[],
    buyer_address: [] as string[],
    buyer_phone: [] as string[],
    total_amount: [] as string[],
    total_tax: [] as string[],
    total_with_tax: [] as string[],
    remark: [] as string[],
    drawer: [] as string[],
    qr_string: [] as string[],
    error_code: [] as (string | null)[],
    error_message: [] as (string | null)[],
    created_by: [] as number[],
  };
  for (const d of drafts) {
    const totals = computeTotals(d.lines);
    const checkCode = d.invoiceNo ? makeCheckCode(d.invoiceType, d.invoiceCode, d.invoiceNo) : '';
    let remark = d.remark;
    if (d.direction === 'red' && d.original !== null) {
      const blue = drafts[d.original]!;
      remark = isDigitalType(d.invoiceType)
        ? `被红冲蓝字数电发票号码：${blue.invoiceNo}`
        : `对应正数发票代码:${blue.invoiceCode}号码:${blue.invoiceNo}`;
    }
    cols.store_id.push(d.storeId);
    cols.device_id.push(d.deviceId);
    cols.serial_no.push(d.serial);
    cols.invoice_type.push(d.invoiceType);
    cols.direction.push(d.direction);
    cols.status.push(d.status);
    cols.red_status.push(d.redStatus);
    cols.invoice_code.push(d.invoiceCode);
    cols.invoice_no.push(d.invoiceNo);
    cols.check_code.push(checkCode);
    cols.issued_at.push(d.status === 'issued' ? d.issuedAt.toISOString() : null);
    cols.created_at.push(new Date(d.issuedAt.getTime() - 2000).toISOString());
    cols.buyer_title_type.push(d.buyer.titleType);
    cols.buyer_name.push(d.buyer.name);
    cols.buyer_tax_code.push(d.buyer.taxCode);
    cols.buyer_email.push(d.buyer.email);
    cols.buyer_address.push(d.buyer.address);
    cols.buyer_phone.push(d.buyer.phone);
    cols.total_amount.push(totals.totalAmount);
    cols.total_tax.push(totals.totalTax);
    cols.total_with_tax.push(totals.totalWithTax);
    cols.remark.push(remark);
    cols.drawer.push(d.drawer);
    cols.qr_string.push(
      d.invoiceNo
        ? invoiceQrText({
            invoiceType: d.invoiceType,
            invoiceCode: d.invoiceCode,
            invoiceNo: d.invoiceNo,
            checkCode,
            totalAmount: totals.totalAmount,
            totalWithTax: totals.totalWithTax,
            issueDate: d.issuedAt,
          })
        : '',
    );
    cols.error_code.push(d.status === 'failed' ? '13110' : null);
    cols.error_message.push(d.status === 'failed' ? '税局开票失败，请稍后重试' : null);
    cols.created_by.push(d.userId);
  }
  const arr = (v: unknown[]) => JSON.stringify(v);
  const inserted = await tx.execute<Pick<RawRow<typeof invoices>, 'id' | 'serial_no'>>(sql`
    insert into invoices (client_id, store_id, device_id, serial_no, request_hash, source, invoice_type, direction,
      status, red_status, invoice_code, invoice_no, check_code, issued_at, created_at, updated_at,
      buyer_title_type, buyer_name, buyer_tax_code, buyer_email, buyer_address, buyer_phone,
      seller_name, seller_tax_code, seller_address, seller_phone, seller_bank_name, seller_bank_account,
      price_includes_tax, total_amount, total_tax, total_with_tax, remark, drawer, qr_string,
      error_code, error_message, created_by)
    select ${c.id}, u.store_id, u.device_id, u.serial_no, 'demo-history', 'online', u.invoice_type, u.direction,
      u.status, u.red_status, u.invoice_code, u.invoice_no, u.check_code, u.issued_at, u.created_at, u.created_at,
      u.buyer_title_type, u.buyer_name, u.buyer_tax_code, u.buyer_email, u.buyer_address, u.buyer_phone,
      ${c.name}, ${c.taxCode}, ${c.address}, ${c.phone}, ${c.bankName}, ${c.bankAccount},
      true, u.total_amount, u.total_tax, u.total_with_tax, u.remark, u.drawer, u.qr_string,
      u.error_code, u.error_message, u.created_by
    from json_to_recordset(${arr(
      drafts.map((_, i) => Object.fromEntries(Object.entries(cols).map(([k, v]) => [k, v[i]]))),
    )}::json) as u(store_id int, device_id int, serial_no text, invoice_type text, direction text, status text,
      red_status text, invoice_code text, invoice_no text, check_code text, issued_at timestamptz,
      created_at timestamptz, buyer_title_type smallint, buyer_name text, buyer_tax_code text, buyer_email text,
      buyer_address text, buyer_phone text, total_amount numeric, total_tax numeric, total_with_tax numeric,
      remark text, drawer text, qr_string text, error_code text, error_message text, created_by int)
    returning id, serial_no`);
  const idOf = new Map(inserted.rows.map((row) => [row.serial_no, Number(row.id)]));

  // red → blue links
  const links = drafts
    .filter((d) => d.original !== null)
    .map((d) => ({ red: idOf.get(d.serial)!, blue: idOf.get(drafts[d.original!]!.serial)! }));
  if (links.length > 0) {
    await tx.execute(sql`
      update invoices i set original_invoice_id = l.blue
      from json_to_recordset(${JSON.stringify(links)}::json) as l(red bigint, blue bigint)
      where i.id = l.red`);
  }

  const lines: Record<string, unknown>[] = [];
  const events: Record<string, unknown>[] = [];
  for (const d of drafts) {
    const id = idOf.get(d.serial)!;
    d.lines.forEach((l, n) => {
      lines.push({
        invoice_id: id,
        line_no: n + 1,
        tax_class_code: l.item.code,
        short_name: l.item.short,
        item_name: l.item.name,
        full_name: `*${l.item.short}*${l.item.name}`,
        unit: l.quantity ? l.item.unit : '',
        quantity: l.quantity,
        unit_price: l.unitPrice,
        unit_price_with_tax: l.unitPriceWithTax,
        amount: l.amount,
        tax_rate: l.item.rate,
        tax_amount: l.taxAmount,
        amount_with_tax: l.amountWithTax,
      });
    });
    const t = d.issuedAt.getTime();
    events.push({
      invoice_id: id,
      kind: 'created',
      user_id: d.userId,
      detail: { serial_no: d.serial },
      at: new Date(t - 2000),
    });
    if (d.status === 'issued') {
      events.push({
        invoice_id: id,
        kind: 'issued',
        user_id: null,
        detail: { invoice_no: d.invoiceNo },
        at: new Date(t),
      });
      if (d.emailed) {
        events.push({
          invoice_id: id,
          kind: 'emailed',
          user_id: null,
          detail: { email: d.buyer.email },
          at: new Date(t + 40_000),
        });
      }
    } else {
      events.push({
        invoice_id: id,
        kind: 'failed',
        user_id: null,
        detail: { code: '13110', message: '税局开票失败，请稍后重试' },
        at: new Date(t),
      });
    }
    if (d.direction === 'red' && d.original !== null) {
      const blue = drafts[d.original]!;
      events.push({
        invoice_id: idOf.get(blue.serial)!,
        kind: 'reddened',
        user_id: d.userId,
        detail: {
          red_invoice_id: id,
          red_invoice_no: d.invoiceNo,
          amount_with_tax: computeTotals(d.lines).totalWithTax,
        },
        at: new Date(t + 1000),
      });
    }
  }
  await tx.execute(sql`
    insert into invoice_lines (invoice_id, line_no, client_id, line_kind, tax_class_code, short_name, item_name,
      full_name, unit, quantity, unit_price, unit_price_with_tax, amount, tax_rate, tax_amount, amount_with_tax)
    select l.invoice_id, l.line_no, ${c.id}, 0, l.tax_class_code, l.short_name, l.item_name, l.full_name, l.unit,
      l.quantity, l.unit_price, l.unit_price_with_tax, l.amount, l.tax_rate, l.tax_amount, l.amount_with_tax
    from json_to_recordset(${JSON.stringify(lines)}::json) as l(invoice_id bigint, line_no int, tax_class_code text,
      short_name text, item_name text, full_name text, unit text, quantity numeric, unit_price numeric,
      unit_price_with_tax numeric, amount numeric, tax_rate numeric, tax_amount numeric, amount_with_tax numeric)`);
  events.sort((a, b) => (a.at as Date).getTime() - (b.at as Date).getTime());
  await tx.execute(sql`
    insert into invoice_events (invoice_id, client_id, kind, user_id, detail, created_at)
    select e.invoice_id, ${c.id}, e.kind, e.user_id, e.detail, e.at
    from json_to_recordset(${JSON.stringify(events)}::json) as e(invoice_id bigint, kind text, user_id int,
      detail jsonb, at timestamptz)`);
  return drafts.length;
}

/** Seeds one business's history unless it has some already; returns how many invoices were added. */
async function seedClientHistory(
  db: Db,
  taxCode: string,
  kind: 'software' | 'hotel',
  now: Date,
): Promise<number> {
  const ctx = await loadCtx(db, taxCode);
  if (!ctx) return 0;
  const existing = await db.execute(
    sql`select 1 from invoices where client_id = ${ctx.client.id} and serial_no like ${`${HISTORY_SERIAL_PREFIX}%`} limit 1`,
  );
  if (existing.rows.length > 0) return 0;
  const drafts = buildDrafts(ctx, kind, now);
  if (drafts.length === 0) return 0;
  return db.transaction(async (tx) => {
    // one seeding per business even when two processes start at once
    await tx.execute(sql`select pg_advisory_xact_lock(727101, ${ctx.client.id})`);
    const again = await tx.execute(
      sql`select 1 from invoices where client_id = ${ctx.client.id} and serial_no like ${`${HISTORY_SERIAL_PREFIX}%`} limit 1`,
    );
    if (again.rows.length > 0) return 0;
    await assignNumbers(tx, ctx, drafts);
    return insertHistory(tx, ctx, drafts);
  });
}

/**
 * Demo history for both demo businesses (called from seedDemo). Needs their devices (seedDemoDevices)
 * and users; a business without devices is skipped.
 */
export async function seedDemoHistory(
  db: Db,
  demo: { software: { taxCode: string }; hotel: { taxCode: string } },
  now: Date = new Date(),
): Promise<{ software: number; hotel: number }> {
  const software = await seedClientHistory(db, demo.software.taxCode, 'software', now);
  const hotel = await seedClientHistory(db, demo.hotel.taxCode, 'hotel', now);
  if (software + hotel > 0) {
    // the 数电 accounts' month quota counts this month's history (red same-month invoices give
    // quota back), with room left for the demo: at least three times what the history used
    const month = beijingMonth(now);
    await db.execute(sql`
      update tax_devices d set
        quota_month = ${month},
        quota_used = u.used,
        monthly_quota = greatest(d.monthly_quota, ceil(u.used * 3 / 1000000) * 1000000)
      from (
        select i.device_id, greatest(sum(i.total_amount), 0) as used
          from invoices i
         where i.status = 'issued' and i.issued_at >= (${`${month}-01`}::timestamp at time zone ${BEIJING_TZ})
         group by i.device_id
      ) u
      where d.id = u.device_id and d.monthly_quota is not null`);
    await db.execute(sql`analyze invoices, invoice_lines, invoice_events`);
  }
  return { software, hotel };
}
