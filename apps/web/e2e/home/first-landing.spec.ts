import type { Locator, Page } from '@playwright/test';
import { CLERK, expect, screenshot, submitLogin, test } from '../fixtures.ts';

/**
 * Issue 24 item 9: the first landing shows at most one interruption at a time — the entry prompts
 * (the public notice) queue, the home page's notices wait for them and for each other (the tax-rate
 * tip, then the floating finance banner), and no banner lies over 快捷入口 at 1280, 1440 or 1920.
 */
const SIZES = [
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
] as const;

const interruptions = (page: Page) => ({
  dialogs: page.locator('.ant-modal-wrap:visible [role="dialog"]'),
  taxTip: page.getByText('税率变更提示', { exact: true }),
  financeCard: page.getByRole('button', { name: '收起金融服务' }),
  financeTab: page.getByRole('button', { name: '打开金融服务' }),
});

async function showing(page: Page): Promise<string[]> {
  const i = interruptions(page);
  const shown: string[] = [];
  for (let n = await i.dialogs.count(); n > 0; n--) shown.push('dialog');
  if (await i.taxTip.isVisible()) shown.push('税率变更提示');
  if (await i.financeCard.isVisible()) shown.push('金融服务');
  return shown;
}

async function box(l: Locator) {
  const b = await l.boundingBox();
  if (!b) throw new Error('not laid out');
  return b;
}

const overlaps = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('the first landing: one interruption at a time, and nothing over 快捷入口', async ({
  page,
  request,
}) => {
  // whichever test ran first read the notice: the sandbox shows it to the clerk again
  const unread = await request.post('/v3/dev/notice-unread', { data: { account: CLERK.account } });
  expect(((await unread.json()) as { code: number }).code).toBe(0);
  await page.setViewportSize(SIZES[0]);
  const notice = page.waitForResponse((r) => r.url().includes('/v3/system/public-notice'));
  await submitLogin(page, CLERK.account);
  await page.waitForURL(/\/home\/index/);
  const { data } = (await (await notice).json()) as { data: { title: string } | null };
  expect(data, 'the demo tenant publishes a notice').not.toBeNull();
  const quick = page.locator('.ant-card').filter({ has: page.getByText('快捷入口', { exact: true }) });
  await expect(quick).toBeVisible();

  // while the notice shows (and while the home figures arrive), it is the only interruption
  const dialog = page.getByRole('dialog', { name: data!.title });
  await expect(dialog).toBeVisible();
  for (let t = 0; t < 12; t++) {
    expect(await showing(page)).toEqual(['dialog']);
    await page.waitForTimeout(150);
  }
  await screenshot(page, 'first-landing-notice');

  // the notice closed: the tax-rate tip takes its turn; the finance banner waits as its tab
  await dialog.getByRole('button', { name: '我知道了' }).click();
  await expect(dialog).toBeHidden();
  const i = interruptions(page);
  await expect(i.taxTip).toBeVisible();
  await expect(i.financeTab).toBeVisible();
  expect(await showing(page)).toEqual(['税率变更提示']);
  await screenshot(page, 'first-landing-tax-tip');

  // nothing lies over 快捷入口 at any desktop size; the clerk can still open the banner from its tab
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await expect(i.financeTab).toBeVisible();
    expect(overlaps(await box(i.financeTab), await box(quick)), `tab over 快捷入口 at ${size.width}`).toBe(
      false,
    );
  }
  await page.setViewportSize(SIZES[0]);
  await i.financeTab.click();
  await expect(i.financeCard).toBeVisible();
  await screenshot(page, 'first-landing-finance-asked');
  await i.financeCard.click();
  await expect(i.financeTab).toBeVisible();
  await expect(i.financeCard).toBeHidden();
});
