import { INVOICE_TYPES } from '@kaipiao/shared/schemas/invoice';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { AntdProvider } from '../../lib/antd/provider.tsx';
import { InvoiceRedActions } from './invoice-red-actions.tsx';

type Invoice = Parameters<typeof InvoiceRedActions>[0]['invoice'];

const BLUE: Invoice = {
  invoice_id: 7,
  invoice_type: '82',
  invoice_no: '26332000000000000007',
  issued_at: '2026-11-10T02:00:00.000Z',
  direction: 'blue',
  status: 'issued',
  red_status: 'none',
};

function renderActions(invoice: Invoice, onLeave = vi.fn()) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <AntdProvider>
        <MemoryRouter initialEntries={['/query/invoice']}>
          <Routes>
            <Route
              path="/query/invoice"
              element={<InvoiceRedActions invoice={invoice} onLeave={onLeave} />}
            />
            <Route path="/red-info/modify" element={<p>红冲页面</p>} />
          </Routes>
        </MemoryRouter>
      </AntdProvider>
    </QueryClientProvider>,
  );
  return onLeave;
}

// by text, not by role: role queries walk antd's whole accessibility tree in jsdom (seconds each)
const button = (label: string) =>
  [...document.querySelectorAll('button')].find((b) => b.textContent?.replace(/\s/g, '') === label) ?? null;
const redButton = () => button('红冲');

describe('InvoiceRedActions (the detail drawer’s 红冲 / 作废)', () => {
  // antd builds its styles on the first render of a button (seconds in jsdom): once, not per test
  beforeAll(() => {
    renderActions(BLUE);
    cleanup();
  }, 30_000);

  it('offers 红冲 on an issued blue invoice with nothing reddened, and opens the red page for it', () => {
    const onLeave = renderActions(BLUE);
    const button = redButton();
    expect(button).not.toBeNull();
    expect(button!.hasAttribute('disabled')).toBe(false);
    fireEvent.click(button!);
    expect(onLeave).toHaveBeenCalledTimes(1);
    expect(screen.getByText('红冲页面')).toBeTruthy();
  });

  it('keeps 红冲 enabled on a partly reddened invoice (a balance remains), with no reason shown', () => {
    renderActions({ ...BLUE, red_status: 'partial' });
    expect(redButton()!.hasAttribute('disabled')).toBe(false);
    expect(redButton()!.hasAttribute('title')).toBe(false);
  });

  it('opens the red page also where no drawer is to be closed (no onLeave)', () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <AntdProvider>
          <MemoryRouter initialEntries={['/query/invoice']}>
            <Routes>
              <Route path="/query/invoice" element={<InvoiceRedActions invoice={BLUE} />} />
              <Route path="/red-info/modify" element={<p>红冲页面</p>} />
            </Routes>
          </MemoryRouter>
        </AntdProvider>
      </QueryClientProvider>,
    );
    fireEvent.click(redButton()!);
    expect(screen.getByText('红冲页面')).toBeTruthy();
  });

  it.each<[string, string]>([
    ['82', INVOICE_TYPES['82']],
    ['81', INVOICE_TYPES['81']],
    ['026', INVOICE_TYPES['026']],
    ['028', INVOICE_TYPES['028']],
  ])('offers no 作废 on a %s (%s) invoice, which cannot be voided, but still 红冲', (invoice_type) => {
    renderActions({ ...BLUE, invoice_type });
    expect(redButton()).not.toBeNull();
    expect(button('作废')).toBeNull();
  });

  it('作废 on a paper invoice opens the void dialog only when clicked, and 取消 closes it', async () => {
    renderActions({ ...BLUE, invoice_type: '007', invoice_no: '01234567' });
    expect(document.querySelector('.ant-modal')).toBeNull();
    fireEvent.click(button('作废')!);
    expect(await screen.findByText('作废发票')).toBeTruthy();
    const cancel = [...document.querySelectorAll('.ant-modal button')].find(
      (b) => b.textContent?.replace(/\s/g, '') === '取消',
    );
    fireEvent.click(cancel!);
    await waitFor(() => expect(screen.queryByText('作废发票')).toBeNull());
  });

  it('disables 红冲 on a fully reversed invoice and says why; a click goes nowhere', () => {
    const onLeave = renderActions({ ...BLUE, red_status: 'full' });
    const button = redButton()!;
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(document.getElementById(button.getAttribute('aria-describedby')!)?.textContent).toBe(
      '该发票已全额红冲，没有可红冲的余额',
    );
    fireEvent.click(button);
    expect(onLeave).not.toHaveBeenCalled();
    expect(screen.queryByText('红冲页面')).toBeNull();
  });

  it.each([
    ['issuing', '开具中'],
    ['failed', '开具失败'],
    ['unknown', '结果待确认'],
    ['voided', '已作废'],
  ])('offers no action on a %s (%s) invoice', (status) => {
    renderActions({ ...BLUE, invoice_type: '007', status });
    expect(redButton()).toBeNull();
    expect(button('作废')).toBeNull();
  });

  it('offers no action on a red invoice', () => {
    renderActions({ ...BLUE, invoice_type: '007', direction: 'red' });
    expect(redButton()).toBeNull();
    expect(button('作废')).toBeNull();
  });
});
