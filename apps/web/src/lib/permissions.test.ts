import type { MenuEntry } from '@kaipiao/shared';
import { describe, expect, it } from 'vitest';
import {
  buildAccess,
  disabledPrompt,
  type GuardedRoute,
  isEntryVisible,
  routeAccess,
} from './permissions.ts';

const entry = (url: string, flags: Partial<MenuEntry> = {}): MenuEntry => ({
  url,
  is_auth: 1,
  is_gray: 0,
  is_need_pay: 0,
  is_new_client: 0,
  is_gray_from_bookkeeping: 0,
  ...flags,
});

const routes: GuardedRoute[] = [
  { path: '/home/index', permission: '/home/index', area: 'main' },
  { path: '/invoice/online', permission: '/invoice/online', area: 'main' },
  { path: '/invoice/batch', permission: '/invoice/batch', area: 'main' },
  { path: '/red-info/modify', permission: '/red-info/modify', area: 'main', hidden: true },
  { path: '/group/employee', permission: '/group/employee', area: 'group' },
  { path: '/group/authority/add-rule', permission: '/group/authority/add-rule', area: 'group', hidden: true },
  { path: '/help', area: 'main' },
];

describe('isEntryVisible', () => {
  it('keeps an entry unless is_auth and is_gray are both 0', () => {
    expect(isEntryVisible(entry('/a'))).toBe(true);
    expect(isEntryVisible(entry('/a', { is_auth: 0, is_gray: 1 }))).toBe(true);
    expect(isEntryVisible(entry('/a', { is_auth: 0, is_gray: 0 }))).toBe(false);
  });
});

describe('routeAccess', () => {
  const byUrl = (...entries: MenuEntry[]) => new Map(entries.map((e) => [e.url, e]));
  const online = routes[1];

  it('keeps routes without a permission url (public)', () => {
    expect(routeAccess(routes[6], byUrl()).visible).toBe(true);
  });

  it('drops a route the menu list does not name', () => {
    expect(routeAccess(online, byUrl()).visible).toBe(false);
  });

  it('disables a gray route that is not authorised with the gray prompt', () => {
    const access = routeAccess(online, byUrl(entry(online.path, { is_auth: 0, is_gray: 1 })));
    expect(access).toEqual({
      visible: true,
      disabled: true,
      prompt: '该功能暂未对您开放，请联系客服开通',
      vip: true,
    });
  });

  it('uses the bookkeeping prompt when the gray comes from an expired bookkeeping service', () => {
    const access = routeAccess(
      online,
      byUrl(entry(online.path, { is_auth: 0, is_gray: 1, is_gray_from_bookkeeping: 1 })),
    );
    expect(access.disabled).toBe(true);
    expect(access.prompt).toContain('记账服务已到期');
  });

  it('uses the new-client and need-pay prompts when flagged', () => {
    const fresh = routeAccess(
      online,
      byUrl(entry(online.path, { is_auth: 0, is_gray: 1, is_new_client: 1 })),
    );
    expect(fresh.prompt).toBe('您当前尚未订购套餐，请先订购后再开票');
    const paid = routeAccess(online, byUrl(entry(online.path, { is_auth: 0, is_gray: 1, is_need_pay: 1 })));
    expect(paid.prompt).toBe('该功能为付费功能，请升级套餐后使用');
  });

  it('keeps an authorised gray route enabled with the VIP sign', () => {
    const access = routeAccess(online, byUrl(entry(online.path, { is_gray: 1 })));
    expect(access).toMatchObject({ visible: true, disabled: false, vip: true });
  });

  it('keeps an authorised route that is neither gray nor paid enabled, without a prompt or the VIP sign', () => {
    const access = routeAccess(online, byUrl(entry(online.path)));
    expect(access).toEqual({ visible: true, disabled: false, prompt: undefined, vip: false });
  });

  it('shows the VIP sign on paid routes', () => {
    expect(routeAccess(online, byUrl(entry(online.path, { is_need_pay: 1 }))).vip).toBe(true);
  });
});

describe('disabledPrompt', () => {
  it.each<[string, Partial<MenuEntry>, string | undefined]>([
    ['authorised, not gray', {}, undefined],
    ['authorised and gray', { is_gray: 1 }, undefined],
    ['neither authorised nor gray', { is_auth: 0 }, undefined],
    [
      'neither authorised nor gray, though flagged',
      { is_auth: 0, is_need_pay: 1, is_new_client: 1 },
      undefined,
    ],
    ['gray, not authorised', { is_auth: 0, is_gray: 1 }, '该功能暂未对您开放，请联系客服开通'],
    [
      'every flag: the expired bookkeeping comes first',
      { is_auth: 0, is_gray: 1, is_gray_from_bookkeeping: 1, is_new_client: 1, is_need_pay: 1 },
      '您的记账服务已到期，批量开票和扫码开票已暂停，恢复服务后即可继续使用',
    ],
    [
      'a new client who must also pay: the new client comes first',
      { is_auth: 0, is_gray: 1, is_new_client: 1, is_need_pay: 1 },
      '您当前尚未订购套餐，请先订购后再开票',
    ],
  ])('%s', (_case, flags, prompt) => {
    expect(disabledPrompt(entry('/a', flags))).toBe(prompt);
  });
});

describe('buildAccess', () => {
  it('picks the first permitted, enabled, visible main route', () => {
    const access = buildAccess(routes, [
      entry('/home/index', { is_auth: 0, is_gray: 0 }),
      entry('/invoice/online', { is_auth: 0, is_gray: 1 }),
      entry('/invoice/batch'),
    ]);
    expect(access.firstPath).toBe('/invoice/batch');
    expect(access.of('/home/index').visible).toBe(false);
  });

  it('has no first path when nothing is permitted', () => {
    expect(buildAccess(routes, []).firstPath).toBeNull();
  });

  it('never picks a group route, a hidden route or a public route as the first path', () => {
    const groupFirst: GuardedRoute[] = [
      { path: '/group/employee', permission: '/group/employee', area: 'group' },
      { path: '/help', area: 'main' },
      { path: '/red-info/modify', permission: '/red-info/modify', area: 'main', hidden: true },
      { path: '/invoice/online', permission: '/invoice/online', area: 'main' },
    ];
    const only = (...urls: string[]) =>
      buildAccess(
        groupFirst,
        urls.map((u) => entry(u)),
      ).firstPath;
    expect(only('/group/employee', '/red-info/modify')).toBeNull();
    expect(only('/group/employee', '/red-info/modify', '/invoice/online')).toBe('/invoice/online');
  });

  it('answers every route by its path, and a path it does not know as public', () => {
    const access = buildAccess(routes, [entry('/invoice/online', { is_auth: 0, is_gray: 1 })]);
    expect(access.of('/invoice/online')).toMatchObject({ visible: true, disabled: true, vip: true });
    expect(access.of('/invoice/batch')).toEqual({ visible: false, disabled: false, vip: false });
    expect(access.of('/help')).toEqual({ visible: true, disabled: false, vip: false });
    expect(access.of('/not/a/route')).toEqual({ visible: true, disabled: false, vip: false });
  });

  it('grants group auth only when a non-hidden group route is visible', () => {
    expect(buildAccess(routes, [entry('/group/employee')]).groupAuth).toBe(true);
    expect(buildAccess(routes, [entry('/group/authority/add-rule')]).groupAuth).toBe(false);
    expect(buildAccess(routes, [entry('/group/employee', { is_auth: 0, is_gray: 0 })]).groupAuth).toBe(false);
  });
});
