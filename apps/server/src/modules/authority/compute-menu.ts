import { MENU, type MenuDef, type MenuEntry } from '@kaipiao/shared';

export type MenuContext = {
  industry: string;
  packageCode: string; // trial | basic | pro | none
  packageActive: boolean;
  bookkeepingActive: boolean;
  grayFeatures: readonly string[];
  whiteListed: boolean;
  isGroupAdmin: boolean;
  /** null = every url (administrators) */
  ruleUrls: ReadonlySet<string> | null;
};

// Hidden entries follow the page they open from.
const PARENT: Record<string, string> = {
  '/hotel/invoice/order': '/hotel/invoice/online',
  '/hotel/invoice/audit/goods': '/hotel/invoice/audit',
  '/red-info/modify': '/red-info/sheet',
  '/query/invoice/export-records': '/query/invoice',
  '/group/authority/add-rule': '/group/authority',
  '/group/authority/edit-rule': '/group/authority',
};

const bit = (b: boolean): 0 | 1 => (b ? 1 : 0);

function isGranted(def: MenuDef, ctx: MenuContext): boolean {
  if (def.area === 'group') return ctx.isGroupAdmin;
  if (ctx.ruleUrls === null) return true;
  return ctx.ruleUrls.has(PARENT[def.url] ?? def.url);
}

/**
 * The organisation's menu entries (spec §3, §6): which urls the employee may see, and which of
 * them are gray because the package lacks them, the business has none, the bookkeeping service
 * expired, or the feature is still in gray release.
 */
export function computeMenu(ctx: MenuContext): MenuEntry[] {
  const covers = (def: MenuDef) => {
    if (!ctx.packageActive) return false;
    if (def.feature === 'pro') return ctx.packageCode !== 'basic';
    // Stryker disable next-line ConditionalExpression,StringLiteral: a base entry's cover matters only for invoicing entries, which are new-client (not need-pay) without a package anyway
    return ctx.packageCode !== 'none';
  };
  const entries: MenuEntry[] = [];
  for (const def of MENU) {
    if (def.industry && def.industry !== ctx.industry) continue;
    if (def.whiteList && !ctx.whiteListed) continue;
    if (!isGranted(def, ctx)) continue;
    const isNewClient = Boolean(def.invoicing) && ctx.packageCode === 'none';
    const needPay =
      !isNewClient &&
      // Stryker disable next-line ConditionalExpression: the group entries are base and not invoicing, so never need-pay anyway
      def.area === 'main' &&
      !covers(def) &&
      (def.feature === 'pro' || def.invoicing === true);
    const fromBookkeeping = Boolean(def.bookkeeping) && !ctx.bookkeepingActive;
    const grayRelease = Boolean(def.grayRelease) && !ctx.grayFeatures.includes(def.url);
    const gray = isNewClient || needPay || fromBookkeeping || grayRelease;
    entries.push({
      url: def.url,
      is_auth: bit(!gray),
      is_gray: bit(gray),
      is_need_pay: bit(needPay),
      is_new_client: bit(isNewClient),
      is_gray_from_bookkeeping: bit(fromBookkeeping),
    });
  }
  return entries;
}
