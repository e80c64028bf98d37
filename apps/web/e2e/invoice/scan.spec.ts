import { CLERK, expect, HOTEL, loginAs, openFromMenu, screenshot, test } from '../fixtures.ts';
import { CHROMIUM_ARGS } from '../playwright.config.ts';

const BUYER_EMAIL = 'scan-buyer@example.com';
const BUYER = { name: '杭州湖畔云数据科技有限公司', taxCode: '91330106MA2CXD7R3P' } as const;

test.describe('scan-to-invoice (/s/:token, /invoice/qrcode, /invoice/audit)', () => {
  test('a buyer submits the store QR on a phone, the clerk completes and approves it, the buyer downloads the invoice', async ({
    page,
    playwright,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    // the clerk's store (文三路总部) is in audit mode (seed): requests wait in the queue
    await loginAs(page, CLERK.account);
    const list = page.waitForResponse((r) => /\/v3\/scan-code\/list\?.*kind=static/.test(r.url()));
    await openFromMenu(page, /\/invoice\/qrcode$/, '扫码开票', '开票管理');
    const codes = (await (await list).json()) as { data: { list: { kind: string; token: string }[] } };
    const storeCode = codes.data.list.find((c) => c.kind === 'store')!;
    await expect(page.getByRole('img', { name: `${CLERK.store}（门店码）二维码` })).toBeVisible();
    await expect(page.getByRole('radio', { name: '审核后开票' })).toBeChecked();
    // every QR image has loaded before the picture is taken
    await expect
      .poll(() =>
        page.$$eval('img[alt$="二维码"]', (imgs) =>
          imgs.every((i) => (i as HTMLImageElement).naturalWidth > 0),
        ),
      )
      .toBe(true);
    await screenshot(page, 'scan-qrcode');

    // the buyer: a phone, no login — a browser of its own (a second context in the runner's browser
    // shares the runner's trace files, which then collide when either context closes)
    const phoneBrowser = await playwright.chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    });
    const phone = await phoneBrowser.newContext({
      baseURL,
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      locale: 'zh-CN',
      timezoneId: 'Asia/Shanghai',
      acceptDownloads: true,
    });
    const buyer = await phone.newPage();
    await buyer.goto(`/s/${storeCode.token}`);
    await expect(buyer.getByText('杭州云栈软件科技有限公司')).toBeVisible();
    await buyer.getByRole('button', { name: '提交开票申请' }).click();
    await expect(buyer.getByText('请输入抬头名称').first()).toBeVisible();
    // the title lookup fills name and tax code (the demo businesses' codes are placeholders whose
    // check character is wrong: the form says so, and the buyer types a real one)
    const name = buyer.getByPlaceholder('输入单位名称，可选择匹配的企业');
    const taxCode = buyer.getByPlaceholder('请填写纳税人识别号');
    await name.fill('西湖畔');
    await buyer.getByText(HOTEL.name).click();
    await expect(name).toHaveValue(HOTEL.name);
    await expect(taxCode).toHaveValue(HOTEL.taxCode);
    await buyer.getByRole('button', { name: '提交开票申请' }).click();
    await expect(buyer.getByText('统一社会信用代码校验位不正确，请核对').first()).toBeVisible();
    await name.fill(BUYER.name);
    await taxCode.fill(BUYER.taxCode);
    await expect(buyer.getByText('统一社会信用代码校验位不正确，请核对')).toBeHidden();
    await buyer.getByPlaceholder('用于接收电子发票').fill(BUYER_EMAIL);
    await buyer.getByPlaceholder('0.00').fill('128.00');
    await screenshot(buyer, 'scan-buyer');
    await buyer.getByRole('button', { name: '提交开票申请' }).click();
    await expect(buyer.getByText('已提交，等待商家审核开票')).toBeVisible();
    await screenshot(buyer, 'scan-buyer-pending');

    // the clerk's queue
    await openFromMenu(page, /\/invoice\/audit$/, '开票审核', '开票管理');
    const row = page.getByRole('row').filter({ hasText: BUYER.name });
    await expect(row).toBeVisible();
    await expect(row).toContainText('¥128.00');
    await expect(row).toContainText(BUYER_EMAIL);
    await screenshot(page, 'audit-queue');
    await row.getByRole('button', { name: '审核' }).click();
    const drawer = page.getByRole('dialog', { name: '审核开票申请' });
    await expect(drawer).toContainText(BUYER.taxCode);
    await drawer.getByRole('combobox').first().click();
    await page.locator('.ant-select-item-option').filter({ hasText: '软件开发服务' }).first().click();
    await drawer.getByRole('spinbutton', { name: '含税金额' }).fill('128');
    await expect(drawer).toContainText('价税合计：¥128.00');
    await screenshot(page, 'audit-approve');
    await drawer.getByRole('button', { name: '审核通过并开票' }).click();
    await expect(page.getByText(/开票成功，发票号码 \d{20}/)).toBeVisible();
    await expect(drawer).toBeHidden();

    // the buyer's page updates by itself and offers the PDF
    await expect(buyer.getByText('发票已开具', { exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(buyer.getByText('电子发票（普通发票）')).toBeVisible();
    await expect(buyer.getByText('¥128.00')).toBeVisible();
    const download = buyer.waitForEvent('download');
    await buyer.getByRole('button', { name: '下载发票（PDF）' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.pdf$/);
    await screenshot(buyer, 'scan-buyer-issued');

    // in the queue the request moved to 已开票
    await page.getByText('已开票', { exact: true }).first().click();
    await expect(page.getByRole('row').filter({ hasText: BUYER.name })).toContainText('查看发票');
    await phone.close();
    await phoneBrowser.close();
  });
});
