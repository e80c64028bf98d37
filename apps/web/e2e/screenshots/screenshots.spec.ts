import { CLERK, expect, loginAs, SOFTWARE, scopeLink, screenshot, test } from '../fixtures.ts';

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
