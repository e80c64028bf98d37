import { CLERK, expect, loginAs, openFromMenu, screenshot, test } from '../fixtures.ts';

test.describe('page tabs', () => {
  test('one tab per visited page; closing a tab, and closing the active one', async ({ page }) => {
    await loginAs(page, CLERK.account);
    const tabs = page.getByRole('navigation', { name: '页面标签' });
    await expect(tabs.getByRole('link')).toHaveText(['首页']);

    await openFromMenu(page, /\/query\/invoice-stat$/, '开票统计', '查询统计');
    await openFromMenu(page, /\/device-project\/title$/, '购方抬头');
    await expect(tabs.getByRole('link')).toHaveText(['首页', '开票统计', '购方抬头']);
    await expect(tabs.getByRole('link', { name: '购方抬头' })).toHaveAttribute('aria-current', 'page');

    // a visited page again: no second tab
    await openFromMenu(page, /\/query\/invoice-stat$/, '开票统计', '查询统计');
    await expect(tabs.getByRole('link')).toHaveCount(3);

    await tabs.getByRole('link', { name: '首页' }).click();
    await expect(page).toHaveURL(/\/home\/index$/);
    await tabs.getByRole('button', { name: '关闭购方抬头' }).click();
    await expect(tabs.getByRole('link')).toHaveText(['首页', '开票统计']);
    await expect(page).toHaveURL(/\/home\/index$/);

    await tabs.getByRole('link', { name: '开票统计' }).click();
    await expect(page).toHaveURL(/\/query\/invoice-stat$/);
    await tabs.getByRole('button', { name: '关闭开票统计' }).click();
    await expect(tabs.getByRole('link')).toHaveText(['首页']);
    await expect(page).toHaveURL(/\/home\/index$/);
    await expect(page.getByRole('heading', { name: '首页', level: 1 })).toBeVisible();
  });

  test('more tabs than fit: the active one in view, the wheel scrolls them, the menu closes the others', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    await loginAs(page, CLERK.account);
    const strip = page.getByRole('navigation', { name: '页面标签' });
    // the tab is kept (sessionStorage) once the page shows it: a reload before that would lose it
    await expect(strip.getByRole('link', { name: '首页', exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
    // the clerk's pages (bench/navigation.ts's ten), the export records and 托管开票: 12 tabs
    const paths = [
      '/invoice/online',
      '/invoice/batch',
      '/invoice/qrcode',
      '/invoice/audit',
      '/invoice/trusteeship',
      '/red-info/sheet',
      '/query/invoice',
      '/query/invoice/export-records',
      '/query/invoice-stat',
      '/device-project/project',
      '/device-project/title',
    ];
    for (const path of paths) {
      await page.goto(path);
      await expect(strip.locator('[aria-current="page"]')).toHaveCount(1);
      await expect(strip.getByRole('link', { name: '首页', exact: true })).toBeAttached();
    }
    expect(await strip.getByRole('link').count()).toBeGreaterThan(10);
    /** whether the tab's link lies wholly inside the strip's visible box */
    const inView = (name: string) =>
      strip.getByRole('link', { name, exact: true }).evaluate((a) => {
        const nav = a.closest('nav')!.getBoundingClientRect();
        const own = a.getBoundingClientRect();
        return own.left >= nav.left && own.right <= nav.right;
      });
    // they overflow, and the active (last) one is the one in view
    expect(await strip.evaluate((n) => n.scrollWidth > n.clientWidth)).toBe(true);
    expect(await inView('购方抬头')).toBe(true);
    expect(await inView('首页')).toBe(false);
    await screenshot(page, 'tabs-overflow');

    // the first tab, reached by the menu, is scrolled back into view
    await page.getByRole('button', { name: '全部标签页' }).click();
    await page.getByRole('menuitem', { name: '首页', exact: true }).click();
    await expect(page).toHaveURL(/\/home\/index$/);
    await expect.poll(() => inView('首页')).toBe(true);

    // a mouse wheel over the strip scrolls it sideways
    const before = await strip.evaluate((n) => n.scrollLeft);
    await strip.hover();
    await page.mouse.wheel(0, 400);
    await expect.poll(() => strip.evaluate((n) => n.scrollLeft)).toBeGreaterThan(before);

    await page.getByRole('button', { name: '全部标签页' }).click();
    await page.getByRole('menuitem', { name: '关闭其他标签页' }).click();
    await expect(strip.getByRole('link')).toHaveText(['首页']);
    await expect(page.getByRole('heading', { name: '首页', level: 1 })).toBeVisible();
  });
});
