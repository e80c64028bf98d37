import { devices } from '@playwright/test';
import { CLERK, expect, loginAs, SOFTWARE, test } from '../fixtures.ts';

const iPhone = devices['iPhone 13'];

// iPhone 13's user agent and screen, still in Chromium (the only browser installed)
test.use({
  userAgent: iPhone.userAgent,
  viewport: iPhone.viewport,
  deviceScaleFactor: iPhone.deviceScaleFactor,
  isMobile: true,
  hasTouch: true,
});

test.describe('mobile entry', () => {
  test('a mobile user agent lands on /m-home/index with the 首页 / 我的 tab bar', async ({ page }) => {
    await loginAs(page, CLERK.account);
    await expect(page).toHaveURL(/\/m-home\/index$/);
    const bar = page.getByRole('navigation', { name: '底部导航' });
    await expect(bar.getByText('首页', { exact: true })).toBeVisible();
    await expect(bar.getByText('我的', { exact: true })).toBeVisible();
    await expect(page.getByText(SOFTWARE.name)).toBeVisible();

    await bar.getByText('我的', { exact: true }).click();
    await expect(page).toHaveURL(/\/m-personal\/index$/);
    // the console root sends a phone to the mobile home too
    await page.goto('/');
    await expect(page).toHaveURL(/\/m-home\/index$/);
  });
});
