import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import {
  CLERK,
  expect,
  lastOutboxId,
  loginAs,
  openFromMenu,
  readSmsCode,
  screenshot,
  submitLogin,
  test,
} from '../fixtures.ts';

// spec §2–§4 real-name dialog and device-authorisation socket, against the sandbox bureau.

const ROOT = path.resolve(import.meta.dirname, '../../../..');

type Info = { device_id: number; tax_mobile: string; tax_account: string; auth_way: string };

async function dev(request: APIRequestContext, action: string, body: Record<string, unknown>, base = '') {
  const res = await request.post(`${base}/v3/dev/real-name/${action}`, { data: body });
  const json = (await res.json()) as { code: number; message: string; data: Info };
  expect(json.code, json.message).toBe(0);
  return json.data;
}

/** The single-invoice page with the store's 数电 account, and the real-name dialog opened from its device bar. */
async function openRealName(page: Page): Promise<Info> {
  if (!page.url().endsWith('/invoice/online')) {
    await openFromMenu(page, /\/invoice\/online$/, '单张开票', '开票管理');
  }
  await expect(page.getByText('数电账户（电子发票服务平台）').first()).toBeVisible();
  const answer = page.waitForResponse((r) => r.url().includes('/v3/equipment/get-real-person-auth'));
  await page.getByRole('button', { name: '税局登录/实名认证' }).click();
  return ((await (await answer).json()) as { data: Info }).data;
}

