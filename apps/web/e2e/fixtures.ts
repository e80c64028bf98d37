import fs from 'node:fs/promises';
import path from 'node:path';
import { type APIRequestContext, test as base, expect, type Page } from '@playwright/test';

const ROOT = path.resolve(import.meta.dirname, '../../..');
export const SHOTS_DIR = path.join(ROOT, '.tmp/shots');

/** The demo tenant (README; apps/server/src/db/seed/demo.ts). */
export const PASSWORD = 'Kaipiao@2026';
export const FIXED_CAPTCHA = '1234';
export const SOFTWARE = { name: '杭州云栈软件科技有限公司', taxCode: '91330106MA2KXXXX1A' } as const;
export const HOTEL = { name: '杭州西湖畔酒店管理有限公司', taxCode: '91330102MA2HXXXX2B' } as const;
export const CLERK = {
  account: 'kaipiao_clerk',
  nickname: '开票员小王',
  mobile: '13800000002',
  store: '文三路总部',
} as const;
export const ADMIN = { account: 'kaipiao_admin', nickname: '集团管理员', mobile: '13800000001' } as const;
export type Account = typeof CLERK.account | typeof ADMIN.account;

/** The seeded one-time public notice (spec §2): it opens for whichever test enters the console first. */
export const NOTICE_TITLE = '开票台商户版升级公告';

export const test = base.extend({
  // the server's address is only known once global-setup.ts has started it
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires a destructuring pattern here
  baseURL: async ({}, use) => {
    await use(process.env.KAIPIAO_E2E_URL);
  },
  page: async ({ page }, use) => {
    // whichever test enters the console first meets the notice: close it whenever it is in the
    // way, so that no test depends on the order the tests run in
    const notice = page.getByRole('dialog', { name: NOTICE_TITLE });
    await page.addLocatorHandler(notice, async () => {
      await notice.getByRole('button', { name: '我知道了' }).click();
    });
    await use(page);
  },
});
export { expect };

/** Fills the account form on /user/login (or `path`) and submits it. Two-factor is the caller's business. */
export async function submitLogin(page: Page, account: Account, opts: { path?: string } = {}) {
  await page.goto(opts.path ?? '/user/login');
  await page.getByPlaceholder('账号', { exact: true }).fill(account);
  await page.getByPlaceholder('密码', { exact: true }).fill(PASSWORD);
  await page.getByPlaceholder('验证码', { exact: true }).fill(FIXED_CAPTCHA);
  await page.getByRole('button', { name: '登录', exact: true }).click();
}

/**
 * Logs in through the real login page and waits until the app has left it. kaipiao_admin meets
 * the two-factor dialog in every fresh browser: this completes it with the code from the outbox.
 * A console landing waits for the one-time notice to be dealt with, so pages start settled.
 */
export async function loginAs(page: Page, account: Account, opts: { path?: string } = {}) {
  await submitLogin(page, account, opts);
  if (account === ADMIN.account) await completePhoneVerification(page, ADMIN.mobile);
  await expect(page).not.toHaveURL(/\/user\/login/, { timeout: 15_000 });
  await settle(page);
}

/** Waits for the page's calls to finish and closes the public notice if it opened. */
export async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  const notice = page.getByRole('dialog', { name: NOTICE_TITLE });
  if (await notice.isVisible()) {
    await notice.getByRole('button', { name: '我知道了' }).click();
    await expect(notice).toBeHidden();
  }
}

/** The two-factor dialog (spec §2): picture code, mobile, SMS code read from the sandbox outbox. */
export async function completePhoneVerification(page: Page, mobile: string) {
  const dialog = page.getByRole('dialog', { name: '手机号验证' });
  await expect(dialog).toBeVisible();
  const before = await lastOutboxId(page.request, mobile);
  await dialog.getByPlaceholder('验证码', { exact: true }).fill(FIXED_CAPTCHA);
  await dialog.getByPlaceholder('手机号', { exact: true }).fill(mobile);
  await dialog.getByRole('button', { name: '获取短信验证码' }).click();
  const code = await readSmsCode(page.request, mobile, { after: before });
  await dialog.getByPlaceholder('短信验证码', { exact: true }).fill(code);
  await dialog.getByRole('button', { name: '确定', exact: true }).click();
}

type OutboxItem = { id: number; to: string; code: string | null; content: string; time: string };

async function readOutbox(request: APIRequestContext, mobile: string): Promise<OutboxItem[]> {
  const res = await request.get(`/v3/dev/outbox?to=${encodeURIComponent(mobile)}`);
  expect(res.ok()).toBe(true);
  const body = (await res.json()) as { code: number; data: OutboxItem[] };
  expect(body.code).toBe(0);
  return body.data;
}

/** The newest outbox id for a mobile (0 when none), to wait for a message sent after it. */
export async function lastOutboxId(request: APIRequestContext, mobile: string): Promise<number> {
  return (await readOutbox(request, mobile))[0]?.id ?? 0;
}

/** The newest SMS code sent to `mobile` (GET /v3/dev/outbox?to=…), waiting up to 10 s for one newer than `after`. */
export async function readSmsCode(
  request: APIRequestContext,
  mobile: string,
  opts: { after?: number } = {},
): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const item = (await readOutbox(request, mobile)).find((m) => m.code && m.id > (opts.after ?? 0));
        code = item?.code ?? undefined;
        return code;
      },
      { message: `an SMS code for ${mobile} in the outbox`, timeout: 10_000 },
    )
    .toMatch(/^\d{6}$/);
  return code!;
}

/** A full-page PNG in .tmp/shots/<name>.png, to be looked at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await fs.mkdir(SHOTS_DIR, { recursive: true });
  const file = path.join(SHOTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  return file;
}

/** The top bar's link to store switching, named "<business> / <store>" (spec §2). */
export function scopeLink(page: Page, business: string, store: string) {
  return page.getByRole('link', { name: `${business} / ${store}` });
}

/** Opens the user menu in the top bar (spec §2: Change Password, Log out). */
export async function openUserMenu(page: Page, nickname: string) {
  await page.getByRole('button', { name: nickname }).click();
}
