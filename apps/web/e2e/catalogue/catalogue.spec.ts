import type { Locator, Page } from '@playwright/test';
import { CLERK, callApi, expect, issueDigitalInvoice, loginAs, openFromMenu, test } from '../fixtures.ts';

// 商品编码 and 购方抬头 (/device-project/project, /device-project/title) and the library's 导出记录
// (issue 24 item 6: plain antd tables and forms instead of ProComponents): what a clerk does on each
// — add, search, edit, set as default, delete one and several — in the real console and server.

const row = (page: Page, name: string): Locator => page.getByRole('row').filter({ hasText: name });

/**
 * Opens the Popconfirm that asks `question` from `trigger` and answers it with its primary button
 * (found by its place: its name turns to "loading 删除" while the request runs), then waits for it
 * to close. A click on a button the list is re-rendering may open nothing: clicked until it shows.
 */
async function confirmPop(page: Page, trigger: Locator, question: string) {
  const pop = page.getByRole('tooltip').filter({ hasText: question });
  await expect(async () => {
    if (!(await pop.isVisible())) await trigger.click();
    await expect(pop).toBeVisible({ timeout: 1_500 });
  }).toPass({ timeout: 10_000, intervals: [300] });
  await pop.locator('button.ant-btn-primary').click();
  await expect(pop).toBeHidden({ timeout: 20_000 });
}

/** Searches the list's toolbar box (Enter), waiting for the list's answer. */
async function searchFor(page: Page, box: string, text: string, path: string) {
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === path);
  const input = page.getByRole('searchbox', { name: box });
  await input.fill(text);
  await input.press('Enter');
  await answer;
}