test.describe('real-name authentication (spec §2–§4)', () => {
  test('SMS login: masked phone, code from the outbox, 120 s countdown, then already logged in', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await loginAs(page, CLERK.account);
    const info = await openRealName(page);
    expect(info.auth_way).toBe('1');
    const dialog = page.getByRole('dialog', { name: '登录' });
    await expect(dialog).toBeVisible();
    // the store's 数电 account is logged in by 张丽's 电子税务局 account (the accounts page's row):
    // the dialog names that account, not the device number, and the phone as the accounts page masks it
    expect(info.tax_account).toBe('91330106MA2KC7LM1A-zhangli');
    await expect(dialog.getByText('91330106MA2KC7LM1A-zhangli', { exact: true })).toBeVisible();
    await expect(dialog.getByText('176****2696', { exact: true })).toBeVisible();
    await expect(dialog.getByText('********', { exact: true })).toBeVisible();
    // read-only values are plain text: the SMS code is the one input
    await expect(dialog.getByRole('textbox')).toHaveCount(1);

    // required code
    await dialog.getByRole('button', { name: /^确\s*定$/ }).click();
    await expect(dialog.getByText('必填，请输入短信验证码')).toBeVisible();

    const before = await lastOutboxId(page.request, info.tax_mobile);
    await dialog.getByRole('button', { name: '获取短信验证码' }).click();
    await expect(page.getByText('短信验证码已发送到您的手机，请注意查收')).toBeVisible();
    await expect(dialog.getByRole('button', { name: /1[12]\ds后重试$/ })).toBeDisabled();
    const code = await readSmsCode(page.request, info.tax_mobile, { after: before });
    await dialog.getByPlaceholder('请输入短信验证码').fill(code);
    await screenshot(page, 'real-name-sms');
    await dialog.getByRole('button', { name: /^确\s*定$/ }).click();
    await expect(page.getByText('登录成功')).toBeVisible();
    await expect(dialog).toBeHidden();

    // logged in: sending again only says so, with no countdown
    await openRealName(page);
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: '获取短信验证码' }).click();
    await expect(page.getByText('已登录，无需重复登录')).toBeVisible();
    await expect(dialog.getByRole('button', { name: '获取短信验证码' })).toBeEnabled();
    await dialog.getByRole('button', { name: /^取\s*消$/ }).click();
    await expect(dialog).toBeHidden();
  });

  test('QR login: the QR requested on open, download name, confirmed through the sandbox control', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await loginAs(page, CLERK.account);
    await openFromMenu(page, /\/invoice\/online$/, '单张开票', '开票管理');
    await expect(page.getByText('数电账户（电子发票服务平台）').first()).toBeVisible();
    // this account logs in by QR (auth_way "2"), and its bureau session is down
    const first = await openRealName(page);
    await page.getByRole('dialog', { name: '登录' }).getByRole('button', { name: 'Close' }).click();
    await dev(page.request, 'configure', { device_id: first.device_id, auth_way: '2' });
    await dev(page.request, 'logout', { device_id: first.device_id });
    const qrAnswer = page.waitForResponse((r) => r.url().includes('/v3/equipment/jc-get-qr-code'));
    const info = await openRealName(page);
    expect(info.auth_way).toBe('2');
    await qrAnswer;
    const dialog = page.getByRole('dialog', { name: '认证' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('实人账号：张丽')).toBeVisible(); // the bound account's person
    await expect(dialog.getByText('请使用税务APP扫描二维码进行实名认证')).toBeVisible();
    const canvas = dialog.getByTestId('real-name-qr').locator('canvas');
    // spec §9: QR 250 px (the canvas is drawn at the device pixel ratio, 1 here)
    await expect(canvas).toHaveAttribute('width', '250');
    await screenshot(page, 'real-name-qr');

    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: '下载二维码' }).click();
    expect((await download).suggestedFilename()).toBe('实名认证二维码.png');

    // the person scans and confirms in the app: the dialog sees it on its next poll and closes
    await dev(page.request, 'confirm', { device_id: info.device_id });
    await expect(page.getByText('实名认证成功')).toBeVisible({ timeout: 10_000 });
    await expect(dialog).toBeHidden();
    await dev(page.request, 'configure', { device_id: info.device_id, auth_way: '1' });
  });

  test.describe('device-authorisation socket on two server processes', () => {
    let second: ChildProcess | null = null;
    let secondUrl = '';

    test.beforeAll(async () => {
      test.setTimeout(180_000);
      const databaseUrl = process.env.KAIPIAO_E2E_DATABASE_URL;
      if (!databaseUrl) throw new Error('global-setup did not publish KAIPIAO_E2E_DATABASE_URL');
      const port = await new Promise<number>((resolve) => {
        const srv = net.createServer().listen(0, '127.0.0.1', () => {
          const p = (srv.address() as net.AddressInfo).port;
          srv.close(() => resolve(p));
        });
      });
      const dataDir = path.join(ROOT, '.tmp', `e2e-second-${port}`);
      await fs.mkdir(dataDir, { recursive: true });
      const log = createWriteStream(path.join(dataDir, 'server.log'));
      // a second process on the same database (web role), as a load balancer would have
      second = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['apps/server/src/server.ts'], {
        cwd: ROOT,
        env: {
          ...process.env,
          NODE_ENV: 'test',
          PORT: String(port),
          HOST: '127.0.0.1',
          DATABASE_URL: databaseUrl,
          KAIPIAO_ROLE: 'web',
          KAIPIAO_DATA_DIR: dataDir,
          KAIPIAO_FIXED_CAPTCHA: '1234',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      second.stdout?.pipe(log);
      second.stderr?.pipe(log);
      secondUrl = `http://127.0.0.1:${port}`;
      await expect
        .poll(
          async () => {
            if (second?.exitCode !== null) throw new Error(`the second server exited (${second?.exitCode})`);
            return fetch(`${secondUrl}/v3/user/picture-code`)
              .then((r) => r.ok)
              .catch(() => false);
          },
          { timeout: 150_000, intervals: [500] },
        )
        .toBe(true);
    });

    test.afterAll(async () => {
      if (!second || second.exitCode !== null) return;
      const done = new Promise((r) => second?.once('exit', r));
      second.kill('SIGINT');
      const timer = setTimeout(() => second?.kill('SIGKILL'), 20_000);
      await done;
      clearTimeout(timer);
    });

    /** A clerk's console on `base`, with its device-authorisation socket open. */
    async function consoleOn(browser: Browser, base: string): Promise<Page> {
      const context = await browser.newContext({
        baseURL: base,
        locale: 'zh-CN',
        timezoneId: 'Asia/Shanghai',
      });
      const page = await context.newPage();
      const socket = page.waitForEvent('websocket', {
        predicate: (ws) => ws.url().includes('/ws/device-auth'),
        timeout: 30_000,
      });
      // loginAs() settles pages of the test fixture only: the notice of this new context is closed here
      const notice = page.waitForResponse((r) => r.url().includes('/v3/system/public-notice'), {
        timeout: 30_000,
      });
      await submitLogin(page, CLERK.account);
      const body = (await (await notice).json()) as { data: { title: string } | null };
      if (body.data) {
        const dialog = page.getByRole('dialog', { name: body.data.title });
        await dialog.getByRole('button', { name: '我知道了' }).click();
        await expect(dialog).toBeHidden();
      }
      const ws = await socket;
      expect(ws.url()).toContain(base.replace('http', 'ws'));
      return page;
    }

    test('a prompt raised through one process shows on both; 4 and 3 change it; 2 closes it', async ({
      page,
      browser,
      baseURL,
    }) => {
      test.setTimeout(150_000);
      await loginAs(page, CLERK.account);
      const info = await openRealName(page);
      await page.getByRole('dialog', { name: '登录' }).getByRole('button', { name: 'Close' }).click();
      // the socket is open while the device check says authorisation is needed (spec §4): the
      // earlier tests left the account logged in, so its bureau session ends first
      await dev(page.request, 'logout', { device_id: info.device_id });
      await page.reload();
      await expect(page.getByText('数电账户（电子发票服务平台）').first()).toBeVisible();
      const onFirst = page;
      const onSecond = await consoleOn(browser, secondUrl);

      // the bureau asks for authorisation, told to the first process
      await dev(onFirst.request, 'require', { device_id: info.device_id }, baseURL);
      for (const p of [onSecond, onFirst]) {
        const prompt = p.getByRole('dialog', { name: '认证' });
        await expect(prompt).toBeVisible();
        await expect(prompt.getByText('实人账号：张丽')).toBeVisible();
        await expect(prompt.getByTestId('real-name-qr').locator('canvas')).toBeVisible();
      }
      await screenshot(onSecond, 'real-name-prompt');

      // 4 through the second process: both prompts ask to log in to the app again
      await dev(onSecond.request, 'app-relogin', { device_id: info.device_id }, secondUrl);
      await expect(onFirst.getByText('请重新登录APP后再进行操作')).toBeVisible();
      await expect(onSecond.getByText('请重新登录APP后再进行操作')).toBeVisible();

      // a fresh QR, then it lapses: the expired picture, click to refresh
      await dev(onFirst.request, 'require', { device_id: info.device_id }, baseURL);
      await expect(onSecond.getByText('请重新登录APP后再进行操作')).toBeHidden();
      await dev(onFirst.request, 'expire', { device_id: info.device_id }, baseURL);
      await expect(onSecond.getByText('二维码已过期，点击刷新')).toBeVisible();

      // 1 again, then the person confirms (through the first process): both prompts close
      await dev(onFirst.request, 'require', { device_id: info.device_id }, baseURL);
      await expect(onSecond.getByText('二维码已过期，点击刷新')).toBeHidden();
      await dev(onFirst.request, 'confirm', { device_id: info.device_id }, baseURL);
      await expect(onSecond.getByRole('dialog', { name: '认证' })).toBeHidden();
      await expect(onFirst.getByRole('dialog', { name: '认证' })).toBeHidden();
      await onSecond.context().close();
    });
  });
});
