import { CLERK, expect, loginAs, openFromMenu, test } from '../fixtures.ts';

test.describe('sidebar', () => {
  test('collapses, and stays collapsed after a reload', async ({ page }) => {
    await loginAs(page, CLERK.account);
    const sider = page.getByRole('complementary');
    await expect.poll(async () => (await sider.boundingBox())?.width).toBe(200);

    await page.getByRole('button', { name: '收起菜单' }).click();
    await expect(page.getByRole('button', { name: '展开菜单' })).toBeVisible();
    await expect.poll(async () => (await sider.boundingBox())?.width).toBeLessThan(100);

    await page.reload();
    await expect(page.getByRole('button', { name: '展开菜单' })).toBeVisible();
    await expect.poll(async () => (await sider.boundingBox())?.width).toBeLessThan(100);

    await page.getByRole('button', { name: '展开菜单' }).click();
    await expect.poll(async () => (await sider.boundingBox())?.width).toBe(200);
    await page.reload();
    await expect(page.getByRole('button', { name: '收起菜单' })).toBeVisible();
  });

  test('the logo returns home and the active menu item is green', async ({ page }) => {
    await loginAs(page, CLERK.account);
    await openFromMenu(page, /\/device-project\/title$/, '购方抬头');
    const active = page.getByRole('menuitem', { name: '购方抬头' });
    // antd's green-8, #237804 (spec §2: active menu green; white on it 5.59:1, WCAG AA)
    await expect(active).toHaveCSS('background-color', 'rgb(35, 120, 4)');
    await page.getByRole('link', { name: '开票台首页' }).click();
    await expect(page).toHaveURL(/\/home\/index$/);
  });
});
