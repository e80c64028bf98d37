import {
  type BlueInvoiceRequest,
  CODE,
  INVOICE_CODE,
  type IssueResult,
  MONEY_MSG,
  ratesFor,
  SMALL_SCALE_3_PERCENT_REASONS,
  SPECIFIC_BUSINESS_DEFS,
  type TaxEquipment,
  toRateOptionItem,
} from '@kaipiao/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { AntdProvider } from '../../../lib/antd/provider.tsx';
import { apiError, apiHandler, apiOk, type Reply, reply } from '../../../test/api.ts';
import { apiCalls, server } from '../../../test/msw.ts';
import { getIssueResult, issueBlueInvoice, reconcileSerial } from '../api/issue.ts';
import { emptyDraft, emptyLine } from '../utils/draft.ts';
import { draftKey, loadDraft } from '../utils/draft-storage.ts';
import type { Draft, DraftLine } from '../utils/types.ts';
import { IssueForm } from './issue-form.tsx';

/**
 * Sets the page's Date (only; it keeps running) to noon on 2027-12-31 in Beijing, the 1% reduction's
 * last day.
 */
function lastDayOfReduction() {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(new Date('2027-12-31T04:00:00Z'));
  onTestFinished(() => {
    vi.useRealTimers();
  });
}

const KEY = draftKey({ variant: 'general', userId: 1, clientId: 1, storeId: 1 });
const SELLER = { name: '杭州云栈软件科技有限公司', tax_code: '91330106MA2KC7LM1A' };

const DEVICE: TaxEquipment = {
  device_id: 11,
  name: '数电账户（文三路）',
  kind: 'digital',
  kind_name: '数电账户',
  channel: 'GP900000',
  device_no: 'hz-yunzhan',
  extension_no: 0,
  is_main: true,
  online: true,
  locked: false,
  invoice_types: [
    { code: '82', name: '电子发票（普通发票）' },
    { code: '81', name: '电子发票（增值税专用发票）' },
  ],
  per_invoice_limit: '100000.00',
  monthly_quota: '1000000.00',
  quota_used: '0.00',
  stock: {},
};

const issued = (serial: string, no = '25332000000000000001'): IssueResult => ({
  invoice_id: 501,
  serial_no: serial,
  status: 'issued',
  invoice_type: '82',
  invoice_code: '',
  invoice_no: no,
  issued_at: '2025-06-01T02:00:00.000Z',
  total_price_with_tax: '106.00',
  error_message: null,
});

type BlueAnswer = (body: BlueInvoiceRequest) => Reply<IssueResult> | Promise<Reply<IssueResult>>;
let blue: BlueAnswer;
/** the bodies POST blue was sent, as sent */
const blueBodies = () => apiCalls('/v3/online-invoicing/blue').map((c) => c.body as Record<string, unknown>);

/** what POST tax-rate says the business is */
let taxpayer: 'general' | 'small';

/** What the form asks the server, answered as the server's contract says. */
function installApi() {
  taxpayer = 'general';
  blue = (body) => reply.ok(issued(body.serial_no));
  server.use(
    apiOk('GET', '/v3/client-store/get-tax-equipment', [DEVICE]),
    apiOk('GET', '/v3/invoice-record/specific-business', [...SPECIFIC_BUSINESS_DEFS]),
    apiHandler('POST', '/v3/client-project/tax-rate', () =>
      reply.ok({
        taxpayer_type: taxpayer,
        reduced_rate_end: '2027-12-31',
        default_rate: taxpayer === 'small' ? '0.01' : '0.06',
        rates: ratesFor({ taxpayerType: taxpayer }).map(toRateOptionItem),
        preferential_options: [],
      }),
    ),
    apiOk('GET', '/v3/client-project/get-projects', { list: [], total: 0 }),
    apiOk('GET', '/v3/client-title/search', []),
    apiError('GET', '/v3/online-invoicing/result', INVOICE_CODE.SERIAL_NOT_FOUND),
    apiHandler('POST', '/v3/online-invoicing/blue', ({ body }) => blue(body)),
  );
}

