import type { InvoiceDetail, InvoiceRow } from '@kaipiao/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { AntdProvider } from '../../../lib/antd/provider.tsx';
import { apiOk } from '../../../test/api.ts';
import { apiCalls, server } from '../../../test/msw.ts';
import { LibraryPage } from './library-page.tsx';

const ROW = {
  invoice_id: 41,
  serial_no: 'S1',
  invoice_type: '82',
  invoice_type_name: '电子发票（普通发票）',
  invoice_code: '',
  invoice_no: '26332000000000000123',
  direction: 'blue',
  status: 'issued',
  red_status: 'full',
  status_key: 'full_red',
  status_name: '全额红冲',
  buyer_name: '杭州星河网络科技有限公司',
  buyer_tax_code: '91330106MA2STAR01X',
  buyer_email: '',
  total_amount: '1000.00',
  total_tax: '60.00',
  total_with_tax: '1060.00',
  store_id: 1,
  store_name: '文三路总部',
  source: 'online',
  issued_at: '2026-11-10T02:00:00.000Z',
  created_at: '2026-11-10T02:00:00.000Z',
} satisfies InvoiceRow;

const DETAIL = {
  invoice: {
    ...ROW,
    device_id: 1,
    check_code: '',
    buyer_title_type: 2,
    buyer_address: '',
    buyer_phone: '',
    buyer_bank_name: '',
    buyer_bank_account: '',
    buyer_mobile: '',
    seller_name: '杭州云栈软件科技有限公司',
    seller_tax_code: '91330106MA2KC7LM1A',
    seller_address: '',
    seller_phone: '',
    seller_bank_name: '',
    seller_bank_account: '',
    price_includes_tax: true,
    remark: '',
    drawer: '开票员小王',
    payee: '',
    reviewer: '',
    qr_string: '',
    error_code: null,
    error_message: null,
    created_by: 2,
    created_by_name: '开票员小王',
    small_scale_reason: '自愿放弃享受减按1%征收率征收增值税政策',
  },
  lines: [
    {
      line_no: 1,
      line_kind: 0,
      tax_class_code: '3040201010000000000',
      short_name: '信息技术服务',
      name: '软件开发服务',
      full_name: '*信息技术服务*软件开发服务',
      spec: '',
      unit: '',
      quantity: null,
      unit_price: null,
      unit_price_with_tax: null,
      amount: '1000.00',
      tax_rate: '0.0600',
      tax_rate_label: '6%',
      tax_amount: '60.00',
      amount_with_tax: '1060.00',
      preferential_code: '',
      zero_rate_flag: '',
    },
  ],
  specific_business: null,
  events: [
    {
      id: 1,
      kind: 'created',
      kind_name: '提交开票',
      user_id: 2,
      user_name: '开票员小王',
      detail: {},
      created_at: ROW.created_at,
    },
    {
      id: 2,
      kind: 'issued',
      kind_name: '开具成功',
      user_id: null,
      user_name: '系统',
      detail: { invoice_no: ROW.invoice_no },
      created_at: ROW.issued_at,
    },
  ],
  files: [
    { kind: 'pdf', ready: true, file_name: 'a.pdf', size: 40960, created_at: ROW.issued_at },
    { kind: 'xml', ready: false, file_name: 'a.xml', size: null, created_at: null },
  ],
  original: null,
  red: {
    red_invoices: [],
    reddened_amount: '-1000.00',
    reddened_tax: '-60.00',
    reddened_with_tax: '-1060.00',
    remaining_amount: '0.00',
    remaining_tax: '0.00',
    remaining_with_tax: '0.00',
  },
} satisfies InvoiceDetail;

describe('LibraryPage', { timeout: 120_000 }, () => {
  beforeEach(() => {
    server.use(
      apiOk('POST', '/v3/invoice-record/list', {
        list: [ROW],
        total: 1,
        total_capped: false,
        page: 1,
        page_size: 10,
      }),
      apiOk('POST', '/v3/invoice-detail/get-invoice-detail', DETAIL),
    );
  });

  it('lists invoices with status tags and amounts, and opens the detail with lines, events and files', async () => {
    render(
      <MemoryRouter>
        <QueryClientProvider client={new QueryClient()}>
          <AntdProvider>
            <LibraryPage />
          </AntdProvider>
        </QueryClientProvider>
      </MemoryRouter>,
    );
    // the table is drawn after the search form, and its rows after it: a busy machine needs a while
    expect(await screen.findByText('杭州星河网络科技有限公司', {}, { timeout: 15_000 })).toBeTruthy();
    expect(screen.getAllByText('全额红冲').length).toBeGreaterThan(0);
    expect(screen.getByText('1,060.00')).toBeTruthy();
    expect(screen.getByText('2026-11-10 10:00')).toBeTruthy();
    const [first] = apiCalls();
    expect(first?.path).toBe('/v3/invoice-record/list');
    expect(first?.body).toMatchObject({ page: 1, page_size: 10 });

    fireEvent.click(screen.getByText(ROW.invoice_no));
    expect(await screen.findByText('发票详情')).toBeTruthy();
    expect(await screen.findByText('*信息技术服务*软件开发服务')).toBeTruthy();
    expect(screen.getByText('开具成功')).toBeTruthy();
    expect(screen.getByText('3%征收率原因')).toBeTruthy();
    expect(screen.getByText('自愿放弃享受减按1%征收率征收增值税政策')).toBeTruthy();
    expect(screen.getByText('系统')).toBeTruthy();
    expect(screen.getByRole('link', { name: /下载 PDF（40.0 KB）/ }).getAttribute('href')).toContain(
      '/v3/invoice-detail/download?invoice_id=41&kind=pdf',
    );
    expect(screen.getByRole('button', { name: /重发邮件/ })).toBeTruthy();
    await waitFor(() => expect(apiCalls('/v3/invoice-detail/get-invoice-detail')).toHaveLength(1));
  });
});
