import type { APIRequestContext, Page, WebSocket } from '@playwright/test';
import { CLERK, expect, loginAs, screenshot, test } from '../fixtures.ts';

// spec §4 device-authorisation socket in the browser: a {"type":"ping"} every 20 s answered with a
// pong, a new socket 2 s after the server closes one while authorisation is still needed, and the
// bureau's prompt through that new socket. The page's clock is Playwright's, so 20 s take no 20 s.

type Watched = { ws: WebSocket; sent: string[]; received: string[]; closed: boolean };
type CheckTax = {
  check_auth: number;
  devices: Array<{ device_id: number; name: string; need_auth: boolean }>;
};

const PING = '{"type":"ping"}';
const PONG = '{"type":"pong"}';

/** Every /ws/device-auth socket the page opens, with the text frames it sends and receives. */
function watchSockets(page: Page): Watched[] {
  const all: Watched[] = [];
  page.on('websocket', (ws) => {
    if (!ws.url().includes('/ws/device-auth')) return;
    const w: Watched = { ws, sent: [], received: [], closed: false };
    ws.on('framesent', (f) => w.sent.push(String(f.payload)));
    ws.on('framereceived', (f) => w.received.push(String(f.payload)));
    ws.on('close', () => {
      w.closed = true;
    });
    all.push(w);
  });
  return all;
}

async function dev(request: APIRequestContext, action: string, body: Record<string, unknown>) {
  const res = await request.post(`/v3/dev/real-name/${action}`, { data: body });
  const json = (await res.json()) as { code: number; message: string; data: unknown };
  expect(json.code, json.message).toBe(0);
  return json.data;
}

const count = (frames: string[], text: string) => frames.filter((f) => f === text).length;

type SocketTimes = { opened: number[]; closed: number[] };
declare global {
  interface Window {
    __deviceSockets?: SocketTimes;
  }
}

/**
 * Records, in the page's (fake) time, when each socket opened and when the page's own onclose has
 * run: the heartbeat interval starts at open and the reconnect timer in onclose, so the test counts
 * 20 s and 2 s from those moments, not from when Playwright saw the socket created (under load the
 * upgrade can take longer than the whole fake-clock sequence).
 */
async function timeSockets(page: Page) {
  await page.addInitScript(() => {
    const times: SocketTimes = { opened: [], closed: [] };
    window.__deviceSockets = times;
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        this.addEventListener('open', () => {
          times.opened.push(Date.now());
          // added after the page set its onclose, so it runs after it
          this.addEventListener('close', () => times.closed.push(Date.now()));
        });
      }
    };
  });
  return () => page.evaluate(() => window.__deviceSockets ?? { opened: [], closed: [] });
}

test('device-authorisation socket: 20 s heartbeat, reconnect 2 s after a server close, prompt through the new socket', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.clock.install();
  const times = await timeSockets(page);
  const sockets = watchSockets(page);
  const firstCheck = page.waitForResponse((r) => r.url().includes('/v3/equipment/check-tax'));
  await loginAs(page, CLERK.account);
  const checkRes = await firstCheck;
  const clientId = Number(new URL(checkRes.url()).searchParams.get('client_id'));
  const digital = ((await checkRes.json()) as { data: CheckTax }).data.devices.find((d) =>
    d.name.startsWith('数电账户'),
  )!;

  // authorisation needed: the account's bureau session is down, so the device check says check_auth 1
  await dev(page.request, 'logout', { device_id: digital.device_id });
  const checked = page.waitForResponse((r) => r.url().includes('/v3/equipment/check-tax'));
  // (a socket of the page before the reload may have been open: only those after it count)
  const before = sockets.length;
  await page.reload();
  expect(((await (await checked).json()) as { data: CheckTax }).data.check_auth).toBe(1);
  await expect.poll(() => sockets.length).toBe(before + 1);
  sockets.splice(0, before);
  const first = sockets[0]!;

  // heartbeat: nothing before 20 s, one ping at 20 s answered by a pong, the next 20 s later
  // (counted from the socket's open, in the page's time, which pauseAt then stops)
  await expect.poll(async () => (await times()).opened.length).toBe(1);
  const openedAt = (await times()).opened[0]!;
  const pausedAt = (await page.evaluate(() => Date.now())) + 2_000;
  await page.clock.pauseAt(pausedAt);
  await page.clock.runFor(openedAt + 19_000 - pausedAt);
  await page.waitForTimeout(300);
  expect(count(first.sent, PING)).toBe(0);
  await page.clock.runFor(1_000);
  await expect.poll(() => count(first.sent, PING)).toBe(1);
  await expect.poll(() => count(first.received, PONG)).toBe(1);
  await page.clock.runFor(20_000);
  await expect.poll(() => count(first.sent, PING)).toBe(2);
  await expect.poll(() => count(first.received, PONG)).toBe(2);
  expect(first.sent.every((f) => f === PING)).toBe(true);

  // the server closes the socket (still paused): no new one before 2 s, one at 2 s
  const dropped = (await dev(page.request, 'drop-sockets', { client_id: clientId })) as { closed: number };
  expect(dropped.closed).toBeGreaterThanOrEqual(1);
  await expect.poll(() => first.closed).toBe(true);
  // the page's onclose has run and set its 2 s timer (at the paused time)
  await expect.poll(async () => (await times()).closed.length).toBe(1);
  await page.clock.runFor(1_900);
  await page.waitForTimeout(500);
  expect(sockets).toHaveLength(1);
  await page.clock.runFor(200);
  await expect.poll(() => sockets.length).toBe(2);
  const second = sockets[1]!;
  expect(second.ws.url()).toContain(`/ws/device-auth?client_id=${clientId}`);
  await page.clock.resume();

  // the bureau raises an authorisation: it arrives through the new socket and the prompt shows
  await dev(page.request, 'require', { device_id: digital.device_id });
  await expect
    .poll(() => second.received.some((f) => f.includes('"type":"auth"') && f.includes('"auth_status":1')))
    .toBe(true);
  const prompt = page.getByRole('dialog', { name: '认证' });
  await expect(prompt).toBeVisible();
  await expect(prompt.getByTestId('real-name-qr').locator('canvas')).toBeVisible();
  await screenshot(page, 'device-auth-reconnected-prompt');

  // confirmed (2): the prompt closes and, nothing needing authorisation now, the socket closes for good
  await dev(page.request, 'confirm', { device_id: digital.device_id });
  await expect(prompt).toBeHidden();
  await expect.poll(() => second.closed).toBe(true);
  await page.waitForTimeout(3_000);
  expect(sockets).toHaveLength(2);
  // leave the account as the other real-name specs expect it: logged out of the bureau
  await dev(page.request, 'logout', { device_id: digital.device_id });
});
