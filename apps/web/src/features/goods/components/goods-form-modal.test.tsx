import { CATALOG_CODE, GOODS_MSG, type TaxRateResult } from '@kaipiao/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AntdProvider } from '../../../lib/antd/provider.tsx';
import { apiError, apiOk } from '../../../test/api.ts';
import { apiCalls, server } from '../../../test/msw.ts';
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
const RATES: TaxRateResult = {
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
  beforeEach(() => {
    // no create handler: a test that saves installs one, any other create fails the test
    server.use(
      apiOk('GET', '/v3/tax-class-code/search', [LODGING]),
      apiOk('POST', '/v3/client-project/tax-rate', RATES),
    );
  });

  it('says what is missing when saved empty, and sends nothing', async () => {
    renderModal();
    await userEvent.click(await screen.findByRole('button', { name: '保存' }));
    expect(await screen.findByText('请输入项目名称')).toBeTruthy();
    expect(screen.getByText('请选择税收分类编码')).toBeTruthy();
    expect(screen.getByText('请选择税率')).toBeTruthy();
    expect(apiCalls('/v3/client-project/create')).toHaveLength(0);
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

  it("checks with the server's goods schema: unit and spec lengths, the required marks", async () => {
    renderModal('hotel');
    await userEvent.type(await screen.findByLabelText('项目名称'), '住宿费');
    await userEvent.clear(screen.getByLabelText('单位'));
    await userEvent.click(screen.getByLabelText('单位'));
    await userEvent.paste('间'.repeat(21));
    await userEvent.click(screen.getByLabelText('规格型号'));
    await userEvent.paste('s'.repeat(151));
    await waitFor(() => expect(screen.getByText('1%')).toBeTruthy());
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText(GOODS_MSG.UNIT_MAX)).toBeTruthy();
    expect(screen.getByText(GOODS_MSG.SPEC_MAX)).toBeTruthy();
    expect(apiCalls('/v3/client-project/create')).toHaveLength(0);
    for (const label of ['项目名称', '税收分类编码', '税率']) {
      const item = screen.getByText(label, { selector: 'label' });
      expect(item.classList.contains('ant-form-item-required')).toBe(true);
    }
  });

  it('hotel variant starts on 住宿服务 with the 1% rate and shows the printed name', async () => {
    renderModal('hotel');
    await userEvent.type(await screen.findByLabelText('项目名称'), '住宿费');
    expect(await screen.findByText('*住宿服务*住宿费')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('1%')).toBeTruthy());
    expect(screen.getByText('小规模纳税人：2027-12-31 前减按1%征收')).toBeTruthy();
  });

  it('shows a server field error (duplicate name) next to the field', async () => {
    server.use(
      apiError('POST', '/v3/client-project/create', CATALOG_CODE.GOODS_DUPLICATE, {
        data: { errors: [{ field: 'name', message: '已存在相同名称和规格型号的商品' }] },
      }),
    );
    const { onSaved } = renderModal('hotel');
    await userEvent.type(await screen.findByLabelText('项目名称'), '住宿费');
    await waitFor(() => expect(screen.getByText('1%')).toBeTruthy());
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    // under the name field (the answer's message says the same, so the place is what counts)
    const nameItem = screen.getByLabelText('项目名称').closest('.ant-form-item') as HTMLElement;
    expect(await within(nameItem).findByText('已存在相同名称和规格型号的商品')).toBeTruthy();
    expect(onSaved).not.toHaveBeenCalled();
    const [{ body }] = apiCalls('/v3/client-project/create');
    expect(body).toMatchObject({
      name: '住宿费',
      tax_class_code: LODGING.code,
      tax_rate: '0.01',
      price_includes_tax: true,
    });
  });
});
