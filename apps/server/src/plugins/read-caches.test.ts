import { INVOICE_CODE, SESSION_CODE } from '@kaipiao/shared';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { testClock } from '../../test/clock.ts';
import { invoicingFixture, payload } from '../../test/fixtures/invoices.ts';
import { buildTestApp, call, DEMO } from '../../test/helper.ts';
import { realnameSessions, users } from '../db/schema/index.ts';
import { applyAppFilingLocks } from '../modules/devices/filing-locks.ts';
import { INVALIDATE_CHANNEL, SOON_MS } from './invalidation.ts';

/**
 * The first screen's read caches (issue 11 item 6, lib/read-cache.ts): a write that changes an
 * answer is seen by the next read — in the process that wrote at once, in another process on the
 * same database (LISTEN/NOTIFY) well inside the caches' 30–60 s lifetime — and the cache keeps
 * every tenant and store refusal.
 */
const WELL_INSIDE_TTL_MS = 5_000;
const poll = { timeout: WELL_INSIDE_TTL_MS, interval: 50 };

describe('first-screen read caches', () => {
  const clock = testClock();
  let one: Awaited<ReturnType<typeof buildTestApp>>;
  let two: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Awaited<ReturnType<typeof invoicingFixture>>;
  beforeAll(async () => {
    one = await buildTestApp({ clock });
    two = await buildTestApp({ reuse: one });
    f = await invoicingFixture(one.app, one.db);
  });

  type App = typeof one.app;
  const get = async (app: App, path: string, token = f.admin) =>
    (await call(app, 'GET', path, { token })).json;
  const hq = () => f.scope(f.ids.software, f.ids.hq);
  const equipment = async (app: App, deviceId: number, token = f.admin) =>
    (await get(app, `/v3/client-store/get-tax-equipment?${hq()}`, token)).data.find(
      (d: { device_id: number }) => d.device_id === deviceId,
    );
  const checked = async (app: App, deviceId: number, token = f.admin) =>
    (await get(app, `/v3/equipment/check-tax?${hq()}`, token)).data.devices.find(
      (d: { device_id: number }) => d.device_id === deviceId,
    );
  const today = async (app: App) =>
    (await get(app, `/v3/home/invoice-overview?${f.scope(f.ids.software, -1)}`)).data.today;

  it('user/info: closing the tax-rate tip is seen at once, and by the other process', async () => {
    const tips = async (app: App) => (await get(app, '/v3/user/info', f.clerk)).data.tax_rate_change_tips;
    expect(await tips(one.app)).toBe(1);
    expect(await tips(two.app)).toBe(1);
    const closed = await call(one.app, 'POST', '/v3/system/clone-tax-rate-tips', {
      token: f.clerk,
      body: {},
    });
    expect(closed.json.code).toBe(0);
    expect(await tips(one.app)).toBe(0);
    await expect.poll(() => tips(two.app), poll).toBe(0);

    // the answer is served from the cache: a row written by hand stays unseen until it is announced
    const [clerk] = await one.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.account, DEMO.clerk.account));
    await one.db.update(users).set({ taxRateChangeTips: 1 }).where(eq(users.id, clerk!.id));
    expect(await tips(one.app)).toBe(0);
    await two.app.invalidate({ userId: clerk!.id });
    await expect.poll(() => tips(one.app), poll).toBe(1);
    expect(await tips(two.app)).toBe(1);
  });

  it('public-notice: a notice read is gone at once, and from the other process', async () => {
    const notice = async (app: App) => (await get(app, '/v3/system/public-notice', f.clerk)).data;
    const first = await notice(one.app);
    expect(first).toMatchObject({ title: '开票台商户版升级公告' });
    expect(await notice(two.app)).toEqual(first);
    const read = await call(two.app, 'POST', '/v3/system/read-notice', {
      token: f.clerk,
      body: { id: first.id },
    });
    expect(read.json.code).toBe(0);
    expect((await notice(two.app))?.id).not.toBe(first.id);
    await expect.poll(async () => (await notice(one.app))?.id, poll).not.toBe(first.id);
    // another user's notice is their own
    expect((await get(one.app, '/v3/system/public-notice')).data).toEqual(first);
  });

  it('the sandbox control /v3/dev/notice-unread shows the notice again at once, in both processes', async () => {
    const notice = async (app: App) => (await get(app, '/v3/system/public-notice', f.clerk)).data;
    const shown = await notice(one.app);
    if (shown)
      await call(one.app, 'POST', '/v3/system/read-notice', { token: f.clerk, body: { id: shown.id } });
    await expect
      .poll(async () => (await notice(two.app))?.title ?? null, poll)
      .not.toBe('开票台商户版升级公告');
    const again = await call(one.app, 'POST', '/v3/dev/notice-unread', {
      body: { account: DEMO.clerk.account },
    });
    expect(again.json.code).toBe(0);
    expect(await notice(one.app)).toMatchObject({ title: '开票台商户版升级公告' });
    await expect.poll(async () => (await notice(two.app))?.title, poll).toBe('开票台商户版升级公告');
    // an account that does not exist: refused in Chinese, nothing changed
    const unknown = await call(one.app, 'POST', '/v3/dev/notice-unread', {
      body: { account: 'nobody_here' },
    });
    expect(unknown.json.message).toBe('账号不存在');
  });

  it('check-tax and get-tax-equipment: a device going offline is seen at once, and by the other process', async () => {
    const id = f.ids.ukey;
    for (const app of [one.app, two.app]) {
      expect(await checked(app, id)).toMatchObject({ online: true, message: '正常' });
      expect(await equipment(app, id)).toMatchObject({ online: true });
    }
    const off = await f.dev('device', { device_id: id, online: false });
    expect(off.json.code).toBe(0);
    try {
      expect(await checked(one.app, id)).toMatchObject({ online: false, message: '设备离线' });
      expect(await equipment(one.app, id)).toMatchObject({ online: false });
      await expect.poll(async () => (await checked(two.app, id)).message, poll).toBe('设备离线');
      await expect.poll(async () => (await equipment(two.app, id)).online, poll).toBe(false);
    } finally {
      await f.dev('device', { device_id: id, online: true });
    }
    expect(await checked(one.app, id)).toMatchObject({ online: true });
  });

  it('an invoice issued: its quota and the home figures are seen at once, and by the other process', async () => {
    const id = f.ids.digital;
    const quotaInDb = async () =>
      (
        await one.db.execute<{ quota_used: string }>(
          sql`select quota_used::text from tax_devices where id = ${id}`,
        )
      ).rows[0]!.quota_used;
    const before = { equipment: await equipment(one.app, id), today: await today(one.app) };
    expect(await equipment(two.app, id)).toEqual(before.equipment);
    expect(await today(two.app)).toEqual(before.today);

    const issued = await f.issue(payload(id));
    expect(issued.json.data.status).toBe('issued');
    const used = await quotaInDb();
    expect(used).not.toBe(before.equipment.quota_used);
    expect((await equipment(one.app, id)).quota_used).toBe(used);
    expect((await today(one.app)).count).toBe(before.today.count + 1);
    await expect.poll(async () => (await equipment(two.app, id)).quota_used, poll).toBe(used);
    await expect.poll(async () => (await today(two.app)).count, poll).toBe(before.today.count + 1);
  });

  it('what is forgotten "soon" goes to the other processes in one NOTIFY per window, and here at once', async () => {
    const listener = new pg.Client(one.url);
    await listener.connect();
    const heard: Array<{ users?: number[]; clients?: number[] }> = [];
    listener.on('notification', (n) => heard.push(JSON.parse(n.payload ?? '{}')));
    await listener.query(`listen ${INVALIDATE_CHANNEL}`);
    try {
      const id = f.ids.digital;
      const cached = await equipment(one.app, id);
      await one.db.execute(sql`update tax_devices set quota_used = quota_used + 1 where id = ${id}`);
      one.app.invalidateSoon({ clients: [f.ids.software] });
      // this process at once
      expect((await equipment(one.app, id)).quota_used).not.toBe(cached.quota_used);
      one.app.invalidateSoon({ clients: [f.ids.hotel] });
      one.app.invalidateSoon({ users: [7], clients: [f.ids.software] });
      await expect.poll(() => heard.length, poll).toBe(1);
      await new Promise((r) => setTimeout(r, SOON_MS * 4));
      expect(heard).toHaveLength(1);
      expect(heard[0]!.clients?.sort()).toEqual([f.ids.software, f.ids.hotel].sort());
      expect(heard[0]!.users).toEqual([7]);
    } finally {
      await listener.end();
    }
  });

  it('what waits for its window when a process closes is announced before its pool closes', async () => {
    const three = await buildTestApp({ reuse: one });
    const listener = new pg.Client(one.url);
    await listener.connect();
    const heard: Array<{ clients?: number[] }> = [];
    listener.on('notification', (n) => heard.push(JSON.parse(n.payload ?? '{}')));
    await listener.query(`listen ${INVALIDATE_CHANNEL}`);
    try {
      three.app.invalidateSoon({ clients: [f.ids.hotel] });
      // as server.ts shuts down: the app, then its pool
      await three.app.close();
      await three.pool.end();
      await expect.poll(() => heard.length, poll).toBe(1);
      expect(heard[0]!.clients).toEqual([f.ids.hotel]);
    } finally {
      await listener.end();
    }
  });

  it('an invoice issued forgets its business at once here and "soon" elsewhere: no NOTIFY of its own', async () => {
    const soon = vi.spyOn(one.app, 'invalidateSoon');
    const now = vi.spyOn(one.app, 'invalidate');
    try {
      const issued = await f.issue(payload(f.ids.digital));
      expect(issued.json.data.status).toBe('issued');
      await one.app.invoiceHooks.drain();
      expect(soon).toHaveBeenCalledWith({ clients: [f.ids.software] });
      expect(now).not.toHaveBeenCalled();
    } finally {
      soon.mockRestore();
      now.mockRestore();
    }
  });

  it('an invoice issued in the background (no business given: reconciliation) is read back and announced', async () => {
    const id = f.ids.digital;
    const issued = await f.issue(payload(id));
    expect(issued.json.data.status).toBe('issued');
    await one.app.invoiceHooks.drain();
    const cached = await equipment(two.app, id);
    // stands for an issue the process did not see: the row changes, then the hook runs with the id only
    await one.db.execute(sql`update tax_devices set quota_used = quota_used + 1 where id = ${id}`);
    expect(await equipment(two.app, id)).toEqual(cached);
    one.app.invoiceHooks.run(one.app, issued.json.data.invoice_id, { sendEmail: false });
    await one.app.invoiceHooks.drain();
    await expect
      .poll(async () => (await equipment(two.app, id)).quota_used, poll)
      .not.toBe(cached.quota_used);
  });

  it('check-tax: a bureau login that lapses on the app clock needs authorisation again, with no write', async () => {
    const id = f.ids.digital;
    await checked(one.app, id); // the bureau's row exists
    const now = new Date();
    clock.set(now);
    try {
      await one.db
        .update(realnameSessions)
        .set({ loginExpiresAt: new Date(now.getTime() + 3_600_000), authStatus: 2 })
        .where(eq(realnameSessions.deviceId, id));
      await one.app.invalidate({ clients: [f.ids.software] });
      expect(await checked(one.app, id)).toMatchObject({ need_auth: false });
      clock.advance(3_600_000 + 1_000);
      expect(await checked(one.app, id)).toMatchObject({
        need_auth: true,
        message: '税局登录已失效，请重新登录并实名认证',
      });
    } finally {
      clock.release();
    }
  });

  it('get-tax-equipment: a device the filing-lock sweep locks is seen locked by the other process', async () => {
    const id = f.ids.goldenMain;
    expect(await equipment(two.app, id)).toMatchObject({ locked: false });
    // the sweep on the 20th of next month (its clock; the caches' month is still this one)
    const now = new Date();
    const later = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 20, 4));
    try {
      expect(await applyAppFilingLocks(one.app, later, f.ids.software)).toBeGreaterThan(0);
      await expect.poll(async () => (await equipment(two.app, id)).locked, poll).toBe(true);
    } finally {
      await one.db.execute(sql`update tax_devices set locked = false where client_id = ${f.ids.software}`);
      await one.app.invalidate({ clients: [f.ids.software] });
    }
  });

  it('the POSTs that only read (the devices list, the statistics) forget nothing', async () => {
    const id = f.ids.ukey;
    const cached = await equipment(one.app, id);
    const overview = await today(one.app);
    // a row written by hand and not announced: only a forgetting request would let it show
    await one.db.execute(sql`update tax_devices set name = '手写的名称' where id = ${id}`);
    try {
      const list = await call(one.app, 'POST', `/v3/client-store/tax-equipment-list?${hq()}`, {
        token: f.admin,
        body: {},
      });
      expect(list.json.code).toBe(0);
      const day = new Date().toISOString().slice(0, 10);
      const stat = await call(one.app, 'POST', `/v3/invoice-stat/summary?${hq()}`, {
        token: f.admin,
        body: { date_from: day, date_to: day },
      });
      expect(stat.json.code).toBe(0);
      expect(await equipment(one.app, id)).toEqual(cached);
      expect(await today(one.app)).toEqual(overview);
    } finally {
      await one.db.execute(sql`update tax_devices set name = ${cached.name} where id = ${id}`);
    }
  });

  it('keeps every refusal: another business’s store, a store the clerk may not use, her own stores only', async () => {
    // the administrator's answers are cached first, under the same keys where they can be shared
    const bj = `/v3/client-store/get-tax-equipment?${hq()}&store_id=${f.ids.bj}`;
    expect((await get(one.app, bj)).code).toBe(0);
    const foreign = `/v3/client-store/get-tax-equipment?${hq()}&store_id=${f.ids.lj}`;
    for (let i = 0; i < 2; i++) {
      expect((await get(one.app, foreign)).code).toBe(INVOICE_CODE.STORE_NOT_FOUND);
      expect((await get(one.app, foreign, f.clerk)).code).toBe(INVOICE_CODE.STORE_NOT_FOUND);
      expect((await get(one.app, bj, f.clerk)).code).toBe(SESSION_CODE.STORE_NOT_PERMITTED);
    }
    const all = `/v3/equipment/check-tax?${f.scope(f.ids.software, -1)}`;
    const names = async (token: string) =>
      (await get(one.app, all, token)).data.devices.map((d: { name: string }) => d.name);
    const everyDevice = await names(f.admin);
    const hers = await names(f.clerk);
    expect(hers).not.toContain('金税盘（分盘1）'); // bound to 滨江 alone
    expect(everyDevice).toContain('金税盘（分盘1）');
    // another business named in the call: refused before any cache
    const elsewhere = await get(one.app, `/v3/equipment/check-tax?${f.scope(f.ids.hotel, -1)}`, f.clerk);
    expect(elsewhere.code).not.toBe(0);
  });
});
