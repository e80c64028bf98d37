import type { RedBlueInfo, RedForm } from '@kaipiao/shared/schemas/red-info';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { AntdProvider } from '../../../lib/antd/provider.tsx';
import { apiOk } from '../../../test/api.ts';
import { apiCalls, server } from '../../../test/msw.ts';
import { RedModifyPage } from './red-modify-page.tsx';

/** A service invoice of 1060.00, already reddened by 300.00. */
const INFO: RedBlueInfo = {
  blue: {
    invoice_id: 7,
    invoice_type: '82',
    invoice_type_name: '电子发票（普通发票）',
    invoice_code: '',
    invoice_no: '26332000000000000007',
    issued_at: '2026-11-10T02:00:00.000Z',
    status: 'issued',
    red_status: 'partial',
    total_amount: '1000.00',
    total_tax: '60.00',
    total_with_tax: '1060.00',
    buyer_name: '杭州星河网络科技有限公司',
    buyer_tax_code: '',
    seller_name: '杭州云栈软件科技有限公司',
    seller_tax_code: '91330106MA2KC7LM1A',
  },
  kind: 'confirm',
  kind_name: '红字确认单',
  lines: [
    {
      line_no: 1,
      line_kind: 0,
      tax_class_code: '3040201010000000000',
      full_name: '*信息技术服务*软件开发服务',
      spec: '',
      unit: '项',
      quantity: '2',
      unit_price: '500',
      unit_price_with_tax: '530',
      amount: '1000.00',
      tax_rate: '0.0600',
      tax_amount: '60.00',
      amount_with_tax: '1060.00',
      remaining_quantity: '2',
      remaining_amount: '716.98',
      remaining_tax: '43.02',
      remaining_with_tax: '760.00',
    },
  ],
  remaining_amount: '716.98',
  remaining_tax: '43.02',
  remaining_with_tax: '760.00',
  reasons: ['01', '03', '04'],
  has_discount: false,
  needs_confirmation: false,
  pending_form_id: null,
};

/** The 确认单 the server answers for 100.00 taken off line 1: no confirmation needed, issued at once. */
const FORM: RedForm = {
  form_id: 3,
  kind: 'confirm',
  kind_name: '红字确认单',
  form_no: '33010626110000000003',
  initiator: 'seller',
  reason: '04',
  reason_name: '销售折让',
  full: false,
  state: '01',
  state_name: '无需确认',
  state_class: 'confirmed',
  blue: INFO.blue,
  total_amount: '-94.34',
  total_tax: '-5.66',
  total_with_tax: '-100.00',
  lines: [
    {
      blue_line_no: 1,
      line_kind: 0,
      tax_class_code: '3040201010000000000',
      short_name: '信息技术服务',
      item_name: '软件开发服务',
      full_name: '*信息技术服务*软件开发服务',
      spec: '',
      unit: '项',
      quantity: null,
      unit_price: null,
      unit_price_with_tax: null,
      amount: '-94.34',
      tax_rate: '0.0600',
      tax_amount: '-5.66',
      amount_with_tax: '-100.00',
      preferential_code: '',
      zero_rate_flag: '',
    },
  ],
  remark: '',
  red_invoice: {
    invoice_id: 8,
    invoice_code: '',
    invoice_no: '26332000000000000008',
    status: 'issued',
    issued_at: '2026-11-12T02:00:00.000Z',
    error_message: null,
  },
  expires_at: null,
  decided_at: '2026-11-12T02:00:00.000Z',
  created_at: '2026-11-12T02:00:00.000Z',
  created_by_name: '开票员小王',
  actions: { confirm: false, reject: false, revoke: false, issue: false },
};

describe('RedModifyPage', { timeout: 120_000 }, () => {
  beforeEach(() => {
    server.use(apiOk('POST', '/v3/red-info/blue-info', INFO), apiOk('POST', '/v3/red-info/apply', FORM));
  });

  it('offers the reasons the invoice allows and sends a partial 销售折让 by amount', async () => {
    render(
      <MemoryRouter initialEntries={['/red-info/modify?invoice_id=7']}>
        <QueryClientProvider client={new QueryClient()}>
          <AntdProvider>
            <Routes>
              <Route path="/red-info/modify" element={<RedModifyPage />} />
              <Route path="/red-info/sheet" element={<p>红字信息表页面</p>} />
            </Routes>
          </AntdProvider>
        </QueryClientProvider>
      </MemoryRouter>,
    );
    expect(await screen.findByText('填写红字确认单')).toBeTruthy();
    // the blue invoice's 开票日期 is its Beijing day (2026-11-10T02:00Z)
    expect(screen.getAllByText('2026-11-10').length).toBeGreaterThan(0);
    expect(screen.getByText(/无需确认（01）/)).toBeTruthy();
    // service-only: no 销货退回; partly reddened: no 开票有误
    expect((screen.getByRole('radio', { name: '销货退回' }) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole('radio', { name: '开票有误' }) as HTMLInputElement).disabled).toBe(true);
    // 提交 says why it cannot be pressed yet
    const submitButton = () => screen.getByRole('button', { name: /提\s*交/ }) as HTMLButtonElement;
    expect(submitButton().disabled).toBe(true);
    expect(screen.getByText('请先选择红冲原因')).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: '销售折让' }));
    fireEvent.click(screen.getByRole('radio', { name: '部分红冲' }));
    expect(await screen.findByText('请填写要红冲的数量或金额')).toBeTruthy();
    expect(submitButton().disabled).toBe(true);
    const amount = await screen.findByLabelText('第1行红冲金额');
    expect(screen.queryByLabelText('第1行红冲数量')).toBeNull();
    fireEvent.change(amount, { target: { value: '100' } });
    expect(await screen.findByText('¥-100.00')).toBeTruthy();
    expect(screen.queryByText('请填写要红冲的数量或金额')).toBeNull();
    // 提交 shows what will be issued first; nothing is sent until it is confirmed
    fireEvent.click(submitButton());
    const dialog = await screen.findByRole('dialog', { name: '确认提交红字确认单' });
    expect(within(dialog).getByText('销售折让')).toBeTruthy();
    expect(within(dialog).getByText('部分红冲')).toBeTruthy();
    expect(within(dialog).getByText('¥-100.00')).toBeTruthy();
    expect(apiCalls('/v3/red-info/apply')).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: /确认红冲/ }));
    await waitFor(() => expect(screen.getByText('红字信息表页面')).toBeTruthy());
    const [apply] = apiCalls('/v3/red-info/apply');
    expect(apply?.body).toEqual({
      invoice_id: 7,
      reason: '04',
      full: false,
      lines: [{ blue_line_no: 1, quantity: null, amount_with_tax: '100.00' }],
      remark: '',
    });
  });
});
