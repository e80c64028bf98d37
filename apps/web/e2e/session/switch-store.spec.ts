import { MSG } from '@kaipiao/shared/validation/messages';
import { CLERK, expect, HOTEL, loginAs, SOFTWARE, scopeLink, test } from '../fixtures.ts';

test.describe('store switching (/user/switch-store)', () => {
  test('the clerk switches to the all-stores summary and back to a store', async ({ page }) => {
    await loginAs(page, CLERK.account);
    await expect(page).toHaveURL(/\/home\/index$/);
    await scopeLink(page, SOFTWARE.name, CLERK.store).click();
    await expect(page).toHaveURL(/\/user\/switch-store$/);
    await expect(page.getByText('选择企业和门店')).toBeVisible();

    // only what the clerk may act for: one business, its summary and one store
    const businesses = page.getByRole('region', { name: '企业列表' }).getByRole('button', { pressed: true });
    await expect(businesses).toHaveCount(1);
    await expect(businesses).toContainText(SOFTWARE.name);
    await expect(page.getByRole('button', { name: HOTEL.name })).toHaveCount(0);
    const stores = page.getByRole('region', { name: '门店列表' });
    await expect(stores.getByRole('button')).toHaveCount(2);
    await expect(stores.getByRole('button', { name: new RegExp(`^${CLERK.store}.*当前`) })).toBeVisible();
    await expect(stores.getByRole('button', { name: '滨江研发中心' })).toHaveCount(0);

    await stores.getByRole('button', { name: new RegExp(`^${MSG.SUMMARY_STORE_NAME}`) }).click();
    await expect(page).toHaveURL(/\/home\/index$/);
    // spec §2: the guide tip on the first entry into the summary view
    const guide = page.getByRole('dialog', { name: MSG.SUMMARY_STORE_NAME });
    await expect(guide).toBeVisible();
    await expect(guide.getByText(MSG.SUMMARY_GUIDE)).toBeVisible();
    await guide.getByRole('button', { name: '我知道了' }).click();
    await expect(guide).toBeHidden();
    await expect(scopeLink(page, SOFTWARE.name, MSG.SUMMARY_STORE_NAME)).toBeVisible();

    await scopeLink(page, SOFTWARE.name, MSG.SUMMARY_STORE_NAME).click();
    await page
      .getByRole('region', { name: '门店列表' })
      .getByRole('button', { name: new RegExp(`^${CLERK.store}`) })
      .click();
    await expect(page).toHaveURL(/\/home\/index$/);
    await expect(scopeLink(page, SOFTWARE.name, CLERK.store)).toBeVisible();
    // the tip is shown once: back in the summary, the console's entry prompts come and go without it
    await scopeLink(page, SOFTWARE.name, CLERK.store).click();
    const entered = page.waitForResponse((r) => r.url().includes('/v3/user/info'));
    await page.getByRole('button', { name: new RegExp(`^${MSG.SUMMARY_STORE_NAME}`) }).click();
    await entered;
    await expect(scopeLink(page, SOFTWARE.name, MSG.SUMMARY_STORE_NAME)).toBeVisible();
    await page.waitForTimeout(1_000);
    await expect(guide).toBeHidden();
  });

  test('a tax code in the URL selects that business with the all-stores summary', async ({ page }) => {
    await loginAs(page, CLERK.account);
    await page.goto(`/home/index?taxCode=${SOFTWARE.taxCode}`);
    await expect(page).toHaveURL(/\/home\/index$/);
    await expect(scopeLink(page, SOFTWARE.name, MSG.SUMMARY_STORE_NAME)).toBeVisible();
  });
});
