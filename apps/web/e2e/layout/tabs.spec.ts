import { CLERK, expect, loginAs, openFromMenu, test } from '../fixtures.ts';

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
});