const line = (patch: Partial<DraftLine> = {}): DraftLine => ({
  ...emptyLine(),
  tax_class_code: '3040201010000000000',
  short_name: '信息技术服务',
  name: '软件开发服务',
  tax_rate: '0.06',
  ...patch,
});

function seed(patch: Partial<Draft> = {}, serial = 'WEBseeded000001') {
  const draft: Draft = {
    ...emptyDraft({ drawer: '开票员小王' }),
    device_id: 11,
    invoice_type: '82',
    // a company buyer names its tax code (shared buyer rules, as the server checks)
    buyer: { ...emptyDraft().buyer, name: '上海某某贸易有限公司', tax_code: '91310115MA1K3BTP2B' },
    lines: [line()],
    ...patch,
  };
  sessionStorage.setItem(KEY, JSON.stringify({ draft, serial, attempt: null }));
}

const calls = {
  issue: issueBlueInvoice,
  result: getIssueResult,
  reconcile: reconcileSerial,
  sleep: async () => {},
};

function renderForm() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <AntdProvider>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <IssueForm
            hotel={false}
            storeId={1}
            storageKey={KEY}
            seller={SELLER}
            drawer="开票员小王"
            libraryPath="/query/invoice"
            calls={calls}
          />
        </MemoryRouter>
      </QueryClientProvider>
    </AntdProvider>,
  );
}

