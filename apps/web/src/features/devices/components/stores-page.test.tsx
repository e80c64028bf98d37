import type { DeviceItem, StoreItem } from '@kaipiao/shared/schemas/devices';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { AntdProvider } from '../../../lib/antd/provider.tsx';
import { apiHandler, apiOk, reply } from '../../../test/api.ts';
import { apiCalls, server } from '../../../test/msw.ts';
import { StoresPage } from './stores-page.tsx';

const STORE: StoreItem = {
  client_store_id: 1,
  name: '文三路总部',
  code: 'HQ',
  status: 'active',
  default_invoice_types: ['82'],
  remark: '',
  devices: [{ device_id: 5, name: '数电账户（电子发票服务平台）', kind: 'digital' }],
};
const DEVICE: DeviceItem = {
  device_id: 5,
  name: '数电账户（电子发票服务平台）',
  kind: 'digital',
  kind_name: '数电账户',
  channel: 'digital',
  device_no: 'GP900000-330106-0001',
  extension_no: 0,
  parent_id: null,
  is_main: true,
  hosted: false,
  online: true,
  locked: false,
  status: 'active',
  invoice_types: ['81', '82'],
  per_invoice_limit: '1000000.00',
  monthly_quota: null,
  quota_used: '0.00',
  stock: {},
  stores: [{ client_store_id: 1, name: '文三路总部' }],
};

const saves = () => apiCalls('/v3/client-store/save', 'POST');

function renderPage() {
  render(
    <MemoryRouter>
      <QueryClientProvider client={new QueryClient()}>
        <AntdProvider>
          <StoresPage />
        </AntdProvider>
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

describe('StoresPage: the store form checks with the server’s store schema', { timeout: 60_000 }, () => {
  beforeEach(() => {
    server.use(
      apiOk('GET', '/v3/client/get-all-store-list', [STORE]),
      apiOk('GET', '/v3/client/client-equ-list', [DEVICE]),
      apiHandler('POST', '/v3/client-store/save', () => reply.ok({ id: 2 }, '保存成功')),
    );
  });

  it('an empty new store names both missing fields in Chinese and sends nothing', async () => {
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: '新增门店' }));
    const dialog = await screen.findByRole('dialog', { name: '新增门店' });
    await userEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await within(dialog).findByText('请输入门店名称')).toBeTruthy();
    expect(within(dialog).getByText('请输入门店编号')).toBeTruthy();
    expect(saves()).toHaveLength(0);
  });

  it('refuses a code the server would refuse, then saves a good one', async () => {
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: '新增门店' }));
    const dialog = await screen.findByRole('dialog', { name: '新增门店' });
    await userEvent.type(within(dialog).getByLabelText('门店名称'), '上海分部');
    await userEvent.type(within(dialog).getByLabelText('门店编号'), 'SH 01');
    await userEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await within(dialog).findByText('门店编号为1-20位字母、数字、-或_')).toBeTruthy();
    expect(saves()).toHaveLength(0);

    await userEvent.clear(within(dialog).getByLabelText('门店编号'));
    await userEvent.type(within(dialog).getByLabelText('门店编号'), 'SH-01');
    await userEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(saves()).toHaveLength(1));
    expect(saves()[0]?.body).toMatchObject({ name: '上海分部', code: 'SH-01', remark: '' });
  });
});
