import type { Page } from '@playwright/test';
import { ADMIN_SCOPES, enterScope, menuListOf, permitted } from '../console-routes.ts';
import {
  ADMIN,
  CLERK,
  completePhoneVerification,
  expect,
  loginAs,
  settle,
  submitLogin,
  test,
  waitForSmsResend,
} from '../fixtures.ts';
import { issueLongBuyerInvoice, LONG_BUYER, LONG_FILE, uploadLongNamedBatch } from './layout-data.ts';

/**
 * Issue 24 item 1: the console's layouts hold at 1280×800, 1440×900 and 1920×1080. Every console
 * route the clerk and the administrator may open (a general and a hotel business, walked as
 * a11y/axe.spec.ts walks them) is measured at the three sizes; the spec fails when
 * - the page scrolls sideways (document.scrollingElement.scrollWidth > innerWidth),
 * - a table scrolls sideways (its columns do not fit the page),
 * - a table cell's content overflows the cell, or an element in it clips its content, unless the
 *   cell or the element shortens it with an ellipsis (the full text is then in a tooltip),
 * - an ellipsis cell is squeezed to a few characters ("b…"),
 * - a number, an amount, a date or an invoice number in a table wraps, a column title wraps, a
 *   cell's text is squeezed to lines of a few characters, or a row of buttons (发票种类) wraps;
 * and at a phone's 390 px, when the page scrolls sideways (a wide table scrolls inside its card).
 * Below 768 px the sidebar is a drawer that a menu button opens.
 */

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
] as const;
/** and a phone, where only the page's own sideways scroll is a fault */
const PHONE = { width: 390, height: 844 } as const;

/** What breaks the layout on the page as shown now, one line each (runs in the page). */
function inspectLayout(): string[] {
  const out: string[] = [];
  const text = (el: Element) => (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
  const shown = (el: Element) => el.getClientRects().length > 0;
  const root = document.scrollingElement ?? document.documentElement;
  if (root.scrollWidth > window.innerWidth) {
    out.push(`the page scrolls sideways: ${root.scrollWidth} px wide in ${window.innerWidth}`);
  }
  for (const box of Array.from(
    document.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body'),
  )) {
    if (!shown(box) || box.scrollWidth <= box.clientWidth + 1) continue;
    const heads = Array.from(box.closest('.ant-table')?.querySelectorAll('thead th') ?? []).map(text);
    out.push(
      `a table scrolls sideways (${box.scrollWidth} px in ${box.clientWidth}): ${heads.filter(Boolean).join(' | ')}`,
    );
  }
  // a row of buttons (发票种类 on the issue form) stays one row
  for (const group of Array.from(document.querySelectorAll('.ant-radio-group'))) {
    const buttons = Array.from(group.querySelectorAll(':scope > .ant-radio-button-wrapper')).filter(shown);
    const rows = new Set(buttons.map((b) => Math.round(b.getBoundingClientRect().top)));
    if (rows.size > 1) out.push(`the buttons ${text(group)} wrap onto ${rows.size} rows`);
  }
  // numbers, amounts, dates and times, invoice numbers: digits with their separators
  const NUMERIC = /^[#¥￥+-]?[\d,.:/\s%-]+$/;
  const lines = (node: Node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    const tops = new Set(
      Array.from(range.getClientRects())
        .filter((r) => r.width > 0)
        .map((r) => Math.round(r.top)),
    );
    return tops.size;
  };
  const cells = Array.from(
    document.querySelectorAll<HTMLElement>(
      '.ant-table-thead > tr > .ant-table-cell, .ant-table-tbody > tr:not(.ant-table-measure-row) > .ant-table-cell',
    ),
  );
  for (const cell of cells) {
    if (!shown(cell) || cell.classList.contains('ant-table-selection-column')) continue;
    const head = cell.tagName === 'TH';
    const ellipsis = cell.classList.contains('ant-table-cell-ellipsis');
    const what = `${head ? 'column title' : 'cell'} "${text(cell)}"`;
    if (!ellipsis && cell.scrollWidth > cell.clientWidth + 1) {
      out.push(`${what} overflows its cell (${cell.scrollWidth} px in ${cell.clientWidth})`);
    }
    if (ellipsis && cell.clientWidth < 56 && cell.scrollWidth > cell.clientWidth + 1) {
      out.push(`${what} is squeezed to ${cell.clientWidth} px`);
    }
    for (const el of Array.from(cell.querySelectorAll<HTMLElement>('*'))) {
      if (el.matches('input, textarea, .ant-select-selector, .ant-select-selector *')) continue;
      const style = getComputedStyle(el);
      if (style.overflowX === 'visible' || style.textOverflow === 'ellipsis') continue;
      // text for screen readers only (a 1 px clipped box) is not shown
      if (el.clientWidth <= 1 || style.clip !== 'auto' || style.clipPath !== 'none') continue;
      if (style.webkitLineClamp && style.webkitLineClamp !== 'none') continue;
      if (el.scrollWidth > el.clientWidth + 1 && shown(el)) {
        out.push(`${what}: "${text(el)}" is cut off (${el.scrollWidth} px in ${el.clientWidth})`);
      }
    }
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const t = (node.textContent ?? '').trim();
      if (!t) continue;
      const numeric = NUMERIC.test(t) && (t.match(/\d/g) ?? []).length >= 3;
      const n = lines(node);
      if ((numeric || head) && n > 1) {
        out.push(`${head ? 'column title' : 'number'} "${t.slice(0, 40)}" wraps onto ${n} lines`);
      } else if (n >= 3 && [...t].length / n <= 4) {
        // a column squeezed until its text stands a few characters a line (税务 / UKey / （总 / 部）)
        out.push(`cell text "${t.slice(0, 40)}" is squeezed to ${n} lines of a few characters`);
      }
    }
  }
  return out;
}

/** Requests in flight on a page (the console navigates without loading a document). */
function trackRequests(page: Page) {
  const open = new Set<unknown>();
  page.on('request', (r) => open.add(r));
  page.on('requestfinished', (r) => open.delete(r));
  page.on('requestfailed', (r) => open.delete(r));
  return () => open.size;
}

/** Until no request has been in flight for 300 ms (at most 5 s), nothing spins, and two frames passed. */
async function quiet(page: Page, inFlight: () => number) {
  const until = Date.now() + 5_000;
  let calmSince = Date.now();
  while (Date.now() < until) {
    if (inFlight() > 0) calmSince = Date.now();
    else if (Date.now() - calmSince >= 300) break;
    await page.waitForTimeout(50);
  }
  await expect(page.locator('.ant-spin-spinning:visible, .ant-skeleton-active:visible')).toHaveCount(0);
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(null)))),
  );
}

