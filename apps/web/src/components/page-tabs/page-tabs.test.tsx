import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTabsStore } from '../../stores/tabs-store.ts';
import { PageTabs } from './page-tabs.tsx';

function renderAt(path: string) {
  const router = createMemoryRouter([{ path: '*', element: <PageTabs activePath={path} /> }], {
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
});
