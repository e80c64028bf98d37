import { z } from 'zod';
import { TERMS } from '../glossary/terms.ts';
import { SPECIFIC_BUSINESS_BLOCKS } from '../invoice/specific-business.ts';
import { isValidIdCard } from '../money/ids.ts';
import type { BlueInvoiceRequest } from './invoice.ts';

/**
 * 特定业务 blocks of the single-invoice form (domain.md §4): the field definitions served by
 * GET /v3/invoice-record/specific-business, and the rules both the form and the server check.
 */

/** 面积单位 of 不动产经营租赁 lines (domain.md §4.3; 米 for rail / pipelines). */
export const AREA_UNITS = ['平方米', '亩', '㎡', '平方千米', '公顷', 'h㎡', 'k㎡', '米'] as const;

/** 运输工具种类 of 货物运输服务 (domain.md §4.2). */
export const GOODS_TRANSPORT_VEHICLES = [
  '铁路运输',
  '公路运输',
  '水路运输',
  '航空运输',
  '管道运输',
  '其他运输工具',
] as const;

/** 交通工具类型 of 旅客运输服务 (domain.md §4.4); 飞机 / 火车 have their own e-ticket kinds and are refused. */
export const PASSENGER_VEHICLES = {
  '1': '飞机',
  '2': '火车',
  '3': '长途汽车',
  '4': '公共交通',
  '5': '出租车',
  '6': '汽车',
  '7': '船舶',
  '9': '其他',
} as const;
export const PASSENGER_VEHICLES_NOT_ALLOWED = ['1', '2'] as const;

/** 等级 per 交通工具类型 (required for 1 / 2 / 7). */
export const SEAT_CLASSES: Record<string, readonly string[]> = {
  '1': ['公务舱', '头等舱', '经济舱'],
  '2': ['一等座', '二等座', '软席', '硬席'],
  '7': ['一等舱', '二等舱', '三等舱'],
};

/** 证件类型 of travellers (domain.md §5.6). */
export const ID_DOCUMENT_TYPES = {
  '201': '居民身份证',
  '202': '军官证',
  '203': '武警警官证',
  '204': '士兵证',
  '205': '军队离退休干部证',
  '206': '残疾人证',
  '207': '残疾军人证（1-8级）',
  '208': '外国护照',
  '210': '港澳居民来往内地通行证',
  '212': '中华人民共和国往来港澳通行证',
  '213': '台湾居民来往大陆通行证',
  '214': '大陆居民往来台湾通行证',
  '215': '外国人居留证',
  '216': '外交官证',
  '217': '使（领事）馆证',
  '218': '海员证',
  '219': '香港永久性居民身份证',
  '220': '台湾身份证',
  '221': '澳门特别行政区永久性居民身份证',
  '222': '外国人身份证件',
  '224': '就业失业登记证',
  '225': '退休证',
  '226': '离休证',
  '227': '中国护照',
  '228': '城镇退役士兵自谋职业证',
  '229': '随军家属身份证明',
  '230': '军官转业证书',
  '231': '义务兵退出现役证',
  '232': '士官退出现役证',
  '233': '外国人永久居留身份证',
  '234': '就业创业证',
  '235': '香港特别行政区护照',
  '236': '澳门特别行政区护照',
  '237': '港澳居民居住证',
  '238': '台湾居民居住证',
  '239': '外国人工作许可证（A类）',
  '240': '外国人工作许可证（B类）',
  '241': '外国人工作许可证（C类）',
  '291': '医学出生证明',
  '299': '其他个人证件',
} as const;

/** Goods codes a special business admits, by prefix (建筑服务 305, 交通运输服务 301, 不动产经营租赁 3040502). */
export const SPECIFIC_BUSINESS_TAX_CLASS_PREFIXES: Record<string, readonly string[]> = {
  '03': ['305'],
  '04': ['301'],
  '06': ['3040502'],
  '09': ['301'],
};

/** 租赁期起止: `yyyy-MM-dd yyyy-MM-dd`, or with `HH:mm` on both ends (parking). */
export const LEASE_PERIOD_PATTERN =
  /^(\d{4}-\d{2}-\d{2}) (\d{4}-\d{2}-\d{2})$|^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}) (\d{4}-\d{2}-\d{2} \d{2}:\d{2})$/;
/** 详细地址 of a rented property must name a street, road, village, … (domain.md §4.3). */
export const RENT_ADDRESS_PATTERN = /[街路村乡镇道巷号]/;
const PROVINCE_PATTERN = /(省|自治区|特别行政区)$|^(北京市|天津市|上海市|重庆市)$/;
const CITY_PATTERN = /(市|盟|自治州|地区|区|县)$/;

