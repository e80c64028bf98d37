import path from 'node:path';
import { CLERK, expect, loginAs, SHOTS_DIR, SOFTWARE, scopeLink, screenshot, test } from '../fixtures.ts';
import { issueLongBuyerInvoice, uploadLongNamedBatch } from '../layout/layout-data.ts';

// Pictures to look at (issue 2 "Proven by"): .tmp/shots/*.png
test.describe('screenshots', () => {
  test('login, switch-store and the console shell', async ({ page }) => {
    await page.goto('/user/login');
    await expect(page.getByRole('img', { name: '图形验证码' })).toBeVisible();
    await screenshot(page, 'login');

    await loginAs(page, CLERK.account);
    await expect(page.getByRole('heading', { name: '首页', level: 1 })).toBeVisible();
    await screenshot(page, 'console-shell');

    await scopeLink(page, SOFTWARE.name, CLERK.store).click();
    await expect(page.getByText('选择企业和门店')).toBeVisible();
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'switch-store');
  });
});

// issue 24 item 1: the pages a clerk uses most, at a laptop's 1280 px and a phone's 390 px
test.describe('layouts at 1280 and 390 px', () => {
  test('home, the library, the issue form and the batch records', async ({ page }) => {
    test.setTimeout(90_000);
    await loginAs(page, CLERK.account);
    // a library row and a batch record with long names (the e2e database has no demo history)
    await issueLongBuyerInvoice(page);
    await page.goto('/invoice/batch');
    await uploadLongNamedBatch(page);
    const pages = [
      { name: 'home', path: '/home/index', title: '首页', ready: page.locator('.ant-statistic').first() },
      {
        name: 'library',
        path: '/query/invoice',
        title: '发票明细',
        ready: page.locator('.ant-table-row').first(),
      },
      {
        name: 'issue',
        path: '/invoice/online',
        title: '单张开票',
        ready: page.locator('.ant-radio-button-wrapper-checked', { hasText: '电子发票（普通发票）' }),
      },
      {
        name: 'batch',
        path: '/invoice/batch',
        title: '批量开票',
        ready: page.locator('.ant-table-row').first(),
      },
    ];
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      for (const p of pages) {
        await page.goto(p.path);
        await expect(page.getByRole('heading', { name: p.title, level: 1 })).toBeVisible();
        await expect(p.ready).toBeVisible();
        await page.waitForLoadState('networkidle');
        await screenshot(page, `layout-${p.name}-${width}`);
      }
    }
    // the phone's menu: a drawer over the page
    await page.getByRole('button', { name: '打开菜单' }).click();
    await expect(page.getByRole('dialog', { name: '菜单' })).toBeVisible();
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(SHOTS_DIR, 'layout-drawer-390.png'), animations: 'disabled' });
  });
});
