import { CLERK, expect, loginAs, test } from '../fixtures.ts';

test.describe('/404 and /403', () => {
  test('/404 shows the not-found page', async ({ page }) => {
    await page.goto('/404');
    await expect(page.getByText('抱歉，您访问的页面不存在')).toBeVisible();
    await expect(page.getByRole('button', { name: '返回首页' })).toBeVisible();
  });

  test('/403 shows the forbidden page', async ({ page }) => {
    await page.goto('/403');
    await expect(page.getByText('抱歉，您无权访问该页面')).toBeVisible();
    await expect(page.getByRole('button', { name: '返回首页' })).toBeVisible();
  });

  test('an unknown path goes to /404', async ({ page }) => {
    await loginAs(page, CLERK.account);
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByText('抱歉，您访问的页面不存在')).toBeVisible();
    await page.getByRole('button', { name: '返回首页' }).click();
    await expect(page).toHaveURL(/\/home\/index$/);
  });

  test('a console page the clerk is not permitted goes to /403', async ({ page }) => {
    await loginAs(page, CLERK.account);
    await page.goto('/group/client-store');
    await expect(page).toHaveURL(/\/403$/);
    await expect(page.getByText('抱歉，您无权访问该页面')).toBeVisible();
  });
});
