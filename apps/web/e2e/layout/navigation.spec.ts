import { CLERK, expect, loginAs, test } from '../fixtures.ts';

// issue 24 item 6 (navigation ≤ 300 ms): a small first load, and a page's code and data fetched
// before the click. The timings themselves are bench/navigation.ts's (no wall-clock limits here).

test.describe('navigation', () => {
  test('a full reload of the console takes at most 20 JS requests', async ({ page }) => {
    await loginAs(page, CLERK.account);
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await page.reload();
    await expect(page.locator('.ant-statistic-content').first()).toBeVisible();
    // counted when the page is shown, before the idle prefetch of the other pages starts (2 s)
    expect(scripts.length, scripts.join('\n')).toBeLessThanOrEqual(20);
    expect(scripts.length).toBeGreaterThan(0);
  });

  test("resting the pointer on a menu item starts the page's requests before the click", async ({ page }) => {
    await loginAs(page, CLERK.account);
    await expect(page).toHaveURL(/\/home\/index$/);
    const section = page.getByRole('menuitem', { name: '开票管理' });
    if ((await section.getAttribute('aria-expanded')) !== 'true') await section.click();
    const history = page.waitForRequest((r) => new URL(r.url()).pathname === '/v3/batch-invoice/list');
    await page.getByRole('menuitem', { name: '批量开票' }).hover();
    await history;
    await expect(page).toHaveURL(/\/home\/index$/);
  });

  test('the library asks for its first page once: the request started on hover is the one it shows', async ({
    page,
  }) => {
    await loginAs(page, CLERK.account);
    const lists: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/v3/invoice-record/list') lists.push(r.postData() ?? '');
    });
    const section = page.getByRole('menuitem', { name: '查询统计' });
    if ((await section.getAttribute('aria-expanded')) !== 'true') await section.click();
    const item = page.getByRole('menuitem', { name: '发票明细' });
    const early = page.waitForRequest((r) => new URL(r.url()).pathname === '/v3/invoice-record/list');
    await item.hover();
    await early;
    await item.click();
    await expect(page).toHaveURL(/\/query\/invoice$/);
    await expect(page.locator('.ant-table-tbody').first()).toBeVisible();
    // the table has asked (and been answered) by now; a second request would have been sent too
    await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
    await page.waitForTimeout(1_000);
    expect(lists).toHaveLength(1);
  });

  test('红字信息表, 商品编码 and 购方抬头 show the list asked for on hover, asked for once', async ({
    page,
  }) => {
    await loginAs(page, CLERK.account);
    const pages = [
      { item: '红字信息表', section: '开票管理', path: '/v3/red-info/list', url: /\/red-info\/sheet$/ },
      { item: '商品编码', path: '/v3/client-project/get-projects', url: /\/device-project\/project$/ },
      { item: '购方抬头', path: '/v3/client-title/list', url: /\/device-project\/title$/ },
    ];
    for (const p of pages) {
      const asked: string[] = [];
      const listen = (r: { url: () => string }) => {
        if (new URL(r.url()).pathname === p.path) asked.push(r.url());
      };
      page.on('request', listen);
      if (p.section) {
        const section = page.getByRole('menuitem', { name: p.section });
        if ((await section.getAttribute('aria-expanded')) !== 'true') await section.click();
      }
      const item = page.getByRole('menuitem', { name: p.item });
      const early = page.waitForRequest((r) => new URL(r.url()).pathname === p.path);
      await item.hover();
      await early;
      await item.click();
      await expect(page).toHaveURL(p.url);
      // rows, or the empty table (the test data may hold no red forms)
      await expect(
        page.locator('.ant-table-row:visible, .ant-table-placeholder:visible .ant-empty').first(),
      ).toBeVisible();
      await expect(page.locator('.ant-spin-spinning:visible')).toHaveCount(0);
      await page.waitForTimeout(1_000);
      expect(asked, p.item).toHaveLength(1);
      page.off('request', listen);
    }
  });

  test("the menu's pages load their code while the browser is idle after the first load", async ({
    page,
  }) => {
    // no pointer on the menu, no click: the library's code (its own chunk) comes by itself
    const library = page.waitForRequest((r) => /\/assets\/library-page-[^/]+\.js$/.test(r.url()), {
      timeout: 30_000,
    });
    await loginAs(page, CLERK.account);
    await library;
    await expect(page).toHaveURL(/\/home\/index$/);
  });
});
