import { MENU_BY_URL } from '@kaipiao/shared/constants/menu';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import type { ComponentType } from 'react';

// THE route + menu table (architecture.md §3). The router (app/router.tsx) and the sidebar
// (layouts/console/side-menu.tsx) are both derived from it; titles and permission urls come from
// the shared permission catalogue. Icons are names so this table stays out of the login chunk.

export type PageModule = {
  default: ComponentType;
  /** starts the requests the page makes first (its route loader and a hover call it: app/prefetch.ts) */
  prefetch?: () => void;
};
export type Layout = 'console' | 'group' | 'user' | 'mobile' | 'blank';
export type IconName =
  | 'home'
  | 'invoice'
  | 'query'
  | 'store'
  | 'device'
  | 'goods'
  | 'title'
  | 'payment'
  | 'settings'
  | 'taxpayer'
  | 'employee'
  | 'authority';
export type SectionKey =
  | 'home'
  | 'invoice'
  | 'query'
  | 'store'
  | 'device'
  | 'goods'
  | 'title'
  | 'payment'
  | 'system';

export type AppRoute = {
  path: string;
  title?: string;
  layout: Layout;
  page: () => Promise<PageModule>;
  /** menu-list url that must permit it (spec §4) */
  permission?: string;
  /** sidebar section (main menu) */
  section?: SectionKey;
  icon?: IconName;
  hidden?: boolean;
  /** flagged NEW in the menu */
  isNew?: boolean;
  /** kept mounted while its tab is open */
  keepAlive?: boolean;
  /** menu item to highlight for a hidden route */
  activeMenu?: string;
  /** reachable without signing in */
  public?: boolean;
  headerTheme?: 'default' | 'white';
};

export type MenuSection = { key: SectionKey; title: string; icon: IconName; submenu: boolean };

const building = () => import('./routes/under-construction.tsx');

/** A console page named in the permission catalogue. */
function menu(url: string, extra: Partial<AppRoute> = {}): AppRoute {
  const def = MENU_BY_URL.get(url);
  if (!def) throw new Error(`unknown menu url ${url}`);
  return {
    path: url,
    title: def.title,
    layout: def.area === 'group' ? 'group' : 'console',
    page: building,
    permission: url,
    hidden: def.hidden,
    isNew: def.isNew,
    keepAlive: true,
    ...extra,
  };
}

/** spec §2 main menu, in order; hotel variants sit beside the general ones (menu-list picks one). */
export const MAIN_MENU: readonly MenuSection[] = [
  { key: 'home', title: '首页', icon: 'home', submenu: false },
  { key: 'invoice', title: '开票管理', icon: 'invoice', submenu: true },
  { key: 'query', title: '查询统计', icon: 'query', submenu: true },
  { key: 'store', title: `${TERMS.store}管理`, icon: 'store', submenu: false },
  { key: 'device', title: '设备管理', icon: 'device', submenu: true },
  { key: 'goods', title: TERMS.goodsCode, icon: 'goods', submenu: false },
  { key: 'title', title: TERMS.buyerTitle, icon: 'title', submenu: false },
  { key: 'payment', title: '收款管理', icon: 'payment', submenu: true },
  { key: 'system', title: '系统设置', icon: 'settings', submenu: false },
];

const inv = { section: 'invoice' } as const;
const query = { section: 'query' } as const;
const device = { section: 'device' } as const;
const payment = { section: 'payment' } as const;

export const CONSOLE_ROUTES: readonly AppRoute[] = [
  menu('/home/index', {
    section: 'home',
    page: () => import('./routes/home/index.tsx'),
    headerTheme: 'white',
  }),
  menu('/invoice/online', { ...inv, page: () => import('./routes/invoice/online.tsx') }),
  menu('/hotel/invoice/online', { ...inv, page: () => import('./routes/hotel/invoice/online.tsx') }),
  menu('/invoice/batch', { ...inv, page: () => import('./routes/invoice/batch.tsx') }),
  menu('/hotel/invoice/order', {
    ...inv,
    activeMenu: '/hotel/invoice/online',
    page: () => import('./routes/hotel/invoice/order.tsx'),
  }),
  menu('/invoice/qrcode', { ...inv, page: () => import('./routes/invoice/qrcode.tsx') }),
  menu('/hotel/invoice/qrcode', { ...inv, page: () => import('./routes/hotel/invoice/qrcode.tsx') }),
  menu('/invoice/audit', { ...inv, page: () => import('./routes/invoice/audit.tsx') }),
  menu('/hotel/invoice/audit', { ...inv, page: () => import('./routes/hotel/invoice/audit.tsx') }),
  menu('/hotel/invoice/audit/goods', {
    ...inv,
    activeMenu: '/hotel/invoice/audit',
    page: () => import('./routes/hotel/invoice/audit-goods.tsx'),
  }),
  menu('/red-info/sheet', { ...inv, page: () => import('./routes/red-info/sheet.tsx') }),
  menu('/red-info/modify', {
    ...inv,
    activeMenu: '/red-info/sheet',
    keepAlive: false,
    page: () => import('./routes/red-info/modify.tsx'),
  }),
  menu('/invoice/trusteeship', { ...inv, page: () => import('./routes/invoice/trusteeship.tsx') }),
  menu('/query/invoice', { ...query, page: () => import('./routes/query/invoice.tsx') }),
  menu('/hotel/query/invoice', { ...query, page: () => import('./routes/query/hotel-invoice.tsx') }),
  menu('/query/invoice-stat', { ...query, page: () => import('./routes/query/invoice-stat.tsx') }),
  menu('/query/invoice/export-records', {
    ...query,
    activeMenu: '/query/invoice',
    page: () => import('./routes/query/export-records.tsx'),
  }),
  menu('/group/client-store', { section: 'store', page: () => import('./routes/group/client-store.tsx') }),
  menu('/hotel/group/client-store', {
    section: 'store',
    page: () => import('./routes/hotel/group/client-store.tsx'),
  }),
  menu('/device-project/account', { ...device, page: () => import('./routes/device-project/account.tsx') }),
  menu('/device-project/device', { ...device, page: () => import('./routes/device-project/device.tsx') }),
  menu('/invoice-manage/receive', { ...device, page: () => import('./routes/invoice-manage/receive.tsx') }),
  menu('/invoice-manage/dispense', { ...device, page: () => import('./routes/invoice-manage/dispense.tsx') }),
  menu('/report-summary/summary', { ...device, page: () => import('./routes/report-summary/summary.tsx') }),
  menu('/device-project/project', {
    section: 'goods',
    page: () => import('./routes/device-project/project.tsx'),
  }),
  menu('/hotel/device-project/project', {
    section: 'goods',
    page: () => import('./routes/device-project/hotel-project.tsx'),
  }),
  menu('/device-project/title', {
    section: 'title',
    page: () => import('./routes/device-project/title.tsx'),
  }),
  menu('/payment/register', payment),
  menu('/payment/record', payment),
  menu('/receipt-center/records', payment),
  menu('/receipt-center/bill', payment),
  menu('/system/settings', { section: 'system' }),
  // spec §2 group management: its own menu under /group
  menu('/group/taxpayer', { icon: 'taxpayer' }),
  menu('/group/employee', { icon: 'employee' }),
  menu('/group/authority', { icon: 'authority' }),
  menu('/group/authority/add-rule', { activeMenu: '/group/authority' }),
  menu('/group/authority/edit-rule', { activeMenu: '/group/authority' }),
];

