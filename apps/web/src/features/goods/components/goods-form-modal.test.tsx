import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AntdProvider } from '../../../lib/antd/provider.tsx';
import { GoodsFormModal } from './goods-form-modal.tsx';

const LODGING = {
  code: '3070402000000000000',
  name: '住宿服务',
  short_name: '住宿服务',
  rates: ['0.06'],
  levy_rates: ['0.03'],
  preferential_options: ['03'],
  is_summary: false,
  special_business: null,
  keywords: '',
};
const RATES = {
  taxpayer_type: 'small',
  reduced_rate_end: '2027-12-31',
  default_rate: '0.01',
  rates: [
    { value: '0.01', label: '1%', zero_rate_flag: '', preferential_code: '', needs_reason: false },
    { value: '0.03', label: '3%', zero_rate_flag: '', preferential_code: '', needs_reason: true },
    { value: '0', label: '免税', zero_rate_flag: '1', preferential_code: '03', needs_reason: false },
  ],
  preferential_options: [{ code: '03', label: '免税' }],
};

const envelope = (data: unknown, code = 0, message = 'ok') =>
  new Response(JSON.stringify({ code, message, data }), { headers: { 'content-type': 'application/json' } });

function renderModal(variant: 'general' | 'hotel' = 'general') {
  const onSaved = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AntdProvider>
        <GoodsFormModal open onOpenChange={() => {}} editing={null} variant={variant} onSaved={onSaved} />
      </AntdProvider>
    </QueryClientProvider>,
  );
  return { onSaved };
}

describe('GoodsFormModal', { timeout: 60_000 }, () => {
  let created: unknown;
  beforeEach(() => {
    created = envelope({ id: 1 });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url.startsWith('/v3/tax-class-code/search')) return envelope([LODGING]);
        if (url.startsWith('/v3/client-project/tax-rate')) return envelope(RATES);
        if (url.startsWith('/v3/client-project/create')) {
          void init;
          return created as Response;
        }
        return envelope(null);
      }),
    );
  });

  it('says what is missing when saved empty, and sends nothing', async () => {
    renderModal();
    await userEvent.click(await screen.findByRole('button', { name: '保存' }));
    expect(await screen.findByText('请输入项目名称')).toBeTruthy();
    expect(screen.getByText('请选择税收分类编码')).toBeTruthy();
    expect(screen.getByText('请选择税率')).toBeTruthy();
    const calls = vi.mocked(fetch).mock.calls.map(([u]) => String(u));
    expect(calls.some((u) => u.includes('/create'))).toBe(false);
  });

  it('checks the price and the name length with the shared messages', async () => {
    renderModal();
    await userEvent.type(await screen.findByLabelText('单价'), '-5');
    await userEvent.click(screen.getByLabelText('项目名称'));
    await userEvent.paste('a'.repeat(301));
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('单价须为大于0的数字，最多8位小数')).toBeTruthy();
    expect(screen.getByText('项目名称最多300个字符')).toBeTruthy();
  });

  it('hotel variant starts on 住宿服务 with the 1% rate and shows the printed name', async () => {
    renderModal('hotel');
    await userEvent.type(await screen.findByLabelText('项目名称'), '住宿费');
    expect(await screen.findByText('*住宿服务*住宿费')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('1%')).toBeTruthy());
    expect(screen.getByText('小规模纳税人：2027-12-31 前减按1%征收')).toBeTruthy();
  });

  it('shows a server field error (duplicate name) next to the field', async () => {
    created = envelope(
      { errors: [{ field: 'name', message: '已存在相同名称和规格型号的商品' }] },
      14002,
      '重复',
    );
    const { onSaved } = renderModal('hotel');
    await userEvent.type(await screen.findByLabelText('项目名称'), '住宿费');
    await waitFor(() => expect(screen.getByText('1%')).toBeTruthy());
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('已存在相同名称和规格型号的商品')).toBeTruthy();
    expect(onSaved).not.toHaveBeenCalled();
    const body = JSON.parse(
      String(vi.mocked(fetch).mock.calls.find(([u]) => String(u).includes('/create'))?.[1]?.body),
    );
    expect(body).toMatchObject({
      name: '住宿费',
      tax_class_code: LODGING.code,
      tax_rate: '0.01',
      price_includes_tax: true,
    });
  });
});
