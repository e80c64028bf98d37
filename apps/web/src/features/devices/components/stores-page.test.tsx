import type { DeviceItem, StoreItem } from '@kaipiao/shared/schemas/devices';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
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

function renderPage(scanSettings?: Parameters<typeof StoresPage>[0]['scanSettings']) {
  render(
    <MemoryRouter>
      <QueryClientProvider client={new QueryClient()}>
        <AntdProvider>
          <StoresPage scanSettings={scanSettings} />
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

describe('StoresPage: each row action acts on its row’s store', { timeout: 60_000 }, () => {
  const SECOND: StoreItem = { ...STORE, client_store_id: 3, name: '上海分部', code: 'SH', remark: '二店' };
  beforeEach(() => {
    server.use(
      apiOk('GET', '/v3/client/get-all-store-list', [STORE, SECOND]),
      apiOk('GET', '/v3/client/client-equ-list', [DEVICE]),
      apiHandler('POST', '/v3/client-store/save', () => reply.ok({ id: 3 }, '保存成功')),
      apiHandler('POST', '/v3/client-store/set-status', () => reply.ok({ id: 3 }, 'ok')),
    );
  });
  const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr') as HTMLElement;

  it('扫码开票设置 opens the settings of the row it was clicked in', async () => {
    const scan = vi.fn((store: StoreItem | null) => (store ? <p>设置：{store.name}</p> : null));
    renderPage(scan);
    await userEvent.click(within(await rowOf('上海分部')).getByRole('button', { name: '扫码开票设置' }));
    expect(await screen.findByText('设置：上海分部')).toBeTruthy();
    expect(scan).toHaveBeenLastCalledWith(SECOND, expect.any(Function));
  });

  it('编辑 shows the row’s store and saves it under its id; 停用 names that store', async () => {
    renderPage();
    await userEvent.click(within(await rowOf('上海分部')).getByRole('button', { name: '编辑' }));
    const dialog = await screen.findByRole('dialog', { name: '编辑门店' });
    expect(within(dialog).getByLabelText('门店名称')).toHaveProperty('value', '上海分部');
    await userEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(saves()).toHaveLength(1));
    expect(saves()[0]?.body).toMatchObject({ client_store_id: 3, name: '上海分部', code: 'SH' });

    await userEvent.click(within(await rowOf('上海分部')).getByRole('button', { name: '停用' }));
    await userEvent.click(await screen.findByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(apiCalls('/v3/client-store/set-status', 'POST')).toHaveLength(1));
    expect(apiCalls('/v3/client-store/set-status', 'POST')[0]?.body).toEqual({
      client_store_id: 3,
      status: 'disabled',
    });
  });
});
