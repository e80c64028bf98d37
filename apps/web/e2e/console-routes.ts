import { MENU, type MenuEntry } from '@kaipiao/shared/constants/menu';
import type { Page } from '@playwright/test';
import { expect, HOTEL, SOFTWARE } from './fixtures.ts';

/**
 * The console routes a session may open, for the specs that walk every one of them (a11y/axe,
 * layout/overflow): the permission catalogue (which the route table mirrors one to one:
 * route-config.test.ts) filtered by what menu-list shows to the session (is_auth or gray, spec §4).
 */
export function permitted(entries: readonly MenuEntry[]): string[] {
  const shown = new Set(entries.filter((e) => e.is_auth === 1 || e.is_gray === 1).map((e) => e.url));
  return MENU.filter((m) => shown.has(m.url)).map((m) => m.url);
}

/** The next menu-list answer of this page: start waiting before the action that asks for it. */
export function menuListOf(page: Page): Promise<MenuEntry[]> {
  return page
    .waitForResponse((r) => r.url().includes('/v3/authority/menu-list'))
    .then(async (r) => ((await r.json()) as { data: { list: MenuEntry[] } }).data.list);
}

/**
 * The administrator's two businesses, as the walking specs visit them: the general business's pages
 * once, then the hotel's own pages and its home (the small-scale meter).
 */
export const ADMIN_SCOPES = [
  { business: SOFTWARE.name, store: /^文三路总部/ },
  { business: HOTEL.name, store: /^北山街店/ },
] as const;

/**
 * On /user/switch-store (the administrator after login): picks a business and a store and returns
 * the routes menu-list permits there that `seen` does not hold yet (plus /home/index), adding them.
 */
export async function enterScope(
  page: Page,
  scope: (typeof ADMIN_SCOPES)[number],
  seen: Set<string>,
): Promise<string[]> {
  await page
    .getByRole('region', { name: '企业列表' })
    .getByRole('button', { name: new RegExp(scope.business) })
    .click();
  const menu = menuListOf(page);
  await page.getByRole('region', { name: '门店列表' }).getByRole('button', { name: scope.store }).click();
  await expect(page).toHaveURL(/\/home\/index$/);
  const urls = permitted(await menu).filter((u) => !seen.has(u) || u === '/home/index');
  for (const u of urls) seen.add(u);
  return urls;
}
