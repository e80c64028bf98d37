import { CODE } from '@kaipiao/shared';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, call, DEMO, login } from '../../../test/helper.ts';
import { authorityRules, clientStores, clients, orgs } from '../../db/schema/index.ts';

/**
 * A grey menu entry is a closed API (issue 22): for every reason computeMenu greys an entry — the
 * package does not cover it, the package has expired, the org has no package yet, the bookkeeping
 * service has expired, the feature is still in gray release, the business has no white-listed tax
 * account, the employee's rule lacks it — the calls behind that entry are refused with 403, and
 * they answer again once the reason is gone. Each change is read after the access cache's window
 * (forgetAll stands for the 15 s passing).
 */

let t: Awaited<ReturnType<typeof buildTestApp>>;
let admin: string;
let clerk: string;
let orgId: number;
let software: number;
let hq: number;
let original: typeof orgs.$inferSelect;

const FORBIDDEN = { code: CODE.FORBIDDEN, message: '您没有该功能的权限', data: null };

beforeAll(async () => {
  t = await buildTestApp();
  admin = await login(t.app, DEMO.admin.account);
  clerk = await login(t.app, DEMO.clerk.account);
  const [c] = await t.db.select().from(clients).where(eq(clients.taxCode, DEMO.software.taxCode));
  software = c!.id;
  orgId = c!.orgId;
  hq = (await t.db.select().from(clientStores).where(eq(clientStores.code, 'HQ')))[0]!.id;
  original = (await t.db.select().from(orgs).where(eq(orgs.id, orgId)))[0]!;
});

/** Changes the org, and lets the access cache's window pass. */
async function org(set: Partial<typeof orgs.$inferInsert>) {
  await t.db.update(orgs).set(set).where(eq(orgs.id, orgId));
  t.app.accessService.forgetAll();
}
async function restoreOrg() {
  const { id: _id, createdAt: _c, ...rest } = original;
  await org(rest);
}

const q = (sid = -1) => `client_id=${software}&sid=${sid}`;
const entry = async (url: string, token = admin) => {
  const res = await call(t.app, 'GET', `/v3/authority/menu-list?${q()}`, { token });
  expect(res.json.code).toBe(0);
  return res.json.data.list.find((e: { url: string }) => e.url === url);
};

/** One read behind each entry the tests grey (a refusal cannot hide a change). */
const PROBE = {
  /** pro, invoicing: 开票审核 */
  audit: () => `/v3/scan-audit/list?${q()}`,
  /** base, invoicing: 单张开票 */
  online: () => `/v3/invoice-record/specific-business?${q()}`,
  /** base, not invoicing: 发票明细 (POST with an empty page) */
  library: () => `/v3/invoice-record/list?${q()}`,
  /** pro, invoicing, paused with bookkeeping: 扫码开票 (a specific store) */
  qrcode: () => `/v3/scan-code/list?${q(hq)}`,
  /** pro, gray release: 托管开票 */
  trusteeship: () => `/v3/trusteeship/list?${q()}`,
  /** white-listed tax account only: 税局账号 */
  account: () => `/v3/tax-account/list?${q()}`,
  /** not in the clerk's rule: 门店管理 */
  stores: () => `/v3/client/client-store-list?${q()}`,
  /** the batch page checks its entry itself: grey for bookkeeping alone still lists (spec §1) */
  batches: () => `/v3/batch-invoice/list?${q()}`,
};
const get = async (path: string, token = admin) =>
  path.includes('/invoice-record/list')
    ? (await call(t.app, 'POST', path, { token, body: { page: 1, page_size: 10 } })).json
    : (await call(t.app, 'GET', path, { token })).json;