/** Opens each url in the page the way a menu click does (no reload) and measures it at each size. */
async function walk(page: Page, urls: readonly string[], who: string, found: string[]) {
  const inFlight = trackRequests(page);
  for (const url of urls) {
    await page.evaluate((to) => {
      window.history.pushState(null, '', to);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, url);
    await expect(page).toHaveURL((u) => u.pathname === url);
    await quiet(page, inFlight);
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await quiet(page, inFlight);
      // antd measures ellipsis text and table widths after a resize
      await page.waitForTimeout(150);
      for (const problem of await page.evaluate(inspectLayout)) {
        found.push(`${who} ${url} @${size.width}: ${problem}`);
      }
    }
    // a phone: tables may scroll inside their cards, the page itself never sideways
    await page.setViewportSize(PHONE);
    await quiet(page, inFlight);
    await page.waitForTimeout(150);
    const wide = await page.evaluate(widestOnPhone);
    if (wide) found.push(`${who} ${url} @${PHONE.width}: ${wide}`);
  }
}

/** At a phone's width: what makes the page scroll sideways, or null (runs in the page). */
function widestOnPhone(): string | null {
  const root = document.scrollingElement ?? document.documentElement;
  if (root.scrollWidth <= window.innerWidth) return null;
  // the outermost element that sticks out of the window and is not clipped by a scrolling box (the
  // tabs bar, a table's own scroll): the one to fix
  const clipped = (el: Element) => {
    for (let a = el.parentElement; a; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible') return true;
    }
    return false;
  };
  let worst: Element | null = null;
  for (const el of Array.from(document.querySelectorAll('body *'))) {
    if (el.getBoundingClientRect().right <= window.innerWidth + 1) continue;
    const parent = el.parentElement?.getBoundingClientRect();
    if (parent && parent.right > window.innerWidth + 1) continue;
    if (clipped(el)) continue;
    worst = el;
    break;
  }
  const name = worst ? `${worst.tagName.toLowerCase()}.${String(worst.className).split(' ')[0]}` : '?';
  const text = (worst?.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 30);
  return `the page scrolls sideways: ${root.scrollWidth} px wide in ${window.innerWidth} (${name} "${text}")`;
}

