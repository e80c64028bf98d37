import { CLERK, expect, issueDigitalInvoice, loginAs, test } from '../fixtures.ts';

/**
 * Issue 24 item 7: each statistics chart has a text alternative — the canvas is an image named
 * after its chart, and 查看数据表 shows a table with the numbers the chart draws (the same as the
 * summary the page was sent).
 */

type Summary = {
  trend: { period: string; count: number; total_with_tax: string }[];
  by_kind: { name: string; count: number }[];
  by_rate: { label: string; total_amount: string; total_tax: string }[];
  by_store: { store_name: string; total_with_tax: string }[];
};

const yuan = (v: string) => {
  const [int, frac] = v.replace('-', '').split('.');
  return `${v.startsWith('-') ? '-' : ''}¥${int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac}`;
};

test('the statistics charts each show their numbers as a table behind 查看数据表', async ({ page }) => {
  test.setTimeout(90_000);
  await loginAs(page, CLERK.account);
  // one invoice of the day, so that every chart has something to draw
  await issueDigitalInvoice(page, {
    serialPrefix: 'E2ECHART',
    buyer: { title_type: 1, name: '图表数据表客户' },
    amount: 1000,
  });

  const answered = page.waitForResponse((r) => r.url().includes('/v3/invoice-stat/summary'));
  await page.goto('/query/invoice-stat');
  const d = ((await (await answered).json()) as { data: Summary }).data;
  expect(d.by_kind.length).toBeGreaterThan(0);

  const expected: Record<string, string[][]> = {
    开票趋势: d.trend.slice(0, 12).map((t) => [t.period, yuan(t.total_with_tax), String(t.count)]),
    发票种类: d.by_kind.map((k) => [k.name, String(k.count)]),
    按税率: d.by_rate.map((r) => [r.label, yuan(r.total_amount), yuan(r.total_tax)]),
    按门店: d.by_store.map((s) => [s.store_name, yuan(s.total_with_tax)]),
  };
  for (const [title, rows] of Object.entries(expected)) {
    const figure = page.getByRole('figure', { name: title });
    await expect(figure.getByRole('img', { name: new RegExp(`^${title}图表`) })).toBeVisible();
    const toggle = figure.getByRole('button', { name: '查看数据表' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await expect(figure.getByRole('button', { name: '收起数据表' })).toHaveAttribute('aria-expanded', 'true');
    const bodyRows = figure
      .getByRole('table')
      .getByRole('row')
      .filter({ has: page.getByRole('cell') });
    await expect(bodyRows).toHaveCount(rows.length);
    for (const [i, cells] of rows.entries()) {
      for (const cell of cells) await expect(bodyRows.nth(i)).toContainText(cell);
    }
  }
});
