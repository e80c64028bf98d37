import type { InvoiceRow } from '@kaipiao/shared';
import { AMOUNT_RANGE_INVERTED } from '@kaipiao/shared/schemas/query';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { AntdProvider } from '../../../lib/antd/provider.tsx';
import { apiOk } from '../../../test/api.ts';
import { apiCalls, server } from '../../../test/msw.ts';
import { LibraryPage } from './library-page.tsx';

// The library's own table and search form (issue 11: the ProComponents table it replaced, its chunk
// and first render, were the page's long tasks): searching from the first page, paging with the
// searched filters, 重置, the inverted amount range, the count, the selection and its exports.

const row = (id: number): InvoiceRow => ({
  invoice_id: id,
  serial_no: `S${id}`,
  invoice_type: '82',
  invoice_type_name: '电子发票（普通发票）',
  invoice_code: '',
  invoice_no: `2633200000000000${String(id).padStart(4, '0')}`,
  direction: 'blue',
  status: 'issued',
  red_status: 'none',
  status_key: 'normal',
  status_name: '正常',
  buyer_name: `购方${id}有限公司`,
  buyer_tax_code: '91330106MA2STAR01X',
  buyer_email: '',
  total_amount: '100.00',
  total_tax: '6.00',
  total_with_tax: '106.00',
  store_id: 1,
  store_name: '文三路总部',
  source: 'online',
  issued_at: '2026-11-10T02:00:00.000Z',
  created_at: '2026-11-10T02:00:00.000Z',
});

const listed = (total: number) =>
  apiOk('POST', '/v3/invoice-record/list', {
    list: [row(1), row(2)],
    total,
    total_capped: false,
    page: 1,
    page_size: 10,
  });

const listBodies = () => apiCalls('/v3/invoice-record/list').map((c) => c.body);

function renderPage(entry = '/query/invoice') {
  return render(
    <MemoryRouter initialEntries={[entry]}>
      <QueryClientProvider client={new QueryClient()}>
        <AntdProvider>
          <LibraryPage />
        </AntdProvider>
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

/** The first rows (the table is drawn after the search form, its rows after it: a slow machine needs a while). */
const rowsShown = () => screen.findByText('购方1有限公司', {}, { timeout: 15_000 });

const search = () => fireEvent.click(screen.getByRole('button', { name: /^查\s*询$/ }));

describe('LibraryPage search, paging and selection', { timeout: 120_000 }, () => {
  beforeEach(() => server.use(listed(25)));

  it('opens with the link’s filters, searches from the first page, pages with the searched filters and 重置 puts the opening values back', async () => {
    renderPage('/query/invoice?buyer=星河');
    await rowsShown();
    expect(screen.getByText('共 25 条')).toBeTruthy();
    expect(listBodies()).toEqual([{ buyer_name: '星河', page: 1, page_size: 10 }]);
    expect(screen.getByLabelText('购买方')).toHaveProperty('value', '星河');

    // typed but not searched: the next page keeps the searched filters
    fireEvent.change(screen.getByLabelText('发票号码'), { target: { value: '0002' } });
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(listBodies()).toHaveLength(2));
    expect(listBodies()[1]).toEqual({ buyer_name: '星河', page: 2, page_size: 10 });

    search();
    await waitFor(() => expect(listBodies()).toHaveLength(3));
    expect(listBodies()[2]).toEqual({ buyer_name: '星河', invoice_no: '0002', page: 1, page_size: 10 });

    fireEvent.click(screen.getByRole('button', { name: /^重\s*置$/ }));
    await waitFor(() => expect(listBodies()).toHaveLength(4));
    expect(listBodies()[3]).toEqual({ buyer_name: '星河', page: 1, page_size: 10 });
    expect(screen.getByLabelText('发票号码')).toHaveProperty('value', '');
  });

  it('says an inverted 价税合计 range at the field and does not search; put right, it searches', async () => {
    renderPage();
    await rowsShown();
    fireEvent.change(screen.getByRole('spinbutton', { name: '最小价税合计' }), { target: { value: '500' } });
    fireEvent.change(screen.getByRole('spinbutton', { name: '最大价税合计' }), { target: { value: '100' } });
    search();
    expect(await screen.findByText(AMOUNT_RANGE_INVERTED)).toBeTruthy();
    expect(listBodies()).toHaveLength(1);

    fireEvent.change(screen.getByRole('spinbutton', { name: '最大价税合计' }), { target: { value: '1000' } });
    search();
    await waitFor(() => expect(listBodies()).toHaveLength(2));
    expect(listBodies()[1]).toEqual({ amount_min: '500.00', amount_max: '1000.00', page: 1, page_size: 10 });
    await waitFor(() => expect(screen.queryByText(AMOUNT_RANGE_INVERTED)).toBeNull());
  });

  it('收起 leaves the first three filters, 展开 shows them all again', async () => {
    renderPage();
    await rowsShown();
    const column = (label: string) => screen.getByLabelText(label).closest('.ant-form-item')?.parentElement;
    expect(column('状态')?.style.display).toBe('');
    fireEvent.click(screen.getByRole('button', { name: /收起/ }));
    for (const label of ['购买方', '状态', '蓝/红字']) expect(column(label)?.style.display).toBe('none');
    for (const label of ['开票日期', '发票号码', '发票种类']) expect(column(label)?.style.display).toBe('');
    const unfold = screen.getByRole('button', { name: /展开/ });
    expect(unfold.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(unfold);
    expect(column('状态')?.style.display).toBe('');
  });

  it('draws every row of a full page (the first five, then the rest)', async () => {
    server.use(
      apiOk('POST', '/v3/invoice-record/list', {
        list: Array.from({ length: 10 }, (_, i) => row(i + 1)),
        total: 25,
        total_capped: false,
        page: 1,
        page_size: 10,
      }),
    );
    renderPage();
    expect(await screen.findByText('购方10有限公司', {}, { timeout: 15_000 })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: '详情' })).toHaveLength(10);
  });

  it('says when the count is capped', async () => {
    server.use(listed(2000));
    renderPage();
    expect(await screen.findByText('超过 2000 条，请缩小查询范围', {}, { timeout: 15_000 })).toBeTruthy();
  });

  it('exports the selected invoices, and the search’s filters when none is selected', async () => {
    const exports: unknown[] = [];
    server.use(
      http.post('*/v3/invoice-export/create', async ({ request }) => {
        exports.push(await request.json());
        return HttpResponse.json({ code: 0, message: 'ok', data: { record_id: 7, row_count: 1 } });
      }),
    );
    renderPage('/query/invoice?invoice_no=0001');
    await rowsShown();

    fireEvent.click(screen.getByLabelText('选择26332000000000000002'));
    expect(await screen.findByText('已选 1 张')).toBeTruthy();
    expect(screen.getByRole('button', { name: /下载所选PDF（1）/ })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /导出Excel/ }));
    await waitFor(() => expect(exports).toHaveLength(1));
    expect(exports[0]).toEqual({ kind: 'excel', invoice_ids: [2], filters: {} });

    fireEvent.click(screen.getByRole('button', { name: '取消选择' }));
    await waitFor(() => expect(screen.queryByText(/已选/)).toBeNull());
    const toolbar = screen.getByRole('button', { name: /下载查询结果PDF/ });
    fireEvent.click(toolbar);
    await waitFor(() => expect(exports).toHaveLength(2));
    expect(exports[1]).toEqual({ kind: 'pdf_zip', filters: { invoice_no: '0001' } });
    expect(within(document.body).queryByText('已选 1 张')).toBeNull();
  });
});
