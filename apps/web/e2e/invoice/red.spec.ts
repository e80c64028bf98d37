import type { APIRequestContext, Page } from '@playwright/test';
import { CLERK, expect, loginAs, screenshot, test } from '../fixtures.ts';

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

async function post<T>(request: APIRequestContext, url: string, data: unknown, headers = {}): Promise<T> {
  const res = await request.post(url, { data, headers });
  expect(res.ok()).toBe(true);
  const body = (await res.json()) as Envelope<T>;
  expect(body.code, body.message).toBe(0);
  return body.data;
}

/**
 * A blue 数电 普票 of the clerk's store through the issuing API (the issue flow has its own spec):
 * one service line, 2 × 530.00 incl. 6% = 1060.00.
 */
async function issueBlue(page: Page, buyer: string) {
  const scope = await scopeOf(page);
  const devRes = await page.request.get(`/v3/client-store/get-tax-equipment?${scope.query}`, {
    headers: scope.headers,
  });
  const devices = (
    (await devRes.json()) as Envelope<{ device_id: number; invoice_types: { code: string }[] }[]>
  ).data;
  const digital = devices.find((d) => d.invoice_types.some((t) => t.code === '82'))!;
  return post<{ invoice_id: number; invoice_no: string }>(
    page.request,
    `/v3/online-invoicing/blue?${scope.query}`,
    {
      serial_no: `E2ERED${Date.now()}`,
      device_id: digital.device_id,
      invoice_type: '82',
      buyer: { title_type: 1, name: buyer },
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
    scope.headers,
  );
}

test.describe('red-letter invoices (/red-info/sheet, /red-info/modify)', () => {
  test('a clerk makes a partial red of a 数电 invoice the buyer has used; the buyer confirms through the sandbox', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await loginAs(page, CLERK.account);
    const buyer = `红冲演示客户${Date.now() % 100000}`;
    const blue = await issueBlue(page, buyer);
    // the buyer has booked it (勾选/入账): the 确认单 needs the buyer's confirmation
    await post(page.request, '/v3/dev/red-info/buyer-use', { invoice_id: blue.invoice_id, used: true });

    // the library's detail drawer: a 数电 invoice cannot be voided, so only 红冲 is offered
    await page.goto(`/query/invoice?invoice_id=${blue.invoice_id}`);
    const drawer = page.getByRole('dialog', { name: '发票详情' });
    await expect(drawer.getByText(blue.invoice_no).first()).toBeVisible();
    await expect(drawer.getByRole('button', { name: '红冲' })).toBeVisible();
    await expect(drawer.getByRole('button', { name: '作废' })).toHaveCount(0);
    await drawer.getByRole('button', { name: '红冲' }).click();

    // the fill-in page
    await expect(page).toHaveURL(new RegExp(`/red-info/modify\\?invoice_id=${blue.invoice_id}$`));
    await expect(page.getByText('填写红字确认单')).toBeVisible();
    await expect(page.getByText(/购买方已勾选或入账该发票/)).toBeVisible();
    // by role: a library page kept open in a tab may show a 部分红冲 tag of an earlier invoice
    await page.getByRole('radio', { name: '销售折让' }).check();
    await page.getByRole('radio', { name: '部分红冲' }).check();
    await page.getByLabel('第1行红冲金额').fill('300');
    await expect(page.getByText('¥-300.00')).toBeVisible();
    await screenshot(page, 'red-modify');
    await page.getByRole('button', { name: '提交' }).click();
    // what will be submitted, confirmed before anything is sent
    const confirm = page.getByRole('dialog', { name: '确认提交红字确认单' });
    await expect(confirm.getByText('销售折让')).toBeVisible();
    await expect(confirm.getByText('部分红冲')).toBeVisible();
    await expect(confirm.getByText('¥-300.00')).toBeVisible();
    await confirm.getByRole('button', { name: '确认红冲' }).click();

    // the form, waiting for the buyer (02) with its 72 hours
    await expect(page).toHaveURL(/\/red-info\/sheet\?form_id=\d+$/);
    const formId = Number(new URL(page.url()).searchParams.get('form_id'));
    const formDrawer = page.getByRole('dialog', { name: '红字确认单详情' });
    await expect(formDrawer.getByText('02 销方录入待购方确认')).toBeVisible();
    await expect(formDrawer.getByText(/剩余 7[12]小时/)).toBeVisible();
    await expect(formDrawer.getByText('¥-300.00').first()).toBeVisible();
    await expect(formDrawer.getByRole('button', { name: '撤销' })).toBeVisible();
    // only what happened: no refusal of the blue invoice shown beside the success
    await expect(page.getByText(/没有可红冲的余额/)).toHaveCount(0);
    // the submit toast gone, so the drawer's title shows
    await expect(page.getByText('红字确认单已提交：销方录入待购方确认')).toBeHidden({ timeout: 10_000 });
    await screenshot(page, 'red-form');

    // the buyer confirms in the sandbox bureau: 04, and the red invoice is issued
    const confirmed = await post<{ state: string; red_invoice: { invoice_no: string; status: string } }>(
      page.request,
      '/v3/dev/red-info/counterparty',
      { form_id: formId, action: 'confirm' },
    );
    expect(confirmed).toMatchObject({ state: '04', red_invoice: { status: 'issued' } });
    await formDrawer.getByRole('button', { name: '关闭' }).click();
    await page.getByPlaceholder('单据编号、发票号码或购方名称').fill(buyer);
    await page.getByRole('button', { name: /查\s*询/ }).click();
    const row = page.getByRole('row').filter({ hasText: buyer });
    await expect(row).toHaveCount(1);
    await expect(row.getByText('04 购销双方已确认')).toBeVisible();
    await expect(row.getByText(confirmed.red_invoice.invoice_no)).toBeVisible();
    await page.getByPlaceholder('单据编号、发票号码或购方名称').fill('');
    await page.getByRole('button', { name: /查\s*询/ }).click();
    await expect(page.getByText('04 购销双方已确认').first()).toBeVisible();
    await screenshot(page, 'red-list');

    // the blue invoice is partially reddened
    await page.goto(`/query/invoice?invoice_no=${blue.invoice_no}`);
    const blueRow = page.getByRole('row').filter({ hasText: blue.invoice_no });
    await expect(blueRow.getByText('部分红冲')).toBeVisible();
    await blueRow.getByRole('button', { name: '详情' }).click();
    const detail = page.getByRole('dialog', { name: '发票详情' });
    await expect(detail.getByText('760.00')).toBeVisible();
    await expect(
      detail.getByText(`红字发票 ${confirmed.red_invoice.invoice_no}`, { exact: false }),
    ).toBeVisible();
    await screenshot(page, 'red-blue-detail');

    // the print page of the form
    await page.goto(`/external/print-red-info?form_id=${formId}`);
    await expect(page.getByRole('heading', { name: '红字发票信息确认单' })).toBeVisible();
    await expect(page.getByText('04 购销双方已确认')).toBeVisible();
    await screenshot(page, 'red-print');
  });
});
