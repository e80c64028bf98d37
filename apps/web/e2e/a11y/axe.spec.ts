import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { ADMIN_SCOPES, enterScope, menuListOf, permitted } from '../console-routes.ts';
import {
  ADMIN,
  CLERK,
  completePhoneVerification,
  expect,
  loginAs,
  SOFTWARE,
  settle,
  submitLogin,
  test,
  waitForSmsResend,
  watchErrors,
} from '../fixtures.ts';

/**
 * Issue 24 item 7: axe finds no serious or critical violation on any route a person can reach —
 * the login page, store switching, every console route (the permission catalogue, which the route
 * table mirrors one to one: route-config.test.ts) that menu-list lets the clerk or the
 * administrator open, in a general and a small-scale hotel business, and the buyer's scan page.
 */

type Found = string[];

/** The page once its requests have settled: the header shows the route's title. */
async function settled(page: Page, title?: string) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  if (title) await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  // antd's entry animations (fading dialogs, growing tags) end before colours are measured
  await page.waitForTimeout(400);
}

/** axe's serious and critical findings on what the page shows now, one line per rule. */
async function audit(page: Page, where: string, found: Found) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  for (const v of violations) {
    if (v.impact !== 'serious' && v.impact !== 'critical') continue;
    const nodes = v.nodes
      .slice(0, 4)
      .map(
        (n) =>
          `${n.target.join(' ')}${n.failureSummary ? ` — ${n.failureSummary.replace(/\s+/g, ' ')}` : ''}`,
      );
    found.push(`${where}: ${v.id} [${v.impact}] ${v.help} (${v.nodes.length}×)\n    ${nodes.join('\n    ')}`);
  }
}

async function auditRoutes(page: Page, urls: readonly string[], who: string, found: Found) {
  for (const url of urls) {
    await page.goto(url);
    await settled(page);
    await audit(page, `${who} ${url}`, found);
  }
}

test.describe('accessibility (axe)', () => {
  test('the login page focuses the account field and has no serious violation', async ({ page }) => {
    await page.goto('/user/login');
    await expect(page.getByRole('img', { name: '图形验证码' })).toBeVisible();
    await expect(page.getByPlaceholder('账号', { exact: true })).toBeFocused();
    const found: Found = [];
    await settled(page);
    await audit(page, '/user/login', found);
    // the rule messages of an empty submit (red text under each field)
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await expect(page.getByText('请输入账号')).toBeVisible();
    await settled(page);
    await audit(page, '/user/login (empty submit)', found);
    expect(found).toEqual([]);
  });

  test('the clerk: every permitted console route and the buyer’s scan page', async ({
    page,
    browser,
    baseURL,
    failOnPageErrors,
  }) => {
    test.setTimeout(240_000);
    const menu = menuListOf(page);
    let storeToken: string | undefined;
    page.on('response', async (r) => {
      if (!/\/v3\/scan-code\/list\?.*kind=static/.test(r.url())) return;
      const body = (await r.json()) as { data: { list: { kind: string; token: string }[] } };
      storeToken ??= body.data.list.find((c) => c.kind === 'store')?.token;
    });
    await loginAs(page, CLERK.account);
    const urls = permitted(await menu);
    expect(urls).toContain('/invoice/qrcode');
    const found: Found = [];
    await auditRoutes(page, urls, 'clerk', found);

    // the buyer's page, on a phone-sized page of its own (no login)
    expect(storeToken, 'the store QR code of /invoice/qrcode').toBeTruthy();
    const phone = await browser.newContext({
      baseURL,
      viewport: { width: 390, height: 844 },
      isMobile: true,
    });
    watchErrors(phone, failOnPageErrors.errors);
    const buyer = await phone.newPage();
    await buyer.goto(`/s/${storeToken}`);
    await expect(buyer.getByText(SOFTWARE.name)).toBeVisible();
    await settled(buyer);
    await audit(buyer, `buyer /s/${storeToken}`, found);
    await buyer.getByRole('button', { name: '提交开票申请' }).click();
    await expect(buyer.getByText('请输入抬头名称').first()).toBeVisible();
    await settled(buyer);
    await audit(buyer, 'buyer /s/… (empty submit)', found);
    await phone.close();
    expect(found).toEqual([]);
  });

  test('the administrator: store switching, every permitted route of a general and a hotel business', async ({
    page,
  }) => {
    test.setTimeout(360_000);
    const found: Found = [];
    await waitForSmsResend(page.request, ADMIN.mobile);
    await submitLogin(page, ADMIN.account);
    await completePhoneVerification(page, ADMIN.mobile);
    await expect(page).toHaveURL(/\/user\/switch-store/);
    await settled(page);
    await audit(page, 'admin /user/switch-store', found);

    const seen = new Set<string>();
    for (const scope of ADMIN_SCOPES) {
      await page.goto('/user/switch-store?redirect=%2Fhome%2Findex');
      // the general business's pages once; the hotel's own pages and its home (the small-scale meter)
      const urls = await enterScope(page, scope, seen);
      await settle(page);
      await auditRoutes(page, urls, `admin (${scope.business})`, found);
    }
    expect(found).toEqual([]);
  });
});
