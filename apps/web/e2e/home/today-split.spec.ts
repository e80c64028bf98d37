import type { Page } from '@playwright/test';
import { CLERK, expect, loginAs, test } from '../fixtures.ts';

// /home/index 今日开票: the net and, apart, the blue and the red invoices of the day (issue 24: the
// card showed ¥-35,550.00 with no split).

type Envelope<T> = { code: number; message: string; data: T };
type Sums = { count: number; total_amount: string; total_tax: string; total_with_tax: string };
type Overview = { today: Sums; today_blue: Sums; today_red: Sums };

async function scopeOf(page: Page) {
  const session = await page.evaluate(() => JSON.parse(sessionStorage.getItem('kp_session') ?? '{}'));
  const state = session.state as { business: { client_id: number }; store: { client_store_id: number } };
  const token = (await page.context().cookies()).find((c) => c.name === 'kp_token')?.value ?? '';
  return {
    query: `client_id=${state.business.client_id}&sid=${state.store.client_store_id}`,
    headers: { 'access-token': token },
  };
}

async function call<T>(page: Page, method: 'GET' | 'POST', path: string, data?: unknown): Promise<T> {
  const scope = await scopeOf(page);
  const url = `${path}?${scope.query}`;
  const res =
    method === 'GET'
      ? await page.request.get(url, { headers: scope.headers })
      : await page.request.post(url, { data, headers: scope.headers });
  const body = (await res.json()) as Envelope<T>;
  expect(body.code, body.message).toBe(0);
  return body.data;
}

const yuan = (v: string) => {
  const [int, frac] = v.replace('-', '').split('.');
  return `${v.startsWith('-') ? '-' : ''}${int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac}`;
};
const cents = (v: string) => Math.round(Number(v) * 100);

test.describe('home 今日开票', () => {
  test('shows the day’s net with the blue and the red invoices apart', async ({ page }) => {
    test.setTimeout(90_000);
    await loginAs(page, CLERK.account);
    const before = await call<Overview>(page, 'GET', '/v3/home/invoice-overview');

    // a blue 数电 普票 of 1,060.00 and a partial red of 318.00 against it (the buyer has not used it)
    const devices = await call<{ device_id: number; invoice_types: { code: string }[] }[]>(
      page,
      'GET',
      '/v3/client-store/get-tax-equipment',
    );
    const digital = devices.find((d) => d.invoice_types.some((t) => t.code === '82'))!;
    const blue = await call<{ invoice_id: number }>(page, 'POST', '/v3/online-invoicing/blue', {
      serial_no: `E2EHOME${Date.now()}`,
      device_id: digital.device_id,
      invoice_type: '82',
      buyer: { title_type: 1, name: '今日开票演示客户' },
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
    });
    const red = await call<{ red_invoice: { status: string } | null }>(page, 'POST', '/v3/red-info/apply', {
      invoice_id: blue.invoice_id,
      reason: '04',
      full: false,
      lines: [{ blue_line_no: 1, amount_with_tax: '318.00' }],
    });
    expect(red.red_invoice?.status).toBe('issued');

    const after = await call<Overview>(page, 'GET', '/v3/home/invoice-overview');
    expect(after.today_blue.count).toBe(before.today_blue.count + 1);
    expect(cents(after.today_blue.total_with_tax) - cents(before.today_blue.total_with_tax)).toBe(106_000);
    expect(after.today_red.count).toBe(before.today_red.count + 1);
    expect(cents(after.today_red.total_with_tax) - cents(before.today_red.total_with_tax)).toBe(-31_800);
    expect(cents(after.today.total_with_tax)).toBe(
      cents(after.today_blue.total_with_tax) + cents(after.today_red.total_with_tax),
    );

    await page.goto('/home/index');
    const card = page.getByRole('region', { name: '今日开票' });
    await expect(card).toContainText('今日开票净额（价税合计）');
    await expect(card).toContainText(`¥${yuan(after.today.total_with_tax)}`);
    await expect(
      card.getByText(`蓝字 ${after.today_blue.count} 张 · ¥${yuan(after.today_blue.total_with_tax)}`),
    ).toBeVisible();
    await expect(
      card.getByText(`红字 ${after.today_red.count} 张 · ¥${yuan(after.today_red.total_with_tax)}`),
    ).toBeVisible();
  });
});
