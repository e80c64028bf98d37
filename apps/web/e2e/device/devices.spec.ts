import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import {
  ADMIN,
  completePhoneVerification,
  expect,
  openFromMenu,
  SHOTS_DIR,
  SOFTWARE,
  screenshot,
  settle,
  submitLogin,
  test,
  waitForSmsResend,
} from '../fixtures.ts';

/** Picks an option of the open antd dropdown. */
const pick = async (page: Page, form: Locator, label: string, text: string | RegExp) => {
  await form.getByRole('combobox', { name: label, exact: true }).click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: text })
    .first()
    .click();
};

test.describe('devices (/device-project/device), tax accounts and stock distribution', () => {
  test('the administrator sees the health board, opens a device, distributes and returns stock, and sees the tax accounts', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await waitForSmsResend(page.request, ADMIN.mobile);
    await submitLogin(page, ADMIN.account);
    await completePhoneVerification(page, ADMIN.mobile);
    await expect(page).toHaveURL(/\/user\/switch-store/);
    await page.goto(`/user/switch-store?redirect=${encodeURIComponent('/device-project/device')}`);
    await page
      .getByRole('region', { name: '企业列表' })
      .getByRole('button', { name: new RegExp(SOFTWARE.name) })
      .click();
    await page
      .getByRole('region', { name: '门店列表' })
      .getByRole('button', { name: /^文三路总部/ })
      .click();
    await expect(page).toHaveURL(/\/device-project\/device$/);
    await settle(page);

    // health board: the white-listed account 张丽 logged in and verified, 李强 logged out, for every clerk
    const board = page.getByTestId('health-board');
    await expect(board).toContainText('税局会话健康看板');
    const zhang = board.getByRole('row').filter({ hasText: '张丽' }).first();
    await expect(zhang).toContainText('已登录');
    await expect(zhang).toContainText('已认证');
    await expect(zhang).toContainText(/\d+小时\d+分/);
    await expect(zhang.getByRole('button', { name: '实名认证' })).toBeVisible();
    const li = board.getByRole('row').filter({ hasText: '李强' }).first();
    await expect(li).toContainText('未登录');
    await expect(li).toContainText('已失效');
    await expect(board.getByRole('row').filter({ hasText: '开票员小王' }).first()).toBeVisible();
    await board.screenshot({ path: path.join(SHOTS_DIR, 'health-board.png') });

    // the device table and a detail
    const table = page.getByTestId('device-table');
    const main = table.getByRole('row').filter({ hasText: '金税盘（主盘）' });
    await expect(main).toContainText('主盘');
    await expect(main).toContainText('在线');
    await expect(main).toContainText('999,999.99');
    await expect(table.getByRole('row').filter({ hasText: '金税盘（分盘1）' })).toContainText('分盘1');
    await expect(table.getByRole('row').filter({ hasText: '数电账户（电子发票服务平台）' })).toContainText(
      '本月发票总额度',
    );
    await screenshot(page, 'devices');
    await main.getByRole('button', { name: '详情' }).click();
    const drawer = page.getByRole('dialog', { name: '设备详情：金税盘（主盘）' });
    await expect(drawer).toContainText('发票库存');
    await expect(drawer).toContainText('499912345678');
    await expect(drawer).toContainText('金税盘（分盘1）（分机号1）');
    await screenshot(page, 'device-detail');
    await drawer.getByRole('button', { name: '关闭', exact: true }).click();

    // distribute 10 卷票 to the branch disc, then return them (the other specs' stock stays as seeded)
    await openFromMenu(page, /\/invoice-manage\/dispense$/, '发票分发', '设备管理');
    const dispense = page.locator('form').filter({ hasText: '确认分发' });
    await pick(page, dispense, '主盘', '金税盘（主盘）');
    await pick(page, dispense, '分盘', '金税盘（分盘1）');
    await pick(page, dispense, '票种', /卷/);
    await dispense.getByRole('spinbutton', { name: '数量' }).fill('10');
    await page.getByRole('button', { name: '确认分发' }).click();
    await expect(page.getByText('分发成功')).toBeVisible();
    const records = page.getByRole('row').filter({ hasText: '金税盘（主盘） → 金税盘（分盘1）' });
    await expect(records.first()).toContainText('10张');
    // the same discs, kind and count, the other way
    await page.getByText('退回（分盘→主盘）').click();
    await page.getByRole('button', { name: '确认退回' }).click();
    await expect(page.getByText('退回成功')).toBeVisible();
    await expect(
      page.getByRole('row').filter({ hasText: '金税盘（分盘1） → 金税盘（主盘）' }).first(),
    ).toContainText('退回');
    await screenshot(page, 'dispense');

    // 领票 onto the main disc through the sandbox bureau
    await openFromMenu(page, /\/invoice-manage\/receive$/, '发票领用', '设备管理');
    const receive = page.locator('form').filter({ hasText: '申请领票' });
    await pick(page, receive, '主盘', '金税盘（主盘）');
    await pick(page, receive, '票种', /卷/);
    await receive.getByRole('spinbutton', { name: '数量' }).fill('20');
    await page.getByRole('button', { name: '申请领票' }).click();
    await expect(page.getByText(/领票成功：发票代码 \d{12}/)).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: '领票' }).first()).toContainText('20张');
    await screenshot(page, 'receive');

    // the monthly filing of last month: main discs seeded as filed, the branch disc not
    await openFromMenu(page, /\/report-summary\/summary$/, '汇总上报', '设备管理');
    await expect(page.getByRole('row').filter({ hasText: '金税盘（主盘）' })).toContainText('正常');
    await expect(page.getByRole('row').filter({ hasText: '金税盘（分盘1）' })).toContainText(/未抄税|已到/);
    await screenshot(page, 'report-summary');

    // stores: devices and default kinds per store
    await openFromMenu(page, /\/group\/client-store$/, '门店管理');
    await expect(page.getByRole('row').filter({ hasText: '滨江研发中心' })).toContainText('金税盘（分盘1）');
    await screenshot(page, 'stores');

    // tax accounts: the business has a white-listed account, so the page is there
    await openFromMenu(page, /\/device-project\/account$/, '税局账号', '设备管理');
    const acct = page.getByRole('row').filter({ hasText: '91330106MA2KC7LM1A-zhangli' });
    await expect(acct).toContainText('白名单');
    await expect(acct).toContainText('176****2696');
    await expect(acct).toContainText('已登录');
    await screenshot(page, 'tax-accounts');
  });
});
