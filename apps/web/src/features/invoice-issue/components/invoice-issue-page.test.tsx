import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { AntdProvider } from '../../../lib/antd/provider.tsx';
import { useSessionStore } from '../../../stores/session-store.ts';
import { apiCalls } from '../../../test/msw.ts';
import { InvoiceIssuePage } from './invoice-issue-page.tsx';

const BUSINESS = {
  client_id: 1,
  name: '杭州云栈软件科技有限公司',
  tax_code: '91330106MA2KC7LM1A',
  org_id: 1,
  industry: 'general' as const,
};

describe('InvoiceIssuePage', () => {
  afterEach(() => useSessionStore.setState({ business: null, store: null }));

  it('asks to switch to a store on the all-stores summary view (-1) instead of showing the form', async () => {
    useSessionStore.setState({
      business: BUSINESS,
      store: { client_store_id: -1, name: '全部门店数据汇总' },
    });
    const router = createMemoryRouter(
      [
        {
          path: '/invoice/online',
          element: (
            <AntdProvider>
              <InvoiceIssuePage />
            </AntdProvider>
          ),
        },
        { path: '/user/switch-store', element: <p>选择门店页</p> },
      ],
      { initialEntries: ['/invoice/online'] },
    );
    render(<RouterProvider router={router} />);
    expect(screen.getByText('请先切换到具体门店')).toBeTruthy();
    expect(screen.queryByText('开具发票')).toBeNull();
    // no handlers: the summary view asks the server nothing
    expect(apiCalls()).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: '切换门店' }));
    expect(router.state.location.pathname).toBe('/user/switch-store');
    expect(router.state.location.search).toBe('?redirect=%2Finvoice%2Fonline');
  });
});
