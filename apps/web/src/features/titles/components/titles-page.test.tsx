import type { TitleItem } from '@kaipiao/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AntdProvider } from '../../../lib/antd/provider.tsx';
import { useSessionStore } from '../../../stores/session-store.ts';
import { apiHandler, apiOk, reply } from '../../../test/api.ts';
import { apiCalls, server } from '../../../test/msw.ts';
import { onWideScreen } from '../../../test/wide-screen.ts';
import { prefetchTitles } from '../api/titles.ts';
import { TitlesPage } from './titles-page.tsx';

const TITLE: TitleItem = {
  id: 3,
  title_type: 2,
  name: '杭州数澜网络科技有限公司',
  tax_code: '91110000600037341L',
  address: '浙江省杭州市余杭区文一西路998号',
  phone: '0571-86001234',
  bank_name: '中国银行杭州余杭支行',
  bank_account: '358960001234567',
  email: 'finance@shulan.example.com',
  mobile: '',
  use_count: 12,
  last_used_at: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-02T00:00:00.000Z',
};
const PERSON: TitleItem = {
  ...TITLE,
  id: 4,
  title_type: 1,
  name: '张伟',
  tax_code: '',
  address: '',
  phone: '',
  bank_name: '',
  bank_account: '',
  email: '',
  mobile: '13900002222',
  use_count: 0,
};

const PATH = '/v3/client-title/list';
const lists = () => apiCalls(PATH).map((c) => c.query);

function renderPage() {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AntdProvider>
        <TitlesPage />
      </AntdProvider>
    </QueryClientProvider>,
  );
}

const rowOf = (name: string) => screen.getByText(name, { selector: 'strong' }).closest('tr') as HTMLElement;
const shown = (name: string) => screen.findByText(name, { selector: 'strong' });
/** presses the confirming button of the Popconfirm that asks `question` */
const confirm = async (question: string, button: string) => {
  const pop = (await screen.findByText(question)).closest('.ant-popover') as HTMLElement;
  fireEvent.click(within(pop).getByRole('button', { name: button }));
};

