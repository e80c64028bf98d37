import { TERMS } from '../glossary/terms.ts';

// The permission catalogue (spec §2 main menu, §6): one entry per permission url. The web route
// table adds components and icons to these; the server computes menu-list from them and refuses
// API calls whose url the session lacks.
export type Feature = 'base' | 'pro';
export type Industry = 'general' | 'hotel';

export type MenuDef = {
  url: string;
  title: string;
  /** main console menu or the separate group-management menu */
  area: 'main' | 'group';
  /** which package covers it */
  feature: Feature;
  /** only for businesses of this industry (hotel variants, spec §2) */
  industry?: Industry;
  /** paused while the bookkeeping service is expired (spec §1) */
  bookkeeping?: true;
  /** in gray release: open only to orgs listed for it */
  grayRelease?: true;
  /** visible only when the business has a white-listed tax account (spec §6) */
  whiteList?: true;
  /** needs a package: a new client without one sees it gray (spec §1) */
  invoicing?: true;
  hidden?: true;
  isNew?: true;
};

export const MENU: readonly MenuDef[] = [
  { url: '/home/index', title: '首页', area: 'main', feature: 'base' },
  {
    url: '/invoice/online',
    title: '单张开票',
    area: 'main',
    feature: 'base',
    industry: 'general',
    invoicing: true,
  },
  {
    url: '/hotel/invoice/online',
    title: '单张开票',
    area: 'main',
    feature: 'base',
    industry: 'hotel',
    invoicing: true,
  },
  {
    url: '/invoice/batch',
    title: '批量开票',
    area: 'main',
    feature: 'pro',
    bookkeeping: true,
    invoicing: true,
  },
  {
    url: '/hotel/invoice/order',
    title: '订单开票',
    area: 'main',
    feature: 'pro',
    industry: 'hotel',
    hidden: true,
    invoicing: true,
  },
  {
    url: '/invoice/qrcode',
    title: '扫码开票',
    area: 'main',
    feature: 'pro',
    industry: 'general',
    bookkeeping: true,
    invoicing: true,
  },
  {
    url: '/hotel/invoice/qrcode',
    title: '扫码开票',
    area: 'main',
    feature: 'pro',
    industry: 'hotel',
    bookkeeping: true,
    invoicing: true,
  },
  {
    url: '/invoice/audit',
    title: '开票审核',
    area: 'main',
    feature: 'pro',
    industry: 'general',
    invoicing: true,
  },
  {
    url: '/hotel/invoice/audit',
    title: '开票审核',
    area: 'main',
    feature: 'pro',
    industry: 'hotel',
    invoicing: true,
  },
  {
    url: '/hotel/invoice/audit/goods',
    title: '订单商品',
    area: 'main',
    feature: 'pro',
    industry: 'hotel',
    hidden: true,
    invoicing: true,
  },
  { url: '/red-info/sheet', title: TERMS.redInfoSheet, area: 'main', feature: 'base', invoicing: true },
  {
    url: '/red-info/modify',
    title: `填写${TERMS.redShort}信息`,
    area: 'main',
    feature: 'base',
    hidden: true,
    invoicing: true,
  },
  {
    url: '/invoice/trusteeship',
    title: '托管开票',
    area: 'main',
    feature: 'pro',
    grayRelease: true,
    invoicing: true,
  },
  { url: '/query/invoice', title: '发票明细', area: 'main', feature: 'base', industry: 'general' },
  { url: '/hotel/query/invoice', title: '发票明细', area: 'main', feature: 'base', industry: 'hotel' },
  { url: '/query/invoice-stat', title: '开票统计', area: 'main', feature: 'base' },
  { url: '/query/invoice/export-records', title: '导出记录', area: 'main', feature: 'base', hidden: true },
  {
    url: '/group/client-store',
    title: `${TERMS.store}管理`,
    area: 'main',
    feature: 'base',
    industry: 'general',
  },
  {
    url: '/hotel/group/client-store',
    title: `${TERMS.store}管理`,
    area: 'main',
    feature: 'base',
    industry: 'hotel',
  },
  {
    url: '/device-project/account',
    title: TERMS.taxBureauAccount,
    area: 'main',
    feature: 'base',
    whiteList: true,
  },
  { url: '/device-project/device', title: TERMS.device, area: 'main', feature: 'base' },
  { url: '/invoice-manage/receive', title: '发票领用', area: 'main', feature: 'base' },
  { url: '/invoice-manage/dispense', title: '发票分发', area: 'main', feature: 'base' },
  { url: '/report-summary/summary', title: '汇总上报', area: 'main', feature: 'base' },
  {
    url: '/device-project/project',
    title: TERMS.goodsCode,
    area: 'main',
    feature: 'base',
    industry: 'general',
  },
  {
    url: '/hotel/device-project/project',
    title: TERMS.goodsCode,
    area: 'main',
    feature: 'base',
    industry: 'hotel',
  },
  { url: '/device-project/title', title: TERMS.buyerTitle, area: 'main', feature: 'base' },
  { url: '/payment/register', title: '收款码申请', area: 'main', feature: 'pro', isNew: true },
  { url: '/payment/record', title: '开通记录', area: 'main', feature: 'pro' },
  { url: '/receipt-center/records', title: '收据记录', area: 'main', feature: 'pro' },
  { url: '/receipt-center/bill', title: '收据账单', area: 'main', feature: 'pro', grayRelease: true },
  { url: '/system/settings', title: '系统设置', area: 'main', feature: 'base' },
  { url: '/group/taxpayer', title: '纳税人管理', area: 'group', feature: 'base' },
  { url: '/group/employee', title: '员工管理', area: 'group', feature: 'base' },
  { url: '/group/authority', title: '权限管理', area: 'group', feature: 'base' },
  { url: '/group/authority/add-rule', title: '新增权限规则', area: 'group', feature: 'base', hidden: true },
  { url: '/group/authority/edit-rule', title: '编辑权限规则', area: 'group', feature: 'base', hidden: true },
];

export const MENU_BY_URL: ReadonlyMap<string, MenuDef> = new Map(MENU.map((m) => [m.url, m]));

/** spec §3 menu permission entry as sent by GET /v3/authority/menu-list */
export type MenuEntry = {
  url: string;
  is_auth: 0 | 1;
  is_gray: 0 | 1;
  is_need_pay: 0 | 1;
  is_new_client: 0 | 1;
  is_gray_from_bookkeeping: 0 | 1;
};

export const SUMMARY_STORE_ID = -1;
export const PAGE_SIZES = [10, 20, 30] as const;
export const TIMEOUTS = { default: 15_000, smsLogin: 33_000, long: 120_000 } as const;
export const SMS_RESEND_SECONDS = 60;
export const REAL_NAME_RESEND_SECONDS = 120;
export const TOKEN_TTL_SECONDS = 2 * 60 * 60;
export const PASSWORD_VALID_DAYS = 90;
export const TRIAL_DAYS = 7;
export const SIDEBAR_WIDTH = 200;
export const SOURCE_PARTNER_22 = '22';
export const PARTNER_APP_IDS = ['1003', '1014'] as const;
export const PLATFORM_WXWORK = 'wxwork';