test.describe('layouts hold at 1280, 1440 and 1920, and a phone does not scroll sideways', () => {
  test('the clerk: every permitted route at three sizes and 390 px, and the sidebar a closed drawer at 390 px', async ({
    page,
  }) => {
    test.setTimeout(240_000);
    const menu = menuListOf(page);
    await loginAs(page, CLERK.account);
    const urls = permitted(await menu);
    expect(urls).toContain('/query/invoice');
    // rows to measure: an invoice to a long-named buyer, a batch file with a long name
    await issueLongBuyerInvoice(page);
    await page.goto('/invoice/batch');
    await uploadLongNamedBatch(page);
    const found: string[] = [];
    await walk(page, urls, 'clerk', found);
    expect.soft(found).toEqual([]);

    // the library at 1280: its key columns in view, the long buyer ends in … and shows in full on hover
    await page.setViewportSize(SIZES[0]);
    await page.goto('/query/invoice');
    const buyer = page.locator('.ant-table-row').getByText(LONG_BUYER);
    await expect(buyer).toBeVisible();
    for (const title of ['发票号码', '购买方', '价税合计', '状态', '开票时间']) {
      const box = await page.getByRole('columnheader', { name: title, exact: true }).boundingBox();
      expect(box!.x + box!.width, title).toBeLessThanOrEqual(SIZES[0].width);
    }
    await expect(page.locator('.ant-table-row').getByText('106,000.00')).toBeVisible();
    expect(await buyer.evaluate((el) => el.scrollWidth > el.clientWidth), 'the buyer is shortened').toBe(
      true,
    );
    // in full in the element's title (the browser's tooltip) or in antd's tooltip on hover
    const title = await buyer.evaluate((el) => el.closest('[title]')?.getAttribute('title') ?? null);
    if (title !== LONG_BUYER) {
      await buyer.hover();
      await expect(page.getByRole('tooltip', { name: LONG_BUYER })).toBeVisible();
    }

    // the batch records at 1280: the file name keeps room (was "b…"), 价税合计 on one line
    await page.goto('/invoice/batch');
    const file = page.locator('.ant-table-row td', { hasText: LONG_FILE });
    await expect(file).toHaveAttribute('title', LONG_FILE);
    expect((await file.boundingBox())!.width).toBeGreaterThan(150);
    const amount = page.locator('.ant-table-row td', { hasText: '123,456.78' });
    const lineTops = await amount.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0);
      return new Set(rects.map((r) => Math.round(r.top))).size;
    });
    expect(lineTops, '价税合计 on one line').toBe(1);

    // a phone: no sidebar beside the page; the menu button opens it as a drawer, a pick closes it
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/home/index');
    await expect(page.getByRole('heading', { name: '首页', level: 1 })).toBeVisible();
    await expect(page.getByRole('complementary')).toBeHidden();
    const open = page.getByRole('button', { name: '打开菜单' });
    await expect(open).toBeVisible();
    const heading = await page.getByRole('heading', { name: '首页', level: 1 }).boundingBox();
    expect(heading?.x).toBeLessThan(40);
    // nor does the page scroll sideways (the top bar keeps to the width: 联系我们 is in the help menu)
    const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await sideways()).toBeLessThanOrEqual(0);
    await open.click();
    const drawer = page.getByRole('dialog', { name: '菜单' });
    await expect(drawer).toBeVisible();
    await drawer.getByRole('menuitem', { name: '开票管理' }).click();
    await drawer.getByRole('menuitem', { name: '批量开票' }).click();
    await expect(page).toHaveURL(/\/invoice\/batch$/);
    await expect(drawer).toBeHidden();
    await expect(page.getByRole('heading', { name: '批量开票', level: 1 })).toBeVisible();
    // the batch records scroll inside their card
    await expect(page.locator('.ant-table-row').first()).toBeVisible();
    expect(await sideways()).toBeLessThanOrEqual(0);
    // back to a desktop width: the sidebar is beside the page again
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.getByRole('complementary')).toBeVisible();
    await expect(page.getByRole('button', { name: '打开菜单' })).toBeHidden();
  });

  test('the administrator: every permitted route of a general and a hotel business at three sizes and 390 px', async ({
    page,
  }) => {
    test.setTimeout(360_000);
    await waitForSmsResend(page.request, ADMIN.mobile);
    await submitLogin(page, ADMIN.account);
    await completePhoneVerification(page, ADMIN.mobile);
    await expect(page).toHaveURL(/\/user\/switch-store/);
    const found: string[] = [];
    const seen = new Set<string>();
    for (const scope of ADMIN_SCOPES) {
      await page.setViewportSize(SIZES[1]);
      await page.goto('/user/switch-store?redirect=%2Fhome%2Findex');
      const urls = await enterScope(page, scope, seen);
      await settle(page);
      await walk(page, urls, `admin (${scope.business})`, found);
    }
    expect(found).toEqual([]);
  });
});

test('开票统计: narrowing the window never makes the page scroll sideways while the charts redraw', async ({
  page,
}) => {
  await page.setViewportSize(SIZES[2]);
  await loginAs(page, CLERK.account);
  await page.goto('/query/invoice-stat');
  const trend = page.getByRole('img', { name: /^开票趋势图表/ }).locator('canvas');
  await expect
    .poll(async () => (await trend.boundingBox())?.width ?? 0, { timeout: 15_000 })
    .toBeGreaterThan(SIZES[0].width);
  await page.setViewportSize(SIZES[0]);
  // at once, before the chart has redrawn for the narrower box (it waits 60 ms for the resizes to end)
  const wide = await page.evaluate(() => ({
    page: (document.scrollingElement ?? document.documentElement).scrollWidth,
    window: window.innerWidth,
    canvas: document.querySelector('[role="img"] canvas')?.getBoundingClientRect().width ?? 0,
  }));
  expect(wide.canvas, 'the canvas is still the wide one').toBeGreaterThan(wide.window);
  expect(wide.page, 'the page does not scroll sideways').toBeLessThanOrEqual(wide.window);
  // and the chart then draws for its new box
  await expect
    .poll(async () => (await trend.boundingBox())?.width ?? Number.POSITIVE_INFINITY)
    .toBeLessThan(SIZES[0].width);
});
