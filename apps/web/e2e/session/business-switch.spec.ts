import type { Page } from '@playwright/test';
import {
  ADMIN,
  completePhoneVerification,
  expect,
  HOTEL,
  SOFTWARE,
  settle,
  submitLogin,
  test,
  waitForSmsResend,
} from '../fixtures.ts';

/**
 * Issue 19 item 3: the web cache is scoped to the selected business and store. The administrator
 * opens the issue form of the general taxpayer, then of the small-scale hotel, then of the general
 * taxpayer again: each time the form shows that business's rates, its taxpayer rule (the 3% reason a
 * small-scale seller must give) and its devices, never the previous business's cached answers.
 */

type Expected = {
  business: string;
  store: RegExp;
  form: string;
  /** a device of this business's store, and one of the other business's */
  device: string;
  otherDevice: string;
  /** a rate only this taxpayer type offers, and one only the other offers */
  rate: string;
  otherRate: string;
  small: boolean;
};

const GENERAL: Expected = {
  business: SOFTWARE.name,
  store: /^文三路总部/,
  form: '/invoice/online',
  device: '税务UKey（总部）',
  otherDevice: '税控盘（北山街店）',
  rate: '13%',
  otherRate: '1%',
  small: false,
};
const SMALL: Expected = {
  business: HOTEL.name,
  store: /^北山街店/,
  form: '/hotel/invoice/online',
  device: '税控盘（北山街店）',
  otherDevice: '税务UKey（总部）',
  rate: '1%',
  otherRate: '13%',
  small: true,
};

/** An option of the antd dropdown that is open, by its exact text. */
const option = (page: Page, text: string) =>
  page.locator('.ant-select-dropdown:visible .ant-select-item-option').getByText(text, { exact: true });

async function switchTo(page: Page, e: Expected) {
  await page.goto(`/user/switch-store?redirect=${encodeURIComponent(e.form)}`);
  await page
    .getByRole('region', { name: '企业列表' })
    .getByRole('button', { name: new RegExp(e.business) })
    .click();
  await page.getByRole('region', { name: '门店列表' }).getByRole('button', { name: e.store }).click();
  await expect(page).toHaveURL(new RegExp(`${e.form.replaceAll('/', '\\/')}$`));
  await settle(page);
  await expect(page.getByRole('heading', { name: '单张开票', level: 1 })).toBeVisible();
}

async function checkForm(page: Page, e: Expected) {
  // devices: this store's, none of the other business's
  await page.locator('.ant-select:has(#issue-device)').click();
  await expect(option(page, e.device)).toHaveCount(1);
  await expect(option(page, e.otherDevice)).toHaveCount(0);
  await page.keyboard.press('Escape');

  // rates of the taxpayer type, for the first line
  await page.getByLabel('税率 第1行').first().click();
  await expect(option(page, e.rate)).toHaveCount(1);
  await expect(option(page, e.otherRate)).toHaveCount(0);
  // 3%: a small-scale seller must say why while the 1% reduction runs; a general taxpayer need not
  await option(page, '3%').click();
  const reason = page.locator('.ant-select:has(#issue-small-scale-reason)');
  if (e.small) await expect(reason).toBeVisible();
  else await expect(reason).toHaveCount(0);
}

test('switching business and back: the issue form shows each business’s taxpayer type, rates and devices', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await waitForSmsResend(page.request, ADMIN.mobile);
  await submitLogin(page, ADMIN.account);
  await completePhoneVerification(page, ADMIN.mobile);
  await expect(page).toHaveURL(/\/user\/switch-store/);

  for (const e of [GENERAL, SMALL, GENERAL]) {
    await switchTo(page, e);
    await checkForm(page, e);
  }
});