test.describe('catalogue pages (issue 24 item 6)', () => {
  test('商品编码: add, search, edit, set as default, delete one and then several', async ({ page }) => {
    test.setTimeout(120_000);
    await loginAs(page, CLERK.account);
    const stamp = String(Date.now() % 1_000_000);
    const name = `测试服务${stamp}`;
    await openFromMenu(page, /\/device-project\/project$/, '商品编码');
    await expect(page.locator('.ant-table-row').first()).toBeVisible();
    await expect(page.getByText(/^第 1-\d+ 条\/总共 \d+ 条$/)).toBeVisible();

    // 新增商品: name, classification code (searched), the code's default rate preselected
    await page.getByRole('button', { name: '新增商品' }).click();
    const dialog = page.getByRole('dialog', { name: '新增商品' });
    await dialog.getByLabel('项目名称').fill(name);
    await dialog.getByLabel('税收分类编码').fill('软件开发');
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: '3040201010000000000' })
      .first()
      .click();
    await expect(dialog.getByText(`*信息技术服务*${name}`)).toBeVisible();
    await expect(dialog.locator('.ant-form-item').filter({ hasText: '税率' }).getByText('6%')).toBeVisible();
    await dialog.getByLabel('单位').fill('项');
    await dialog.getByRole('button', { name: '保存' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('商品已新增')).toBeVisible();
    await expect(row(page, name)).toHaveCount(1);

    // search: only the new item
    await searchFor(page, '项目名称 / 商品简称 / 税收分类编码', stamp, '/v3/client-project/get-projects');
    await expect(page.locator('.ant-table-row')).toHaveCount(1);
    await expect(row(page, name)).toBeVisible();

    // edit: its values in the form; the new unit in the row
    await row(page, name).getByRole('button', { name: '编辑' }).click();
    const edit = page.getByRole('dialog', { name: '编辑商品' });
    await expect(edit.getByLabel('项目名称')).toHaveValue(name);
    await edit.getByLabel('单位').fill('次');
    await edit.getByRole('button', { name: '保存' }).click();
    await expect(edit).toBeHidden();
    await expect(row(page, name).getByRole('cell', { name: '次', exact: true })).toBeVisible();

    // default: the tag comes and goes
    await row(page, name).getByRole('button', { name: '设为默认' }).click();
    await expect(row(page, name).getByText('默认', { exact: true })).toBeVisible();
    await row(page, name).getByRole('button', { name: '取消默认' }).click();
    await expect(row(page, name).getByText('默认', { exact: true })).toHaveCount(0);

    // delete it
    await confirmPop(page, row(page, name).getByRole('button', { name: '删除' }), `确定删除“${name}”吗？`);
    await expect(page.getByText('已删除1个商品')).toBeVisible();
    await expect(row(page, name)).toHaveCount(0);

    // two more (through the API), selected and deleted together
    for (const n of [`${name}甲`, `${name}乙`]) {
      await callApi(page, 'POST', '/v3/client-project/create', {
        name: n,
        tax_class_code: '3040201010000000000',
        tax_rate: '0.06',
      });
    }
    await searchFor(page, '项目名称 / 商品简称 / 税收分类编码', stamp, '/v3/client-project/get-projects');
    await expect(page.locator('.ant-table-row')).toHaveCount(2);
    await page.getByLabel(`选择${name}甲`).check();
    await page.getByLabel(`选择${name}乙`).check();
    await expect(page.getByText('已选择 2 项')).toBeVisible();
    await confirmPop(page, page.getByRole('button', { name: '批量删除' }), '确定删除选中的2个商品吗？');
    await expect(page.getByText('已删除2个商品')).toBeVisible();
    await expect(page.locator('.ant-table-placeholder .ant-empty')).toBeVisible();
    await expect(page.getByText('已选择')).toHaveCount(0);
  });

  test('购方抬头: add an enterprise, filter by type and name, edit, delete one and then several', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await loginAs(page, CLERK.account);
    const stamp = String(Date.now() % 1_000_000);
    const name = `杭州测试${stamp}科技有限公司`;
    await openFromMenu(page, /\/device-project\/title$/, '购方抬头');
    await expect(page.locator('.ant-table-row').first()).toBeVisible();

    await page.getByRole('button', { name: '新增抬头' }).click();
    const dialog = page.getByRole('dialog', { name: '新增抬头' });
    // an enterprise needs its tax code: said at the field, nothing sent
    await dialog.getByLabel('企业名称').fill(name);
    await dialog.getByRole('button', { name: '保存' }).click();
    await expect(dialog.getByText('企业抬头请填写纳税人识别号')).toBeVisible();
    await dialog.getByLabel('纳税人识别号').fill('91110000600037341L');
    await dialog.getByLabel('邮箱').fill('ap@example.com');
    await dialog.getByRole('button', { name: '保存' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('抬头已新增')).toBeVisible();
    await expect(row(page, name).getByText('91110000600037341L')).toBeVisible();

    // 个人/非企业单位 leaves it out, 企业 and the name find it
    const lists = () => page.waitForResponse((r) => new URL(r.url()).pathname === '/v3/client-title/list');
    let answer = lists();
    await page.locator('.ant-segmented').getByText('个人/非企业单位').click();
    await answer;
    await expect(row(page, name)).toHaveCount(0);
    answer = lists();
    await page.locator('.ant-segmented').getByText('企业', { exact: true }).click();
    await answer;
    await searchFor(page, '名称 / 纳税人识别号', stamp, '/v3/client-title/list');
    await expect(page.locator('.ant-table-row')).toHaveCount(1);

    await row(page, name).getByRole('button', { name: '编辑' }).click();
    const edit = page.getByRole('dialog', { name: '编辑抬头' });
    await expect(edit.getByLabel('企业名称')).toHaveValue(name);
    await edit.getByLabel('邮箱').fill('finance@example.com');
    await edit.getByRole('button', { name: '保存' }).click();
    await expect(edit).toBeHidden();
    await expect(page.getByText('抬头已保存')).toBeVisible();
    await expect(row(page, name).getByText('finance@example.com')).toBeVisible();

    await confirmPop(page, row(page, name).getByRole('button', { name: '删除' }), `确定删除“${name}”吗？`);
    await expect(page.getByText('已删除1个抬头')).toBeVisible();
    await expect(row(page, name)).toHaveCount(0);

    for (const n of [`${name}甲`, `${name}乙`]) {
      await callApi(page, 'POST', '/v3/client-title/create', { title_type: 1, name: n });
    }
    answer = lists();
    await page.locator('.ant-segmented').getByText('全部').click();
    await answer;
    await searchFor(page, '名称 / 纳税人识别号', stamp, '/v3/client-title/list');
    await expect(page.locator('.ant-table-row')).toHaveCount(2);
    await page.getByLabel(`选择${name}甲`).check();
    await page.getByLabel(`选择${name}乙`).check();
    await confirmPop(page, page.getByRole('button', { name: '批量删除' }), '确定删除选中的2个抬头吗？');
    await expect(page.getByText('已删除2个抬头')).toBeVisible();
    await expect(page.locator('.ant-table-placeholder .ant-empty')).toBeVisible();
  });

  test('导出记录: an export made on the library is listed, says why it cannot be downloaded until done, then downloads', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await loginAs(page, CLERK.account);
    await issueDigitalInvoice(page, {
      serialPrefix: 'E2EEXP',
      buyer: { title_type: 1, name: '导出记录演示客户' },
      amount: 100,
    });
    await page.goto('/query/invoice');
    await expect(page.locator('.ant-table-row').first()).toBeVisible();
    await page.getByRole('button', { name: '导出查询结果' }).click();
    await expect(page).toHaveURL(/\/query\/invoice\/export-records$/);
    await expect(page.getByText(/已提交导出（\d+张）/)).toBeVisible();
    // the newest first (the library's rows are in the page too, hidden in its tab)
    const first = page.locator('.ant-table-row:visible').first();
    await expect(first.getByText('Excel导出')).toBeVisible();
    await expect(first.getByText('全部发票')).toBeVisible();
    // queued or being built, it cannot be downloaded yet, and says why; the list asks again every
    // 2 s until it is done (the export job runs in the test server too)
    const download = first.getByRole('button', { name: /下载/ });
    if (!(await first.getByText('已完成').isVisible())) {
      await expect(download).toBeDisabled();
      await expect(first.getByText('正在导出，完成后可下载')).toBeAttached();
    }
    await expect(first.getByText('已完成')).toBeVisible({ timeout: 30_000 });
    await expect(download).toBeEnabled();
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
    await page.getByRole('button', { name: '返回发票明细' }).click();
    await expect(page).toHaveURL(/\/query\/invoice$/);
  });
});
