import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTabsStore } from '../../stores/tabs-store.ts';
import { PageTabs } from './page-tabs.tsx';

/** the tabs as the console shell renders them: the active one is the location's */
function AtLocation() {
  return <PageTabs activePath={useLocation().pathname} />;
}

function renderAt(path: string) {
  const router = createMemoryRouter([{ path: '*', element: <AtLocation /> }], {
    initialEntries: [path],
  });
  render(<RouterProvider router={router} />);
  return router;
}

describe('PageTabs', () => {
  beforeEach(() => {
    useTabsStore.getState().clear();
    useTabsStore.getState().open({ path: '/home/index', name: '首页' });
    useTabsStore.getState().open({ path: '/invoice/online', name: '单张开票' });
  });

  it('shows one tab per visited page, the current one selected', () => {
    renderAt('/invoice/online');
    expect(screen.getAllByRole('link').map((t) => t.textContent)).toEqual(['首页', '单张开票']);
    expect(screen.getByRole('link', { name: '单张开票' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: '首页' }).getAttribute('aria-current')).toBeNull();
  });

  it('goes to the neighbour when the active tab is closed', async () => {
    const router = renderAt('/invoice/online');
    await userEvent.click(screen.getByRole('button', { name: '关闭单张开票' }));
    expect(useTabsStore.getState().tabs.map((t) => t.path)).toEqual(['/home/index']);
    expect(router.state.location.pathname).toBe('/home/index');
  });

  it('navigates when a tab is clicked', async () => {
    const router = renderAt('/invoice/online');
    await act(() => userEvent.click(screen.getByRole('link', { name: '首页' })));
    expect(router.state.location.pathname).toBe('/home/index');
  });

  describe('more tabs than fit', () => {
    const rect = (left: number, width: number) =>
      ({ left, right: left + width, top: 0, bottom: 30, width, height: 30, x: left, y: 0 }) as DOMRect;
    afterEach(() => {
      vi.restoreAllMocks();
    });

    /** the strip shows x 0–300 of its content; each tab is 100 wide, laid out from its scroll position */
    function layout(strip: HTMLElement) {
      const tabs = [...strip.children] as HTMLElement[];
      Object.defineProperty(strip, 'clientWidth', { configurable: true, value: 300 });
      Object.defineProperty(strip, 'scrollWidth', { configurable: true, value: tabs.length * 100 });
      vi.spyOn(strip, 'getBoundingClientRect').mockReturnValue(rect(0, 300));
      tabs.forEach((tab, i) => {
        vi.spyOn(tab, 'getBoundingClientRect').mockImplementation(() =>
          rect(i * 100 - strip.scrollLeft, 100),
        );
      });
    }

    beforeEach(() => {
      for (const [path, name] of [
        ['/invoice/batch', '批量开票'],
        ['/query/invoice', '发票明细'],
        ['/query/invoice-stat', '开票统计'],
        ['/system/settings', '系统设置'],
      ])
        useTabsStore.getState().open({ path, name });
    });

    it('scrolls the active tab into view when it changes, the strip only', async () => {
      const router = renderAt('/home/index');
      const strip = screen.getByRole('navigation', { name: '页面标签' });
      layout(strip);
      const page = vi.spyOn(window, 'scrollTo');
      await act(() => router.navigate('/system/settings'));
      // 系统设置 is the sixth tab (500–600): its right edge and the margin come into view
      expect(strip.scrollLeft).toBe(600 - 300 + 24);
      // back to 首页 (0–100): the strip scrolls back to its start (a browser stops at 0)
      await act(() => router.navigate('/home/index'));
      expect(strip.scrollLeft).toBeLessThanOrEqual(0);
      expect(page).not.toHaveBeenCalled();
    });

    it('turns the mouse wheel into sideways scrolling, and leaves the page alone', () => {
      renderAt('/home/index');
      const strip = screen.getByRole('navigation', { name: '页面标签' });
      layout(strip);
      const turn = new WheelEvent('wheel', { deltaY: 120, cancelable: true, bubbles: true });
      strip.dispatchEvent(turn);
      expect(strip.scrollLeft).toBe(120);
      expect(turn.defaultPrevented).toBe(true);
      // a sideways swipe keeps its own way
      const swipe = new WheelEvent('wheel', { deltaX: 50, deltaY: 10, cancelable: true, bubbles: true });
      strip.dispatchEvent(swipe);
      expect(swipe.defaultPrevented).toBe(false);
    });

    it('the menu lists every tab and goes to one', async () => {
      const router = renderAt('/home/index');
      await userEvent.click(screen.getByRole('button', { name: '全部标签页' }));
      const items = await screen.findAllByRole('menuitem');
      expect(items.map((i) => i.textContent)).toEqual([
        '首页',
        '单张开票',
        '批量开票',
        '发票明细',
        '开票统计',
        '系统设置',
        '关闭其他标签页',
        '关闭全部标签页',
      ]);
      await act(() => userEvent.click(screen.getByRole('menuitem', { name: '开票统计' })));
      expect(router.state.location.pathname).toBe('/query/invoice-stat');
    });

    it('closes the other tabs, or all of them and goes home', async () => {
      const router = renderAt('/query/invoice');
      await userEvent.click(screen.getByRole('button', { name: '全部标签页' }));
      await userEvent.click(await screen.findByRole('menuitem', { name: '关闭其他标签页' }));
      expect(useTabsStore.getState().tabs.map((t) => t.path)).toEqual(['/query/invoice']);
      expect(router.state.location.pathname).toBe('/query/invoice');

      await userEvent.click(screen.getByRole('button', { name: '全部标签页' }));
      await act(() => userEvent.click(screen.getByRole('menuitem', { name: '关闭全部标签页' })));
      expect(useTabsStore.getState().tabs).toEqual([]);
      expect(router.state.location.pathname).toBe('/');
    });
  });
});
