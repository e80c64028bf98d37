import type { Page } from '@playwright/test';
import { CLERK, expect, loginAs, openFromMenu, screenshot, test } from '../fixtures.ts';

type Envelope<T> = { code: number; message: string; data: T };

/** The console's scope (business, store) and token, as the page holds them. */
async function scopeOf(page: Page) {
  const session = await page.evaluate(() => JSON.parse(sessionStorage.getItem('kp_session') ?? '{}'));
  const state = session.state as { business: { client_id: number }; store: { client_store_id: number } };
  const token = (await page.context().cookies()).find((c) => c.name === 'kp_token')?.value ?? '';
  return {
    query: `client_id=${state.business.client_id}&sid=${state.store.client_store_id}`,
    headers: { 'access-token': token },
  };
}

const HOSTED = '金税盘（主盘）'; // bound to 文三路总部 only (apps/server/src/db/seed/devices.ts)
const OTHER_STORES = '金税盘（分盘1）'; // bound to 滨江研发中心: not the clerk's to see (issue 21, C2)

test.describe('trusteeship (/invoice/trusteeship) and roll printing (/external/print-ticket)', () => {
  test('a clerk hands over her store’s disc, issues through it, prints the invoice as a ticket, then revokes; another store’s disc is not hers to see', async ({
    page,
    context,
  }) => {
    test.setTimeout(120_000);
    await loginAs(page, CLERK.account);
    await openFromMenu(page, /\/invoice\/trusteeship$/, '托管开票', '开票管理');

    const row = page.getByRole('row').filter({ hasText: HOSTED });
    await expect(row).toContainText('未托管');
    await expect(row).toContainText(`${CLERK.store}（本地）`);
    // 滨江's branch disc is neither listed nor named to a clerk of 文三路 (store scope)
    await expect(page.getByRole('row').filter({ hasText: OTHER_STORES })).toHaveCount(0);
    await expect(page.getByRole('main')).not.toContainText('滨江研发中心');
    await row.getByRole('button', { name: '托管设备' }).click();

    const dialog = page.getByRole('dialog', { name: '托管设备' });
    await expect(dialog).toContainText('499912345678');
    // the clerk's one store; the agreement is required
    await dialog.getByRole('checkbox', { name: CLERK.store }).check();
    await dialog.getByRole('button', { name: '确认托管' }).click();
    await expect(dialog.getByText('请先阅读并同意《设备托管服务协议》')).toBeVisible();
    await dialog.getByRole('checkbox', { name: '我已阅读并同意《设备托管服务协议》' }).check();
    await dialog.getByRole('button', { name: '确认托管' }).click();
    await expect(dialog).toBeHidden();

    // hosted, online in the hosting centre, granted to the clerk's store
    await expect(row).toContainText('托管中');
    await expect(row).toContainText('在线');
    await expect(row).toContainText('杭州托管中心');
    await expect(row).toContainText(`${CLERK.store}（托管）`);
    await expect(row).toContainText('增值税普通发票：500张');
    await expect(page.locator('.ant-statistic').filter({ hasText: '托管中' })).toContainText('1');
    await screenshot(page, 'trusteeship');

    // the store now issues through the hosted disc (the device list the invoice form reads, then the issuing API)
    const scope = await scopeOf(page);
    const devices = (
      (await (
        await page.request.get(`/v3/client-store/get-tax-equipment?${scope.query}`, {
          headers: scope.headers,
        })
      ).json()) as Envelope<{ device_id: number; name: string }[]>
    ).data;
    const hosted = devices.find((d) => d.name === HOSTED);
    expect(hosted, 'the hosted disc in the store’s device list').toBeTruthy();
    const res = await page.request.post(`/v3/online-invoicing/blue?${scope.query}`, {
      headers: scope.headers,
      data: {
        serial_no: `E2ETRUST${Date.now()}`,
        device_id: hosted!.device_id,
        invoice_type: '007',
        buyer: { title_type: 2, name: '杭州数澜网络科技有限公司', tax_code: '91330110MA2GQ7K3P4' },
        goods_info: [
          {
            tax_class_code: '3040201010000000000',
            short_name: '信息技术服务',
            name: '软件开发服务',
            unit: '项',
            quantity: '2',
            price: '530',
            amount: '1000.00',
            tax_amount: '60.00',
            amount_with_tax: '1060.00',
            tax_rate: '0.06',
          },
        ],
        invoice_info: {
          price_includes_tax: true,
          total_amount: '1000.00',
          total_tax: '60.00',
          total_price_with_tax: '1060.00',
        },
        send_email: false,
      },
    });
    const issued = (await res.json()) as Envelope<{ invoice_id: number; invoice_no: string; status: string }>;
    expect(issued.code, issued.message).toBe(0);
    expect(issued.data.invoice_no).toMatch(/^\d{8}$/);

    // the ticket page (a tab of its own, outside the console's tabs)
    const ticket = await context.newPage();
    await ticket.goto(`/external/print-ticket?invoice_id=${issued.data.invoice_id}`);
    const body = ticket.getByTestId('ticket');
    await expect(body).toContainText(`发票号码：${issued.data.invoice_no}`);
    await expect(body).toContainText('增值税普通发票');
    await expect(body).toContainText('购买方：杭州数澜网络科技有限公司');
    await expect(body).toContainText('*信息技术服务*软件开发服务');
    await expect(body).toContainText('¥1,060.00');
    await expect(body).toContainText('（大写）壹仟零陆拾圆整');
    await expect(body.locator('svg')).toBeVisible(); // the 票面 QR
    await expect(ticket.getByRole('button', { name: '打印' })).toBeEnabled();
    await screenshot(ticket, 'print-ticket');
    await ticket.getByText('58mm').click();
    await expect(body).toHaveCSS('width', /^21\d(\.\d+)?px$/); // 58 mm ≈ 219 px
    await ticket.close();
    // print pages never join the console's tabs
    await expect(page.getByText('打印小票')).toHaveCount(0);

    // revoke: the hosting ends and its grant goes; the store keeps the disc it is bound to locally
    await page.getByRole('button', { name: '刷新状态' }).click();
    await row.getByRole('button', { name: '撤销托管' }).click();
    const revoke = page.getByRole('dialog', { name: '撤销托管' });
    await revoke.getByLabel('撤销原因').fill('演示结束，设备取回');
    await revoke.getByRole('button', { name: '确认撤销' }).click();
    await expect(revoke).toBeHidden();
    await expect(row).toContainText('已撤销');
    await expect(row).not.toContainText(`${CLERK.store}（托管）`);
    await expect(row).toContainText(`${CLERK.store}（本地）`);
  });
});
