import type { GoodsItem } from '@kaipiao/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AntdProvider } from '../../../lib/antd/provider.tsx';
import { useSessionStore } from '../../../stores/session-store.ts';
import { apiHandler, apiOk, reply } from '../../../test/api.ts';
import { apiCalls, server } from '../../../test/msw.ts';
import { onWideScreen } from '../../../test/wide-screen.ts';
import { prefetchGoods } from '../api/goods.ts';
import { GoodsPage } from './goods-page.tsx';

const ITEM: GoodsItem = {
  id: 7,
  name: '软件开发服务',
  tax_class_code: '3040201010000000000',
  tax_class_name: '软件开发服务',
  short_name: '信息技术服务',
  full_name: '*信息技术服务*软件开发服务',
  spec: '',
  unit: '项',
  price: null,
  price_includes_tax: true,
  tax_rate: '0.06',
  tax_rate_label: '6%',
  preferential_code: '',
  zero_rate_flag: '',
  is_default: true,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-02T00:00:00.000Z',
};
const OTHER: GoodsItem = {
  ...ITEM,
  id: 8,
  name: '技术咨询服务',
  full_name: '*信息技术服务*技术咨询服务',
  spec: 'V2',
  unit: '次',
  price: '5000',
  is_default: false,
};

const PATH = '/v3/client-project/get-projects';
const lists = () => apiCalls(PATH).map((c) => c.query);

function renderPage() {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AntdProvider>
        <GoodsPage />
      </AntdProvider>
    </QueryClientProvider>,
  );
}

/** the row of a goods item, by its name (the classification's name may read the same) */
const rowOf = (name: string) => screen.getByText(name, { selector: 'strong' }).closest('tr') as HTMLElement;
const shown = (name: string) => screen.findByText(name, { selector: 'strong' });
/** presses the confirming button of the Popconfirm that asks `question` */
const confirm = async (question: string, button: string) => {
  const pop = (await screen.findByText(question)).closest('.ant-popover') as HTMLElement;
  fireEvent.click(within(pop).getByRole('button', { name: button }));
};

