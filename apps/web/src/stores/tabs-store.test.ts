import { beforeEach, describe, expect, it } from 'vitest';
import { addTab, removeTab, useTabsStore } from './tabs-store.ts';

const home = { path: '/home/index', name: '首页' };
const online = { path: '/invoice/online', name: '单张开票' };
const title = { path: '/device-project/title', name: '购方抬头' };

describe('addTab', () => {
  it('appends a new path and keeps one tab per path', () => {
    const tabs = addTab(addTab([home], online), online);
    expect(tabs).toEqual([home, online]);
  });

  it('renames the tab in place when the same path comes with a new title', () => {
    expect(addTab([home, online], { path: '/home/index', name: '主页' })[0].name).toBe('主页');
  });
});

describe('removeTab', () => {
  it('goes to the right neighbour when the active tab closes', () => {
    expect(removeTab([home, online, title], online.path, online.path)).toEqual({
      tabs: [home, title],
      next: title.path,
    });
  });

  it('goes to the left neighbour when the last active tab closes', () => {
    expect(removeTab([home, online], online.path, online.path).next).toBe(home.path);
  });

  it('stays put when an inactive tab closes', () => {
    expect(removeTab([home, online], home.path, online.path)).toEqual({ tabs: [online], next: null });
  });

  it('returns no next path when the only tab closes', () => {
    expect(removeTab([home], home.path, home.path)).toEqual({ tabs: [], next: null });
  });
});

describe('useTabsStore', () => {
  beforeEach(() => useTabsStore.getState().clear());

  it('opens, closes and persists tabs in sessionStorage', () => {
    const { open, close } = useTabsStore.getState();
    open(home);
    open(online);
    open(title);
    expect(close(title.path, title.path)).toBe(online.path);
    expect(useTabsStore.getState().tabs).toEqual([home, online]);
    expect(JSON.parse(sessionStorage.getItem('kp_tabs') ?? '{}').state.tabs).toEqual([home, online]);
  });

  it('keeps only the given tab on closeOthers', () => {
    const { open, closeOthers } = useTabsStore.getState();
    open(home);
    open(online);
    closeOthers(online.path);
    expect(useTabsStore.getState().tabs).toEqual([online]);
  });
});
