import type { RedForm } from '@kaipiao/shared/schemas/red-info';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AntdProvider } from '../../../lib/antd/provider.tsx';
import { useSessionStore } from '../../../stores/session-store.ts';
import { apiHandler, apiOk, reply } from '../../../test/api.ts';
import { apiCalls, server } from '../../../test/msw.ts';
import { onWideScreen } from '../../../test/wide-screen.ts';
import { prefetchRedForms } from '../api.ts';
import { RedSheetPage } from './red-sheet-page.tsx';

/** A 确认单 waiting for the buyer, 300.00 taken off a 1060.00 invoice. */
const FORM: RedForm = {
  form_id: 5,
  kind: 'confirm',
  kind_name: '红字确认单',
  form_no: '33010626110000000005',
  initiator: 'seller',
  reason: '04',
  reason_name: '销售折让',
  full: false,
  state: '02',
  state_name: '销方录入待购方确认',
  state_class: 'pending',
  blue: {
    invoice_id: 7,
    invoice_type: '82',
    invoice_type_name: '电子发票（普通发票）',
    invoice_code: '',
    invoice_no: '26332000000000000007',
    issued_at: '2026-11-10T02:00:00.000Z',
    status: 'issued',
    red_status: 'none',
    total_amount: '1000.00',
    total_tax: '60.00',
    total_with_tax: '1060.00',
    buyer_name: '杭州星河网络科技有限公司',
    buyer_tax_code: '',
    seller_name: '杭州云栈软件科技有限公司',
    seller_tax_code: '91330106MA2KC7LM1A',
  },
  total_amount: '-283.02',
  total_tax: '-16.98',
  total_with_tax: '-300.00',
  lines: [],
  remark: '',
  red_invoice: null,
  expires_at: '2099-11-13T02:00:00.000Z',
  decided_at: null,
  created_at: '2026-11-10T02:00:00.000Z',
  created_by_name: '开票员小王',
  actions: { confirm: false, reject: false, revoke: true, issue: false },
};
const { lines: _lines, ...ROW } = FORM;

const PATH = '/v3/red-info/list';
const lists = () => apiCalls(PATH).map((c) => c.body);

function renderPage(entry = '/red-info/sheet') {
  return render(
    <MemoryRouter initialEntries={[entry]}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <AntdProvider>
          <Routes>
            <Route path="/red-info/sheet" element={<RedSheetPage />} />
            <Route path="/red-info/modify" element={<p>填写红字信息页面</p>} />
          </Routes>
        </AntdProvider>
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

const search = () => fireEvent.click(screen.getByRole('button', { name: '查询' }));

describe('RedSheetPage', { timeout: 60_000 }, () => {
  // every column, as at 1600 px and wider
  onWideScreen();
  beforeEach(() => {
    server.use(apiOk('POST', PATH, { list: [ROW], total: 1, page: 1, page_size: 10 }));
  });
  afterEach(() => useSessionStore.getState().reset());

  it('lists the forms: kind and number, blue invoice, buyer, red amount and reason, state and time left', async () => {
    renderPage();
    expect(await screen.findByText('33010626110000000005')).toBeTruthy();
    const row = screen.getByText('33010626110000000005').closest('tr') as HTMLElement;
    expect(within(row).getByText('红字确认单')).toBeTruthy();
    expect(within(row).getByText('26332000000000000007')).toBeTruthy();
    expect(within(row).getByText('电子发票（普通发票） · ¥1,060.00')).toBeTruthy();
    expect(within(row).getByText('杭州星河网络科技有限公司')).toBeTruthy();
    expect(within(row).getByText('-300.00')).toBeTruthy();
    expect(within(row).getByText('销售折让·部分')).toBeTruthy();
    expect(within(row).getByText(/剩余/)).toBeTruthy();
    // 填开时间: the Beijing day over the minutes
    expect(within(row).getByText('2026-11-10')).toBeTruthy();
    expect(within(row).getByText('10:00')).toBeTruthy();
    expect(screen.getByText('共 1 条')).toBeTruthy();
    expect(screen.getByRole('button', { name: '刷新' })).toBeTruthy();
    expect(lists()).toEqual([{ page: 1, page_size: 10 }]);
  });

  it('searches by keyword, kind and state from the first page; 重置 empties them and searches again', async () => {
    server.use(
      apiHandler('POST', PATH, ({ body }) =>
        reply.ok({ list: [ROW], total: 25, page: body.page, page_size: 10 }),
      ),
    );
    renderPage();
    await screen.findByText('33010626110000000005');
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(lists()).toHaveLength(2));

    fireEvent.change(screen.getByPlaceholderText('单据编号、发票号码或购方名称'), {
      target: { value: ' 星河 ' },
    });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '单据类型' }));
    fireEvent.click(await screen.findByTitle('红字信息表'));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '状态' }));
    fireEvent.click(await screen.findByTitle('待确认 / 申请中'));
    search();
    await waitFor(() => expect(lists()).toHaveLength(3));
    // the same search again asks again
    search();
    await waitFor(() => expect(lists()).toHaveLength(4));
    fireEvent.click(screen.getByRole('button', { name: '重置' }));
    await waitFor(() => expect(lists()).toHaveLength(5));
    expect((screen.getByPlaceholderText('单据编号、发票号码或购方名称') as HTMLInputElement).value).toBe('');
    expect(lists()).toEqual([
      { page: 1, page_size: 10 },
      { page: 2, page_size: 10 },
      { page: 1, page_size: 10, kind: 'info_sheet', state: 'pending', keyword: '星河' },
      { page: 1, page_size: 10, kind: 'info_sheet', state: 'pending', keyword: '星河' },
      { page: 1, page_size: 10 },
    ]);
  });

  it('offers the states as the three classes, then 01 to 10 (not 10 first, as object keys would order them)', async () => {
    renderPage();
    await screen.findByText('33010626110000000005');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '状态' }));
    await screen.findByTitle('待确认 / 申请中');
    const titles = Array.from(document.querySelectorAll('.ant-select-item-option')).map((o) =>
      o.getAttribute('title'),
    );
    // the list draws the options in view
    expect(titles.slice(0, 5)).toEqual([
      '待确认 / 申请中',
      '已确认 / 审核通过',
      '已作废 / 已撤销',
      '01 无需确认',
      '02 销方录入待购方确认',
    ]);
  });

  it('opens a form from its number (and from ?form_id=), and asks for the list again when it is closed', async () => {
    server.use(apiOk('POST', '/v3/red-info/detail', FORM));
    renderPage('/red-info/sheet?form_id=5');
    const drawer = await screen.findByRole('dialog', { name: '红字确认单详情' });
    expect(apiCalls('/v3/red-info/detail').map((c) => c.body)).toEqual([{ form_id: 5 }]);
    await waitFor(() => expect(lists()).toHaveLength(1));
    fireEvent.click(within(drawer).getByRole('button', { name: /Close|关闭/ }));
    await waitFor(() => expect(lists()).toHaveLength(2));
    fireEvent.click(screen.getByRole('button', { name: '详情' }));
    expect(await screen.findByRole('dialog', { name: '红字确认单详情' })).toBeTruthy();
  });

  it('新增红字信息 opens the fill-in page', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: /新增红字信息/ }));
    expect(await screen.findByText('填写红字信息页面')).toBeTruthy();
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
    prefetchRedForms();
    await waitFor(() => expect(lists()).toHaveLength(1));
    renderPage();
    expect(await screen.findByText('33010626110000000005')).toBeTruthy();
    expect(lists()).toHaveLength(1);
  });
});