export const specificBusinessFieldSchema = z.object({
  key: z.string(),
  label: z.string(),
  /** text | select | date | lease_period (two dates or date-times) | yes_no */
  type: z.enum(['text', 'select', 'date', 'lease_period', 'yes_no']),
  required: z.boolean(),
  max_length: z.number().nullable(),
  options: z.array(z.object({ value: z.string(), label: z.string() })).nullable(),
  hint: z.string(),
});
export type SpecificBusinessField = z.infer<typeof specificBusinessFieldSchema>;

export const specificBusinessDefSchema = z.object({
  code: z.string(),
  name: z.string(),
  /** the payload key carrying the block (SPECIFIC_BUSINESS_BLOCKS) */
  block: z.enum(Object.values(SPECIFIC_BUSINESS_BLOCKS)),
  /** single: one object; list: an independent list (≥ 1); per_line: one entry per item line, in order */
  repeat: z.enum(['single', 'list', 'per_line']),
  /** the invoice may carry one item line only */
  single_line: z.boolean(),
  /** goods codes must start with one of these */
  tax_class_prefixes: z.array(z.string()),
  /** item-line columns the printed form drops */
  hidden_line_columns: z.array(z.string()),
  fields: z.array(specificBusinessFieldSchema),
});
export type SpecificBusinessDef = z.infer<typeof specificBusinessDefSchema>;

const f = (
  key: string,
  label: string,
  opts: Partial<Omit<SpecificBusinessField, 'key' | 'label'>> = {},
): SpecificBusinessField => ({
  key,
  label,
  type: 'text',
  required: true,
  max_length: null,
  options: null,
  hint: '',
  ...opts,
});
const yesNo = [
  { value: 'Y', label: '是' },
  { value: 'N', label: '否' },
];
const toOptions = (o: Record<string, string>) =>
  Object.entries(o).map(([value, label]) => ({ value, label }));

export const SPECIFIC_BUSINESS_DEFS: readonly SpecificBusinessDef[] = [
  {
    code: '03',
    name: '建筑服务',
    block: SPECIFIC_BUSINESS_BLOCKS['03'],
    repeat: 'single',
    single_line: true,
    tax_class_prefixes: ['305'],
    hidden_line_columns: ['spec', 'unit', 'quantity', 'price'],
    fields: [
      f('place', '建筑服务发生地', { max_length: 120, hint: '省-市-区县，如 浙江省-杭州市-西湖区' }),
      f('detail_address', '详细地址', { required: false, max_length: 300 }),
      f('project_name', '建筑项目名称', { max_length: 80 }),
      f('cross_city', '跨地（市）标志', { type: 'yes_no', options: yesNo }),
      f('cross_region_no', '跨区域涉税事项报验管理编号', {
        required: false,
        max_length: 50,
        hint: '跨地（市）标志为“是”时必填，为“否”时须为空',
      }),
      f('land_vat_project_no', '土地增值税项目编号', { required: false, max_length: 16 }),
    ],
  },
  {
    code: '04',
    name: '货物运输服务',
    block: SPECIFIC_BUSINESS_BLOCKS['04'],
    repeat: 'list',
    single_line: false,
    tax_class_prefixes: ['301'],
    hidden_line_columns: ['spec'],
    fields: [
      f('vehicle_type', '运输工具种类', {
        type: 'select',
        max_length: 40,
        options: GOODS_TRANSPORT_VEHICLES.map((v) => ({ value: v, label: v })),
      }),
      f('vehicle_no', '运输工具牌号', { max_length: 40, hint: '车牌号、船名或航班号' }),
      f('origin', '起运地', { max_length: 80 }),
      f('destination', '到达地', { max_length: 80 }),
      f('goods_name', '运输货物名称', { max_length: 80 }),
    ],
  },
  {
    code: '06',
    name: '不动产经营租赁服务',
    block: SPECIFIC_BUSINESS_BLOCKS['06'],
    repeat: 'per_line',
    single_line: false,
    tax_class_prefixes: ['3040502'],
    hidden_line_columns: [],
    fields: [
      f('province', '不动产地址（省）', {
        max_length: 20,
        hint: '以省、自治区、特别行政区结尾，或北京市/天津市/上海市/重庆市',
      }),
      f('city', '不动产地址（市）', {
        required: false,
        max_length: 20,
        hint: '以市、盟、自治州、地区、区、县结尾',
      }),
      f('detail_address', '详细地址', { max_length: 80, hint: '须包含街、路、村、乡、镇、道、巷、号之一' }),
      f('lease_period', '租赁期起止', {
        type: 'lease_period',
        hint: 'yyyy-MM-dd yyyy-MM-dd（停车服务可含 HH:mm）',
      }),
      f('cross_city', '跨地（市）标志', { type: 'yes_no', options: yesNo }),
      f('certificate_no', '产权证书/不动产权证号', { max_length: 40, hint: '没有可填“无”' }),
      f('plate_no', '车牌号', { required: false, max_length: 80, hint: '停车服务，最多3个，以逗号分隔' }),
      f('area_unit', '面积单位', {
        type: 'select',
        options: AREA_UNITS.map((v) => ({ value: v, label: v })),
      }),
    ],
  },
  {
    code: '09',
    name: '旅客运输服务',
    block: SPECIFIC_BUSINESS_BLOCKS['09'],
    repeat: 'list',
    single_line: false,
    tax_class_prefixes: ['301'],
    hidden_line_columns: ['spec', 'unit'],
    fields: [
      f('traveller', '出行人', { max_length: 20 }),
      f('id_type', '出行人证件类型', { type: 'select', options: toOptions(ID_DOCUMENT_TYPES) }),
      f('id_no', '有效身份证件号', { max_length: 20 }),
      f('travel_date', '出行日期', { type: 'date' }),
      f('origin', '出发地', { max_length: 80 }),
      f('destination', '到达地', { max_length: 80 }),
      f('vehicle_type', '交通工具类型', {
        type: 'select',
        options: toOptions(PASSENGER_VEHICLES).filter(
          (o) => !(PASSENGER_VEHICLES_NOT_ALLOWED as readonly string[]).includes(o.value),
        ),
      }),
      f('seat_class', '等级', { required: false, max_length: 20, hint: '船舶必填：一等舱/二等舱/三等舱' }),
    ],
  },
];