describe('TitlesPage', { timeout: 60_000 }, () => {
  // every column, as at 1600 px and wider
  onWideScreen();
  beforeEach(() => {
    server.use(apiOk('GET', PATH, { list: [TITLE, PERSON], total: 2 }));
  });
  afterEach(() => useSessionStore.getState().reset());

  it('lists titles with type, tax code, address and phone, and the toolbar', async () => {
    renderPage();
    expect(await shown('杭州数澜网络科技有限公司')).toBeTruthy();
    expect(screen.getByText('91110000600037341L')).toBeTruthy();
    expect(screen.getByText('浙江省杭州市余杭区文一西路998号 0571-86001234')).toBeTruthy();
    expect(screen.getByText('中国银行杭州余杭支行 358960001234567')).toBeTruthy();
    expect(within(rowOf('杭州数澜网络科技有限公司')).getByText('企业')).toBeTruthy();
    const person = rowOf('张伟');
    expect(within(person).getByText('个人/非企业单位')).toBeTruthy();
    expect(within(person).getByText('13900002222')).toBeTruthy();
    // no tax code, address or bank: a dash each
    expect(within(person).getAllByText('—')).toHaveLength(3);
    expect(screen.getByText('第 1-2 条/总共 2 条')).toBeTruthy();
    for (const name of ['新增抬头', '导入', '导出', '下载模板', '刷新']) {
      expect(screen.getByRole('button', { name: new RegExp(name) })).toBeTruthy();
    }
    expect(lists()).toEqual([{ keyword: '', page: '1', page_size: '10' }]);
  });

  it('filters by type and keyword from the first page, and pages with both', async () => {
    server.use(apiHandler('GET', PATH, () => reply.ok({ list: [TITLE], total: 25 })));
    renderPage();
    await shown('杭州数澜网络科技有限公司');
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(lists()).toHaveLength(2));
    fireEvent.click(screen.getByText('企业', { selector: '.ant-segmented-item-label' }));
    await waitFor(() => expect(lists()).toHaveLength(3));
    const search = screen.getByRole('searchbox', { name: '名称 / 纳税人识别号' });
    fireEvent.change(search, { target: { value: '数澜' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(lists()).toHaveLength(4));
    fireEvent.click(screen.getByTitle('3'));
    await waitFor(() => expect(lists()).toHaveLength(5));
    expect(lists()).toEqual([
      { keyword: '', page: '1', page_size: '10' },
      { keyword: '', page: '2', page_size: '10' },
      { keyword: '', title_type: '2', page: '1', page_size: '10' },
      { keyword: '数澜', title_type: '2', page: '1', page_size: '10' },
      { keyword: '数澜', title_type: '2', page: '3', page_size: '10' },
    ]);
  });

  it('deletes a title after its confirmation, then the selected ones, and asks for the list again', async () => {
    server.use(
      apiHandler('POST', '/v3/client-title/delete', ({ body }) => reply.ok({ deleted: body.ids.length })),
    );
    renderPage();
    await shown('张伟');
    fireEvent.click(within(rowOf('张伟')).getByRole('button', { name: '删除' }));
    await confirm('确定删除“张伟”吗？', '删除');
    await waitFor(() => expect(lists()).toHaveLength(2));
    fireEvent.click(screen.getByLabelText('选择杭州数澜网络科技有限公司'));
    expect(await screen.findByText('已选择 1 项')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '批量删除' }));
    await confirm('确定删除选中的1个抬头吗？', '删除');
    await waitFor(() => expect(lists()).toHaveLength(3));
    expect(apiCalls('/v3/client-title/delete').map((c) => c.body)).toEqual([{ ids: [4] }, { ids: [3] }]);
    await waitFor(() => expect(screen.queryByText(/已选择/)).toBeNull());
  });

  it('edits a title (its values in the dialog, 保存 sends them with its id) and opens 新增抬头 empty', async () => {
    server.use(
      apiHandler('POST', '/v3/client-title/update', ({ body }) => reply.ok({ ...TITLE, email: body.email })),
    );
    renderPage();
    await shown('杭州数澜网络科技有限公司');
    fireEvent.click(within(rowOf('杭州数澜网络科技有限公司')).getByRole('button', { name: '编辑' }));
    const dialog = await screen.findByRole('dialog', { name: '编辑抬头' });
    expect((within(dialog).getByLabelText('企业名称') as HTMLInputElement).value).toBe(TITLE.name);
    expect((within(dialog).getByLabelText('银行账号') as HTMLInputElement).value).toBe(TITLE.bank_account);
    fireEvent.change(within(dialog).getByLabelText('邮箱'), { target: { value: 'ap@shulan.example.com' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(apiCalls('/v3/client-title/update')).toHaveLength(1));
    expect(apiCalls('/v3/client-title/update')[0]?.body).toEqual({
      id: 3,
      title_type: 2,
      name: TITLE.name,
      tax_code: TITLE.tax_code,
      address: TITLE.address,
      phone: TITLE.phone,
      bank_name: TITLE.bank_name,
      bank_account: TITLE.bank_account,
      email: 'ap@shulan.example.com',
      mobile: '',
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '编辑抬头' })).toBeNull());
    await waitFor(() => expect(lists()).toHaveLength(2));

    fireEvent.click(screen.getByRole('button', { name: /新增抬头/ }));
    const added = await screen.findByRole('dialog', { name: '新增抬头' });
    expect((within(added).getByLabelText('企业名称') as HTMLInputElement).value).toBe('');
    expect((within(added).getByLabelText('银行账号') as HTMLInputElement).value).toBe('');
    fireEvent.click(within(added).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '新增抬头' })).toBeNull());
    expect(apiCalls('/v3/client-title/create')).toEqual([]);
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
    prefetchTitles();
    await waitFor(() => expect(lists()).toHaveLength(1));
    renderPage();
    expect(await shown('杭州数澜网络科技有限公司')).toBeTruthy();
    expect(lists()).toHaveLength(1);
  });
});