describe('GoodsPage', { timeout: 60_000 }, () => {
  // every column, as at 1600 px and wider
  onWideScreen();
  beforeEach(() => {
    server.use(apiOk('GET', PATH, { list: [ITEM, OTHER], total: 2 }));
  });
  afterEach(() => useSessionStore.getState().reset());

  it('lists the goods with the printed name, rate, default tag and the toolbar', async () => {
    renderPage();
    expect(await screen.findByText('*信息技术服务*软件开发服务')).toBeTruthy();
    expect(screen.getByText('默认')).toBeTruthy();
    expect(screen.getAllByText('6%')).toHaveLength(2);
    expect(screen.getByText('开票时填写')).toBeTruthy();
    expect(within(rowOf('技术咨询服务')).getByText('含税')).toBeTruthy();
    // an empty 规格型号 is a dash
    expect(within(rowOf('软件开发服务')).getAllByText('—').length).toBeGreaterThan(0);
    // 更新时间 in Beijing time whatever the browser's zone (00:00 UTC is 08:00 in Beijing)
    expect(screen.getAllByText('2026-01-02 08:00')).toHaveLength(2);
    expect(screen.getByText('第 1-2 条/总共 2 条')).toBeTruthy();
    for (const name of ['新增商品', '导入', '导出', '下载模板', '刷新']) {
      expect(screen.getByRole('button', { name: new RegExp(name) })).toBeTruthy();
    }
    expect(
      screen.getByLabelText('维护常用的开票项目：税收分类编码、税率和单价，开票时直接选用'),
    ).toBeTruthy();
    expect(lists()).toEqual([{ keyword: '', page: '1', page_size: '10' }]);
  });

  it('searches by keyword from the first page, pages with it, and asks again on 刷新', async () => {
    server.use(
      apiHandler('GET', PATH, ({ query }) =>
        reply.ok({ list: query.page === '2' ? [OTHER] : [ITEM], total: 25 }),
      ),
    );
    renderPage();
    await shown('软件开发服务');
    fireEvent.click(screen.getByTitle('2'));
    await shown('技术咨询服务');
    const search = screen.getByRole('searchbox', { name: '项目名称 / 商品简称 / 税收分类编码' });
    fireEvent.change(search, { target: { value: ' 软件 ' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(lists()).toHaveLength(3));
    fireEvent.click(screen.getByTitle('3'));
    await waitFor(() => expect(lists()).toHaveLength(4));
    fireEvent.click(screen.getByRole('button', { name: '刷新' }));
    await waitFor(() => expect(lists()).toHaveLength(5));
    expect(lists()).toEqual([
      { keyword: '', page: '1', page_size: '10' },
      { keyword: '', page: '2', page_size: '10' },
      { keyword: '软件', page: '1', page_size: '10' },
      { keyword: '软件', page: '3', page_size: '10' },
      { keyword: '软件', page: '3', page_size: '10' },
    ]);
  });

  it('deletes a row after its confirmation, then the selected rows, and asks for the list again', async () => {
    server.use(
      apiHandler('POST', '/v3/client-project/delete', ({ body }) => reply.ok({ deleted: body.ids.length })),
    );
    renderPage();
    await shown('技术咨询服务');
    fireEvent.click(within(rowOf('技术咨询服务')).getByRole('button', { name: '删除' }));
    await confirm('确定删除“技术咨询服务”吗？', '删除');
    await waitFor(() => expect(lists()).toHaveLength(2));
    expect(apiCalls('/v3/client-project/delete').map((c) => c.body)).toEqual([{ ids: [8] }]);

    fireEvent.click(screen.getByLabelText('选择软件开发服务'));
    fireEvent.click(screen.getByLabelText('选择技术咨询服务'));
    expect(await screen.findByText('已选择 2 项')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '批量删除' }));
    await confirm('确定删除选中的2个商品吗？', '删除');
    await waitFor(() => expect(lists()).toHaveLength(3));
    expect(apiCalls('/v3/client-project/delete').map((c) => c.body)).toEqual([{ ids: [8] }, { ids: [7, 8] }]);
    // the selection is gone with the rows
    await waitFor(() => expect(screen.queryByText(/已选择/)).toBeNull());
  });

  it('turns a default off and another on (设为默认 / 取消默认)', async () => {
    server.use(apiOk('POST', '/v3/client-project/set-default', null));
    renderPage();
    await shown('技术咨询服务');
    fireEvent.click(within(rowOf('软件开发服务')).getByRole('button', { name: '取消默认' }));
    fireEvent.click(within(rowOf('技术咨询服务')).getByRole('button', { name: '设为默认' }));
    await waitFor(() => expect(lists().length).toBeGreaterThanOrEqual(2));
    expect(apiCalls('/v3/client-project/set-default').map((c) => c.body)).toEqual([
      { id: 7, is_default: false },
      { id: 8, is_default: true },
    ]);
  });

  it('edits a row in the dialog (its values, then 保存 sends them with its id) and opens 新增商品 empty', async () => {
    server.use(
      apiOk('GET', '/v3/tax-class-code/search', []),
      apiOk('POST', '/v3/client-project/tax-rate', {
        taxpayer_type: 'general',
        reduced_rate_end: '2027-12-31',
        default_rate: '0.06',
        rates: [
          { value: '0.06', label: '6%', zero_rate_flag: '', preferential_code: '', needs_reason: false },
        ],
        preferential_options: [],
      }),
      apiHandler('POST', '/v3/client-project/update', ({ body }) => reply.ok({ ...OTHER, name: body.name })),
    );
    renderPage();
    await shown('技术咨询服务');
    fireEvent.click(within(rowOf('技术咨询服务')).getByRole('button', { name: '编辑' }));
    const dialog = await screen.findByRole('dialog', { name: '编辑商品' });
    const name = within(dialog).getByLabelText('项目名称') as HTMLInputElement;
    expect(name.value).toBe('技术咨询服务');
    expect((within(dialog).getByLabelText('规格型号') as HTMLInputElement).value).toBe('V2');
    expect((within(dialog).getByLabelText('单价') as HTMLInputElement).value).toBe('5000');
    fireEvent.change(name, { target: { value: '技术咨询' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(apiCalls('/v3/client-project/update')).toHaveLength(1));
    expect(apiCalls('/v3/client-project/update')[0]?.body).toMatchObject({
      id: 8,
      name: '技术咨询',
      tax_class_code: OTHER.tax_class_code,
      spec: 'V2',
      unit: '次',
      price: '5000',
      tax_rate: '0.06',
    });
    // saved: the dialog closes and the list is asked for again
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '编辑商品' })).toBeNull());
    await waitFor(() => expect(lists()).toHaveLength(2));

    fireEvent.click(screen.getByRole('button', { name: /新增商品/ }));
    const added = await screen.findByRole('dialog', { name: '新增商品' });
    expect((within(added).getByLabelText('项目名称') as HTMLInputElement).value).toBe('');
    expect((within(added).getByLabelText('规格型号') as HTMLInputElement).value).toBe('');
    fireEvent.click(within(added).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '新增商品' })).toBeNull());
    expect(apiCalls('/v3/client-project/create')).toEqual([]);
  });

  it('takes the first page asked for with its code instead of asking again (issue 24 item 6)', async () => {
    useSessionStore.getState().select(
      {
        client_id: 1,
        name: '杭州云栈软件科技有限公司',
        tax_code: '91330106MA2KC7LM1A',
        org_id: 1,
        industry: 'general',
      },
      { client_store_id: 1, name: '文三路总部' },
    );
    prefetchGoods();
    await waitFor(() => expect(lists()).toHaveLength(1));
    renderPage();
    expect(await shown('软件开发服务')).toBeTruthy();
    expect(lists()).toHaveLength(1);
  });
});