const userPage = (path: string, title: string, page = () => import('./routes/user/placeholder.tsx')) =>
  ({ path, title, layout: 'user', page, public: true }) satisfies AppRoute;
const login = () => import('./routes/user/login.tsx');

export const USER_ROUTES: readonly AppRoute[] = [
  userPage('/user/login', '登录', login),
  userPage('/user/login/:suffix', '登录', login),
  {
    ...userPage('/user/switch-store', `选择${TERMS.store}`, () => import('./routes/user/switch-store.tsx')),
    public: false,
  },
  userPage('/user/register', '注册'),
  userPage('/user/wxwork-register', '企业微信注册'),
  { ...userPage('/user/sign-contract', '签署合同'), public: false },
  { ...userPage('/user/sign-contract-result', '签署结果'), public: false },
];

const mobileBuilding = () => import('./routes/m/under-construction.tsx');
const mobile = (path: string, title: string, page = mobileBuilding): AppRoute => ({
  path,
  title,
  layout: 'mobile',
  page,
});

export const MOBILE_ROUTES: readonly AppRoute[] = [
  mobile('/m-home/index', '首页', () => import('./routes/m/home.tsx')),
  mobile('/m-personal/index', '我的', () => import('./routes/m/personal.tsx')),
  mobile('/m-company-edit/index', '企业信息'),
  mobile('/m-invoicing-management/index', '开票管理'),
  mobile('/m-invoice-list/index', '发票列表'),
  mobile('/m-invoice-audit/index', '开票审核'),
  mobile('/m-invoice-hand/index', '手工开票'),
  mobile('/m-invoice-hand-project/index', '选择项目'),
  mobile('/m-invoice-detail/index', '发票详情'),
  mobile('/m-send-email/index', '发送邮箱'),
];

const standalone = () => import('./routes/standalone-placeholder.tsx');
const blank = (path: string, title: string, page = standalone, isPublic = true): AppRoute => ({
  path,
  title,
  layout: 'blank',
  page,
  public: isPublic,
  // spec §2: print pages and the rest open outside the console's tabs and are never kept alive
  keepAlive: false,
});

/** Outside the console shell and never kept in tabs: exceptions, help, print pages, campaigns. */
export const BLANK_ROUTES: readonly AppRoute[] = [
  blank('/403', '无权限', () => import('./routes/exception/forbidden.tsx')),
  blank('/404', '页面不存在', () => import('./routes/exception/not-found.tsx')),
  blank('/help-center/handbook', '操作手册', () => import('./routes/help-center/handbook.tsx')),
  blank(
    '/help-center/install-download',
    '安装下载',
    () => import('./routes/help-center/install-download.tsx'),
  ),
  blank('/external/print-ticket', '打印小票', () => import('./routes/external/print-ticket.tsx'), false),
  blank(
    '/external/print-red-info',
    `打印${TERMS.redInfoSheet}`,
    () => import('./routes/external/print-red-info.tsx'),
    false,
  ),
  blank('/external/receipt', '收据', standalone, false),
  blank('/freeTrial/ad', '免费试用'),
  blank('/freeTrial/bookkeeping', '恢复记账服务', standalone, false),
  blank('/huo-dong/op-loan', '金融服务'),
  // the buyer's scan-to-invoice page (architecture.md §1: /s/:code, no login, phone layout)
  blank('/s/:token', '扫码开票', () => import('./routes/scan/buyer.tsx')),
];

export const ALL_ROUTES: readonly AppRoute[] = [
  ...CONSOLE_ROUTES,
  ...USER_ROUTES,
  ...MOBILE_ROUTES,
  ...BLANK_ROUTES,
];
const BY_PATH = new Map(ALL_ROUTES.map((r) => [r.path, r]));

export function findRoute(path: string): AppRoute | undefined {
  return BY_PATH.get(path);
}

export const GROUP_HOME = '/group/employee';