const figure = (label: string) => screen.getByLabelText(label).textContent;
/** The input named `label` (antd may repeat the label on a wrapper). */
const cell = (label: string) =>
  screen
    .getAllByLabelText(label)
    .find((el) => el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') as HTMLInputElement;

/** Sets an input's text as a paste would: one change event. */
function type(label: string, text: string) {
  fireEvent.change(cell(label), { target: { value: text } });
}

/** 开具发票 → preview → 确认开具 */
async function issue() {
  await userEvent.click(screen.getByRole('button', { name: /开具发票|重新提交/ }));
  const dialog = await screen.findByRole('dialog', { name: '发票预览' });
  await userEvent.click(within(dialog).getByRole('button', { name: '确认开具' }));
}

describe('IssueForm', { timeout: 60_000 }, () => {
  beforeEach(() => installApi());

  it('totals and 大写 follow every keystroke', async () => {
    seed();
    renderForm();
    expect(figure('价税合计')).toBe('¥0.00');
    type('数量 第1行', '2');
    type('单价 第1行', '53');
    expect(figure('合计金额')).toBe('¥100.00');
    expect(figure('合计税额')).toBe('¥6.00');
    expect(figure('价税合计')).toBe('¥106.00');
    expect(figure('价税合计大写')).toBe('壹佰零陆圆整');
    expect(figure('税额 第1行')).toBe('6.00');
    await userEvent.type(cell('单价 第1行'), '.5');
    expect(figure('价税合计')).toBe('¥107.00');
    expect(figure('价税合计大写')).toBe('壹佰零柒圆整');
    // typing the amount instead derives the price
    type('金额 第1行', '99.99');
    expect(cell('单价 第1行').value).toBe('49.995');
    expect(figure('合计金额')).toBe('¥94.33');
  });

  it('adds a discount line by percentage right after its line', async () => {
    seed({
      lines: [line({ quantity: '1', price: '106' }), line({ name: '运维服务', quantity: '1', price: '53' })],
    });
    renderForm();
    await userEvent.click(screen.getByRole('button', { name: '折扣第1行' }));
    const dialog = await screen.findByRole('dialog', { name: '添加折扣' });
    await userEvent.click(within(dialog).getByText('按比例'));
    await userEvent.type(within(dialog).getByLabelText('折扣比例'), '10');
    expect(within(dialog).getByText('折扣 ¥10.60，折后 ¥95.40')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '添加折扣' })).toBeNull());
    expect(screen.getByRole('button', { name: '修改第2行折扣' })).toBeTruthy();
    expect(figure('税额 第2行')).toBe('-0.60');
    expect(figure('价税合计')).toBe('¥148.40');
    expect(figure('价税合计大写')).toBe('壹佰肆拾捌圆肆角');
    // the discount follows its line
    type('数量 第1行', '2');
    expect(figure('价税合计')).toBe('¥243.80');
  });

  it('switching to 不含税 recomputes every line and keeps the totals', async () => {
    seed({ lines: [line({ quantity: '2', price: '53' }), line({ driver: 'amount', amount: '10' })] });
    renderForm();
    expect(figure('价税合计')).toBe('¥116.00');
    await userEvent.click(screen.getByText('不含税'));
    expect(screen.getAllByText('单价（不含税）').length).toBeGreaterThan(0);
    expect(cell('单价 第1行').value).toBe('50');
    expect(cell('金额 第2行').value).toBe('9.43');
    expect(figure('价税合计')).toBe('¥116.00');
    type('单价 第1行', '100');
    expect(figure('合计金额')).toBe('¥209.43');
    expect(figure('合计税额')).toBe('¥12.57');
  });

  it('requires the buyer tax code for a 专票, next to the field', async () => {
    seed({
      lines: [line({ quantity: '1', price: '106' })],
      buyer: { ...emptyDraft().buyer, title_type: 1, name: '张三', tax_code: '' },
    });
    renderForm();
    await userEvent.click(await screen.findByText('电子发票（增值税专用发票）'));
    await userEvent.click(screen.getByRole('button', { name: '开具发票' }));
    const item = cell('纳税人识别号').closest('.ant-form-item') as HTMLElement;
    expect(within(item).getByText('开具专用发票须填写购买方纳税人识别号')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: '发票预览' })).toBeNull();
    expect(blueBodies()).toHaveLength(0);
    type('纳税人识别号', '91310000MA1FL4XQ2K');
    expect(within(item).queryByText('开具专用发票须填写购买方纳税人识别号')).toBeNull();
  });

  it('marks the tax code required for a company buyer (the shared rule refuses it empty), not for a person', async () => {
    seed({
      lines: [line({ quantity: '1', price: '106' })],
      buyer: { ...emptyDraft().buyer, title_type: 2, name: '上海某某贸易有限公司', tax_code: '' },
    });
    renderForm();
    const label = () =>
      (cell('纳税人识别号').closest('.ant-form-item') as HTMLElement).querySelector(
        '.ant-form-item-required',
      );
    await waitFor(() => expect(label()).not.toBeNull());
    await userEvent.click(screen.getByRole('button', { name: '开具发票' }));
    const item = cell('纳税人识别号').closest('.ant-form-item') as HTMLElement;
    expect(within(item).getByText('企业抬头请填写纳税人识别号')).toBeTruthy();
    await userEvent.click(screen.getByLabelText('个人/非企业单位'));
    await waitFor(() => expect(label()).toBeNull());
  });

  it('预览 runs the checks 确认开具 runs: a company buyer without a tax code opens no preview, and the field is focused', async () => {
    seed({
      lines: [line({ quantity: '1', price: '106' })],
      buyer: { ...emptyDraft().buyer, title_type: 2, name: '上海某某贸易有限公司', tax_code: '' },
    });
    renderForm();
    await userEvent.click(await screen.findByRole('button', { name: /预\s*览/ }));
    const item = cell('纳税人识别号').closest('.ant-form-item') as HTMLElement;
    expect(within(item).getByText('企业抬头请填写纳税人识别号')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: '发票预览' })).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(cell('纳税人识别号')));
    expect(blueBodies()).toHaveLength(0);
  });

  it('a field left shows the checks 确认开具 would run on it, and no other field’s (issue 24 item 2)', async () => {
    seed({ lines: [line({ tax_class_code: '', short_name: '', name: '咨询费' })] });
    renderForm();
    await screen.findByText('电子发票（普通发票）');
    const CODE_MSG = '请选择商品编码（税收分类编码）';
    const LIMIT_MSG = '合计金额超过本设备单张开票限额 ¥100000.00';
    // an amount over the device's limit (¥100000.00): typed, nothing yet; left, the total's check
    type('金额 第1行', '200000');
    expect(screen.queryByText(LIMIT_MSG)).toBeNull();
    fireEvent.blur(cell('金额 第1行'));
    expect(screen.getByText(LIMIT_MSG)).toBeTruthy();
    expect(screen.queryByText(CODE_MSG)).toBeNull();
    type('金额 第1行', '');
    type('数量 第1行', '0');
    expect(screen.queryByText('数量须大于0')).toBeNull();
    fireEvent.blur(cell('数量 第1行'));
    expect(screen.getByText('数量须大于0')).toBeTruthy();
    expect(screen.queryByText(CODE_MSG)).toBeNull();
    // the name left without a tax class code
    fireEvent.blur(cell('项目名称 第1行'));
    expect(screen.getByText(CODE_MSG)).toBeTruthy();
    expect(blueBodies()).toHaveLength(0);
  });

  it('shows the server field errors next to their fields', async () => {
    seed({ lines: [line({ quantity: '1', price: '106' })] });
    blue = () =>
      reply.error(CODE.VALIDATION, {
        message: '第1行税额误差超过0.06',
        data: {
          errors: [
            { field: 'goods_info.0.tax_amount', message: '第1行税额误差超过0.06' },
            { field: 'buyer.name', message: '购买方名称与纳税人识别号不一致' },
          ],
        },
      });
    renderForm();
    await screen.findByText('电子发票（普通发票）');
    await issue();
    const taxCell = screen.getByLabelText('税额 第1行').closest('td') as HTMLElement;
    expect(await within(taxCell).findByText('第1行税额误差超过0.06')).toBeTruthy();
    // and listed above the actions
    expect(screen.getByText('开票信息未通过校验，请按提示修改')).toBeTruthy();
    const nameItem = cell('名称').closest('.ant-form-item') as HTMLElement;
    expect(within(nameItem).getByText('购买方名称与纳税人识别号不一致')).toBeTruthy();
    // the error goes once the field changes
    type('名称', '上海某某贸易有限公司分公司');
    expect(within(nameItem).queryByText('购买方名称与纳税人识别号不一致')).toBeNull();
  });

  it('keeps the serial across a retry and a double click, and takes a new one on 继续开票', async () => {
    seed({ lines: [line({ quantity: '1', price: '106' })] }, 'WEBfirstserial01');
    let release: () => void = () => {};
    let sent = 0;
    blue = async (body) => {
      // the first attempt never reaches the server: fetch fails
      if (++sent === 1) return reply.networkError();
      await new Promise<void>((r) => {
        release = r;
      });
      return reply.ok(issued(body.serial_no));
    };
    renderForm();
    await screen.findByText('电子发票（普通发票）');
    await issue();
    expect(await screen.findByText('开票结果待确认')).toBeTruthy();
    expect(loadDraft(KEY)).toMatchObject({ serial: 'WEBfirstserial01', attempt: { state: 'unknown' } });

    // retry: the same serial; a second click while it is out sends nothing more
    await userEvent.click(screen.getByRole('button', { name: '重新提交' }));
    const dialog = await screen.findByRole('dialog', { name: '发票预览' });
    const confirm = within(dialog).getByRole('button', { name: /确认开具/ });
    await userEvent.click(confirm);
    await userEvent.click(confirm);
    await waitFor(() => expect(blueBodies()).toHaveLength(2));
    await act(async () => release());
    expect(await screen.findByText('开票成功')).toBeTruthy();
    expect(blueBodies().map((b) => b.serial_no)).toEqual(['WEBfirstserial01', 'WEBfirstserial01']);
    expect(figure('发票号码')).toBe('25332000000000000001');
    expect(loadDraft(KEY)).toBeNull();

    // 继续开票: empty lines, same device and kind, a new serial
    blue = (body) => reply.ok(issued(body.serial_no, '25332000000000000002'));
    await userEvent.click(screen.getByRole('button', { name: /继续开票/ }));
    expect(cell('项目名称 第1行').value).toBe('');
    const next = loadDraft(KEY);
    expect(next?.draft).toMatchObject({ device_id: 11, invoice_type: '82' });
    expect(next?.serial).toMatch(/^[A-Za-z0-9_-]{8,40}$/);
    expect(next?.serial).not.toBe('WEBfirstserial01');
  });

  // the reduction ends on a fixed date (then 3% is the small-scale rate and nothing is asked:
  // shared rates.test.ts), so the page's clock stands on its last day, whatever today is
  it('asks a small-scale seller at 3% why (开具3%征收率原因), required, and sends the reason', async () => {
    lastDayOfReduction();
    taxpayer = 'small';
    seed({ lines: [line({ tax_rate: '0.03', quantity: '1', price: '103' })] });
    renderForm();
    const select = await screen.findByLabelText('开具3%征收率原因');
    const item = select.closest('.ant-form-item') as HTMLElement;
    await userEvent.click(screen.getByRole('button', { name: '开具发票' }));
    expect(within(item).getByText(MONEY_MSG.SMALL_SCALE_REASON_REQUIRED)).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: '发票预览' })).toBeNull();
    expect(blueBodies()).toHaveLength(0);
    // both reasons offered in full
    fireEvent.mouseDown(select);
    const second = await screen.findByTitle(SMALL_SCALE_3_PERCENT_REASONS['2']);
    expect(screen.getByTitle(SMALL_SCALE_3_PERCENT_REASONS['1'])).toBeTruthy();
    await userEvent.click(second);
    await waitFor(() => expect(within(item).queryByText(MONEY_MSG.SMALL_SCALE_REASON_REQUIRED)).toBeNull());
    await issue();
    expect(await screen.findByText('开票成功')).toBeTruthy();
    expect(blueBodies()).toHaveLength(1);
    expect(blueBodies()[0]!.small_scale_reason).toBe('2');
  });

  it('shows no reason select and sends none at 1% or for a general taxpayer at 3%', async () => {
    lastDayOfReduction();
    taxpayer = 'small';
    seed({ lines: [line({ tax_rate: '0.01', quantity: '1', price: '101' })], small_scale_reason: '2' });
    const first = renderForm();
    await screen.findByText('电子发票（普通发票）');
    expect(screen.queryByLabelText('开具3%征收率原因')).toBeNull();
    await issue();
    expect(await screen.findByText('开票成功')).toBeTruthy();
    expect(blueBodies()[0]).not.toHaveProperty('small_scale_reason');
    first.unmount();

    taxpayer = 'general';
    seed(
      { lines: [line({ tax_rate: '0.03', quantity: '1', price: '103' })], small_scale_reason: '2' },
      'WEBseeded000002',
    );
    renderForm();
    await screen.findByText('电子发票（普通发票）');
    expect(screen.queryByLabelText('开具3%征收率原因')).toBeNull();
    await issue();
    expect(await screen.findByText('开票成功')).toBeTruthy();
    expect(blueBodies()[1]).not.toHaveProperty('small_scale_reason');
  });

  it('asks for bank details in 备注 only when a box is ticked (是否展示银行账号)', async () => {
    seed({ lines: [line({ quantity: '1', price: '106' })] });
    const first = renderForm();
    await screen.findByText('电子发票（普通发票）');
    await issue();
    expect(await screen.findByText('开票成功')).toBeTruthy();
    expect(blueBodies()[0]).not.toHaveProperty('show_buyer_bank');
    expect(blueBodies()[0]).not.toHaveProperty('show_seller_bank');
    first.unmount();

    seed({ lines: [line({ quantity: '1', price: '106' })] }, 'WEBseeded000002');
    renderForm();
    await screen.findByText('电子发票（普通发票）');
    await userEvent.click(screen.getByRole('checkbox', { name: '显示销方开户行及账号' }));
    await issue();
    expect(await screen.findByText('开票成功')).toBeTruthy();
    expect(blueBodies()[1]).toMatchObject({ show_seller_bank: true });
    expect(blueBodies()[1]).not.toHaveProperty('show_buyer_bank');
  });
});
