import fs from 'node:fs/promises';
import path from 'node:path';
import { CLERK, expect, loginAs, test } from '../fixtures.ts';
import { issueLongBuyerInvoice, uploadLongNamedBatch } from '../layout/layout-data.ts';

/**
 * Issue 24 "Proven by": the clerk's ten most used routes (bench/navigation.ts's list) at 1280×800,
 * each once its content shows. PNGs in .tmp/shots/screens/ to look at; with
 * KAIPIAO_SCREENS_DIR=docs/screens they are the committed ones (README, docs/screens/README.md).
 */
const ROUTES = [
  { path: '/home/index', name: 'home', content: '.ant-statistic-content' },
  { path: '/invoice/online', name: 'invoice-online', content: '.ant-table-row' },
  { path: '/query/invoice', name: 'query-invoice', content: '.ant-table-row' },
  { path: '/query/invoice-stat', name: 'query-invoice-stat', content: '.ant-statistic-content' },
  { path: '/invoice/batch', name: 'invoice-batch', content: '.ant-table-row' },
  { path: '/red-info/sheet', name: 'red-info-sheet', content: '.ant-table' },
  { path: '/invoice/qrcode', name: 'invoice-qrcode', content: '.ant-table' },
  { path: '/invoice/audit', name: 'invoice-audit', content: '.ant-table' },
  { path: '/device-project/project', name: 'device-project-project', content: '.ant-table-row' },
  { path: '/device-project/title', name: 'device-project-title', content: '.ant-table-row' },
] as const;

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const DIR = process.env.KAIPIAO_SCREENS_DIR
  ? path.resolve(ROOT, process.env.KAIPIAO_SCREENS_DIR)
  : path.join(ROOT, '.tmp/shots/screens');

test('the ten most used routes at 1280×800', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await loginAs(page, CLERK.account);
  // the e2e database has no demo history: an invoice and a batch, so the library and the batch
  // records show rows (goods codes and buyer titles are seeded)
  await issueLongBuyerInvoice(page);
  await page.goto('/invoice/batch');
  await uploadLongNamedBatch(page);
  await fs.mkdir(DIR, { recursive: true });
  for (const r of ROUTES) {
    await page.goto(r.path);
    await expect(page.locator(r.content).first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    await page.screenshot({
      path: path.join(DIR, `${r.name}.png`),
      animations: 'disabled',
    });
  }
  expect((await fs.readdir(DIR)).filter((f) => f.endsWith('.png')).length).toBeGreaterThanOrEqual(
    ROUTES.length,
  );
});