describe('the API behind a grey menu entry is refused (403) for every grey cause, and answers once lifted', () => {
  it('not paid for: the basic package greys the pro entries (need pay) and closes their calls', async () => {
    expect((await get(PROBE.audit())).code).toBe(0);
    await org({ packageCode: 'basic' });
    try {
      expect(await entry('/invoice/audit')).toMatchObject({ is_auth: 0, is_gray: 1, is_need_pay: 1 });
      expect(await get(PROBE.audit())).toEqual(FORBIDDEN);
      expect(await get(PROBE.batches())).toEqual(FORBIDDEN);
      // what the basic package covers stays open
      expect(await entry('/invoice/online')).toMatchObject({ is_auth: 1, is_gray: 0 });
      expect((await get(PROBE.online())).code).toBe(0);
    } finally {
      await restoreOrg();
    }
    expect((await get(PROBE.audit())).code).toBe(0);
    expect((await get(PROBE.batches())).code).toBe(0);
  });

  it('package expired: invoicing and pro entries need pay and their calls close; the library stays open', async () => {
    await org({ packageExpiresAt: new Date(Date.now() - 1000) });
    try {
      expect(await entry('/invoice/online')).toMatchObject({ is_auth: 0, is_gray: 1, is_need_pay: 1 });
      expect(await get(PROBE.online())).toEqual(FORBIDDEN);
      expect(await get(PROBE.audit())).toEqual(FORBIDDEN);
      expect(await entry('/query/invoice')).toMatchObject({ is_auth: 1, is_gray: 0 });
      expect((await get(PROBE.library())).code).toBe(0);
    } finally {
      await restoreOrg();
    }
    expect((await get(PROBE.online())).code).toBe(0);
  });

  it('package and bookkeeping expiry: open one second before, closed one second after', async () => {
    const end = Date.now() + 60_000;
    await org({ packageExpiresAt: new Date(end), bookkeepingExpiresAt: new Date(end) });
    const at = (ms: number) => {
      vi.setSystemTime(ms);
      t.app.accessService.forgetAll();
    };
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      at(end - 1000);
      expect((await get(PROBE.online())).code).toBe(0);
      expect((await get(PROBE.qrcode())).code).toBe(0);
      at(end + 1000);
      expect(await get(PROBE.online())).toEqual(FORBIDDEN);
      expect(await get(PROBE.qrcode())).toEqual(FORBIDDEN);
    } finally {
      vi.useRealTimers();
      await restoreOrg();
    }
  });

  it('package and bookkeeping expiry: closed at exactly the end time', async () => {
    const end = Date.now() + 60_000;
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      await org({ packageExpiresAt: new Date(end), bookkeepingExpiresAt: null });
      vi.setSystemTime(end);
      expect(await entry('/invoice/online')).toMatchObject({ is_auth: 0, is_gray: 1, is_need_pay: 1 });
      expect(await get(PROBE.online())).toEqual(FORBIDDEN);
      await org({ packageExpiresAt: null, bookkeepingExpiresAt: new Date(end) });
      expect(await entry('/invoice/qrcode')).toMatchObject({ is_auth: 0, is_gray_from_bookkeeping: 1 });
      expect(await get(PROBE.qrcode())).toEqual(FORBIDDEN);
      expect((await get(PROBE.online())).code).toBe(0);
    } finally {
      vi.useRealTimers();
      await restoreOrg();
    }
  });

  it('a paid package and a bookkeeping service without an end date keep everything open', async () => {
    await org({ packageExpiresAt: null, bookkeepingExpiresAt: null });
    try {
      for (const probe of [PROBE.online(), PROBE.audit(), PROBE.qrcode(), PROBE.library()]) {
        expect((await get(probe)).code).toBe(0);
      }
    } finally {
      await restoreOrg();
    }
  });

  it('no package yet (new client): issuing entries are new-client grey and closed; looking back is open', async () => {
    await org({ packageCode: 'none', packageExpiresAt: null });
    try {
      expect(await entry('/invoice/online')).toMatchObject({ is_auth: 0, is_gray: 1, is_new_client: 1 });
      expect(await get(PROBE.online())).toEqual(FORBIDDEN);
      // a pro entry that issues nothing needs paying for, as on the basic package
      expect(await entry('/payment/record')).toMatchObject({
        is_auth: 0,
        is_gray: 1,
        is_need_pay: 1,
        is_new_client: 0,
      });
      expect(await get(PROBE.audit())).toEqual(FORBIDDEN);
      expect((await get(PROBE.library())).code).toBe(0);
    } finally {
      await restoreOrg();
    }
    expect((await get(PROBE.online())).code).toBe(0);
  });

  it('bookkeeping expired: scan-to-invoice is grey and closed, single issuing stays open, batches still list', async () => {
    expect((await get(PROBE.qrcode())).code).toBe(0);
    await org({ bookkeepingExpiresAt: new Date(Date.now() - 1000) });
    try {
      expect(await entry('/invoice/qrcode')).toMatchObject({
        is_auth: 0,
        is_gray: 1,
        is_gray_from_bookkeeping: 1,
        is_need_pay: 0,
      });
      expect(await get(PROBE.qrcode())).toEqual(FORBIDDEN);
      expect((await get(PROBE.online())).code).toBe(0);
      // the batch page shows the batches it paused and why (architecture.md: batch issuing)
      expect((await get(PROBE.batches())).code).toBe(0);
    } finally {
      await restoreOrg();
    }
    expect((await get(PROBE.qrcode())).code).toBe(0);
  });

  it('bookkeeping expired and not paid for: the batch page is closed too', async () => {
    await org({ bookkeepingExpiresAt: new Date(Date.now() - 1000), packageCode: 'basic' });
    try {
      expect(await get(PROBE.batches())).toEqual(FORBIDDEN);
    } finally {
      await restoreOrg();
    }
  });

  it('gray release: trusteeship is closed until the org is listed for it', async () => {
    await org({ grayFeatures: original.grayFeatures.filter((u) => u !== '/invoice/trusteeship') });
    try {
      expect(await entry('/invoice/trusteeship')).toMatchObject({ is_auth: 0, is_gray: 1, is_need_pay: 0 });
      expect(await get(PROBE.trusteeship())).toEqual(FORBIDDEN);
    } finally {
      await restoreOrg();
    }
    expect(original.grayFeatures).toContain('/invoice/trusteeship');
    expect((await get(PROBE.trusteeship())).code).toBe(0);
  });

  it('no white-listed tax account: the tax-account page is gone from the menu and its calls are closed', async () => {
    const white = async (v: boolean) => {
      await t.db.update(clients).set({ hasWhiteListedTaxAccount: v }).where(eq(clients.id, software));
      t.app.accessService.forgetAll();
    };
    await white(false);
    try {
      expect(await entry('/device-project/account')).toBeUndefined();
      expect(await get(PROBE.account())).toEqual(FORBIDDEN);
    } finally {
      await white(true);
    }
    expect((await get(PROBE.account())).code).toBe(0);
  });

  it("not in the employee's rule: closed to the clerk; granted, it answers; taken back, it closes again", async () => {
    const rule = async (change: 'add' | 'remove', url: string) => {
      const op =
        change === 'add'
          ? sql`array_append(${authorityRules.urls}, ${url})`
          : sql`array_remove(${authorityRules.urls}, ${url})`;
      await t.db.update(authorityRules).set({ urls: op }).where(eq(authorityRules.orgId, orgId));
      t.app.accessService.forgetAll();
    };
    expect(await entry('/group/client-store', clerk)).toBeUndefined();
    expect(await get(PROBE.stores(), clerk)).toEqual(FORBIDDEN);
    // the administrator, whose rule is every url, has it
    expect((await get(PROBE.stores())).code).toBe(0);
    await rule('add', '/group/client-store');
    try {
      expect(await entry('/group/client-store', clerk)).toMatchObject({ is_auth: 1, is_gray: 0 });
      expect((await get(PROBE.stores(), clerk)).code).toBe(0);
    } finally {
      await rule('remove', '/group/client-store');
    }
    expect(await get(PROBE.stores(), clerk)).toEqual(FORBIDDEN);
  });

  it('a grey entry the rule grants stays closed to the clerk as well (grey beats granted)', async () => {
    await org({ packageCode: 'basic' });
    try {
      expect(await entry('/invoice/audit', clerk)).toMatchObject({ is_auth: 0, is_gray: 1 });
      expect(await get(PROBE.audit(), clerk)).toEqual(FORBIDDEN);
    } finally {
      await restoreOrg();
    }
    expect((await get(PROBE.audit(), clerk)).code).toBe(0);
  });
});