export type SpecificIssue = { field: string; message: string };

const validDate = (ymd: string) => {
  const d = new Date(`${ymd.slice(0, 10)}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === ymd.slice(0, 10);
};

/**
 * The 特定业务 rules of domain.md §4 on a blue-invoice payload (its zod schema has already checked
 * required fields and lengths). Field names follow the payload, 0-based: `real_static_rent.1.province`.
 */
export function checkSpecificBusiness(
  req: Pick<
    BlueInvoiceRequest,
    | 'goods_info'
    | 'invoice_info'
    | 'building_service'
    | 'goods_transport'
    | 'real_static_rent'
    | 'passenger_transport'
  >,
): SpecificIssue[] {
  const issues: SpecificIssue[] = [];
  const add = (field: string, message: string) => issues.push({ field, message });
  const code = req.invoice_info.specific_business_code;
  if (!code) return issues;
  const def = SPECIFIC_BUSINESS_DEFS.find((d) => d.code === code)!;
  const lines = req.goods_info;

  req.goods_info.forEach((line, i) => {
    // Stryker disable next-line MethodExpression: every business has exactly one goods-code prefix, so some() and every() agree
    if (!def.tax_class_prefixes.some((p) => line.tax_class_code.startsWith(p)))
      add(`goods_info.${i}.tax_class_code`, `第${i + 1}行${TERMS.taxClassCode}不属于${def.name}类别`);
  });

  if (code === '03') {
    const b = req.building_service;
    if (!b) add('building_service', '请填写建筑服务信息');
    // Stryker disable next-line OptionalChaining: lines[0] is read only when there is exactly one line
    if (lines.length !== 1 || (lines[0]?.line_kind ?? 0) !== 0)
      add('goods_info', '建筑服务发票只能有一行项目明细，且不能有折扣行');
    if (b) {
      if (b.place.split('-').filter((s) => s.trim()).length < 2)
        add('building_service.place', '建筑服务发生地须为“省-市-区县”格式，如 浙江省-杭州市-西湖区');
      if (b.cross_city === 'Y' && !b.cross_region_no)
        add('building_service.cross_region_no', '跨地（市）标志为“是”时，请填写跨区域涉税事项报验管理编号');
      if (b.cross_city === 'N' && b.cross_region_no)
        add('building_service.cross_region_no', '跨地（市）标志为“否”时，跨区域涉税事项报验管理编号须为空');
    }
  }

  if (code === '04') {
    const list = req.goods_transport ?? [];
    if (list.length === 0) add('goods_transport', '请至少填写一条运输明细');
    list.forEach((t, i) => {
      if (!(GOODS_TRANSPORT_VEHICLES as readonly string[]).includes(t.vehicle_type))
        add(`goods_transport.${i}.vehicle_type`, `第${i + 1}条运输明细的运输工具种类不正确`);
    });
  }

  if (code === '06') {
    const list = req.real_static_rent ?? [];
    const itemLines = lines.map((l, i) => ({ l, i })).filter(({ l }) => l.line_kind !== 1);
    if (list.length !== itemLines.length)
      add(
        'real_static_rent',
        `不动产租赁信息须与项目明细逐行对应（${itemLines.length}行明细，${list.length}条信息）`,
      );
    list.forEach((r, i) => {
      const n = i + 1;
      const p = (k: string) => `real_static_rent.${i}.${k}`;
      if (!PROVINCE_PATTERN.test(r.province))
        add(p('province'), `第${n}条不动产地址（省）须以省、自治区、特别行政区结尾，或为直辖市`);
      if (r.city && !CITY_PATTERN.test(r.city))
        add(p('city'), `第${n}条不动产地址（市）须以市、盟、自治州、地区、区或县结尾`);
      if (!RENT_ADDRESS_PATTERN.test(r.detail_address))
        add(p('detail_address'), `第${n}条详细地址须包含街、路、村、乡、镇、道、巷、号之一`);
      const m = LEASE_PERIOD_PATTERN.exec(r.lease_period);
      if (!m) add(p('lease_period'), `第${n}条租赁期起止格式须为“yyyy-MM-dd yyyy-MM-dd”`);
      else {
        const from = m[1] ?? m[3]!;
        const to = m[2] ?? m[4]!;
        if (!validDate(from) || !validDate(to) || from > to)
          add(p('lease_period'), `第${n}条租赁期起止日期不正确，起始日期不能晚于截止日期`);
      }
      if (!(AREA_UNITS as readonly string[]).includes(r.area_unit))
        add(p('area_unit'), `第${n}条面积单位须为${AREA_UNITS.join('、')}之一`);
      // Stryker disable next-line ArrayDeclaration: the stand-in plate list (one plate of 16 characters) is within both limits, as the empty list is
      const plates = r.plate_no ? r.plate_no.split(/[,，]/).filter((s) => s.trim()) : [];
      if (plates.length > 3 || plates.some((s) => s.trim().length > 20))
        add(p('plate_no'), `第${n}条车牌号最多3个，每个不超过20个字符`);
      // Stryker disable next-line ConditionalExpression,EqualityOperator: entry 0 compared with itself never differs
      if (i > 0 && r.province !== list[0]!.province) add(p('province'), '同一张发票的不动产须位于同一省份');
      const line = itemLines[i];
      if (line) {
        const li = line.i;
        if (!line.l.quantity)
          add(`goods_info.${li}.quantity`, `第${li + 1}行${TERMS.quantity}须填写租赁面积`);
        if (line.l.unit && line.l.unit !== r.area_unit)
          add(`goods_info.${li}.unit`, `第${li + 1}行单位须与面积单位（${r.area_unit}）一致`);
      }
    });
  }

  if (code === '09') {
    const list = req.passenger_transport ?? [];
    if (list.length === 0) add('passenger_transport', '请至少填写一位出行人');
    list.forEach((t, i) => {
      const n = i + 1;
      const p = (k: string) => `passenger_transport.${i}.${k}`;
      if (!(t.id_type in ID_DOCUMENT_TYPES)) add(p('id_type'), `第${n}位出行人的证件类型不正确`);
      if (t.id_type === '201' && !isValidIdCard(t.id_no)) add(p('id_no'), `第${n}位出行人的身份证号码不正确`);
      if (!validDate(t.travel_date)) add(p('travel_date'), `第${n}位出行人的出行日期不正确`);
      if (!(t.vehicle_type in PASSENGER_VEHICLES))
        add(p('vehicle_type'), `第${n}位出行人的交通工具类型不正确`);
      else if ((PASSENGER_VEHICLES_NOT_ALLOWED as readonly string[]).includes(t.vehicle_type))
        add(p('vehicle_type'), '飞机、火车出行请使用航空/铁路电子客票，不能开具旅客运输服务发票');
      const classes = SEAT_CLASSES[t.vehicle_type];
      if (classes && !classes.includes(t.seat_class))
        add(p('seat_class'), `第${n}位出行人的等级须为${classes.join('、')}之一`);
    });
  }
  return issues;
}
