import { MENU } from '@kaipiao/shared';
import { describe, expect, it } from 'vitest';
import { computeMenu, type MenuContext } from './compute-menu.ts';

const base: MenuContext = {
  industry: 'general',
  packageCode: 'pro',
  packageActive: true,
  bookkeepingActive: true,
  grayFeatures: ['/invoice/trusteeship', '/receipt-center/bill'],
  whiteListed: true,
  isGroupAdmin: true,
  ruleUrls: null,
};
const entry = (ctx: MenuContext, url: string) => computeMenu(ctx).find((e) => e.url === url);

describe('computeMenu', () => {
  it('gives an administrator of a paid org every general entry, all authorised', () => {
    const menu = computeMenu(base);
    const expected = MENU.filter((m) => m.industry !== 'hotel').map((m) => m.url);
    expect(menu.map((m) => m.url)).toEqual(expected);
    expect(menu.every((m) => m.is_auth === 1 && m.is_gray === 0)).toBe(true);
  });

  it('gives a hotel business the /hotel/* variants instead of the general ones', () => {
    const urls = computeMenu({ ...base, industry: 'hotel' }).map((m) => m.url);
    expect(urls).toContain('/hotel/invoice/online');
    expect(urls).toContain('/hotel/query/invoice');
    expect(urls).not.toContain('/invoice/online');
    expect(urls).toContain('/invoice/batch');
  });

  it('marks pro entries need-pay and gray on the basic package', () => {
    const ctx = { ...base, packageCode: 'basic' };
    expect(entry(ctx, '/invoice/batch')).toMatchObject({ is_auth: 0, is_gray: 1, is_need_pay: 1 });
    expect(entry(ctx, '/invoice/online')).toMatchObject({ is_auth: 1, is_gray: 0, is_need_pay: 0 });
  });

  it('marks invoicing entries new-client when the org has no package', () => {
    const ctx = { ...base, packageCode: 'none', packageActive: false };
    expect(entry(ctx, '/invoice/online')).toMatchObject({
      is_auth: 0,
      is_gray: 1,
      is_new_client: 1,
      is_need_pay: 0,
    });
    expect(entry(ctx, '/invoice/batch')).toMatchObject({ is_gray: 1, is_new_client: 1 });
    // looking at what was issued before needs no package
    expect(entry(ctx, '/query/invoice')).toMatchObject({ is_auth: 1, is_gray: 0 });
    expect(entry(ctx, '/payment/register')).toMatchObject({ is_gray: 1, is_need_pay: 1 });
  });

  it('pauses batch and scan invoicing while bookkeeping is expired', () => {
    const ctx = { ...base, bookkeepingActive: false };
    expect(entry(ctx, '/invoice/batch')).toMatchObject({
      is_auth: 0,
      is_gray: 1,
      is_gray_from_bookkeeping: 1,
    });
    expect(entry(ctx, '/invoice/qrcode')).toMatchObject({ is_gray_from_bookkeeping: 1 });
    expect(entry(ctx, '/invoice/online')).toMatchObject({ is_auth: 1, is_gray_from_bookkeeping: 0 });
  });

  it('keeps gray-release features gray until the org is listed for them', () => {
    expect(entry({ ...base, grayFeatures: [] }, '/invoice/trusteeship')).toMatchObject({
      is_auth: 0,
      is_gray: 1,
      is_need_pay: 0,
    });
    expect(entry(base, '/invoice/trusteeship')).toMatchObject({ is_auth: 1, is_gray: 0 });
  });

  it('shows the tax-account page only with a white-listed tax account (spec §6)', () => {
    expect(entry({ ...base, whiteListed: false }, '/device-project/account')).toBeUndefined();
    expect(entry(base, '/device-project/account')).toBeDefined();
  });

  it('lists only the rule urls for staff, with hidden pages following their parent, and no group pages', () => {
    const ctx = { ...base, isGroupAdmin: false, ruleUrls: new Set(['/home/index', '/red-info/sheet']) };
    expect(computeMenu(ctx).map((m) => m.url)).toEqual([
      '/home/index',
      '/red-info/sheet',
      '/red-info/modify',
    ]);
  });

  it('lists the group pages only for group administrators', () => {
    const urls = computeMenu({ ...base, isGroupAdmin: false }).map((m) => m.url);
    expect(urls.some((u) => u.startsWith('/group/') && u !== '/group/client-store')).toBe(false);
    expect(computeMenu(base).map((m) => m.url)).toContain('/group/employee');
  });
});
