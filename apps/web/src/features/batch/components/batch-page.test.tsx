import { BATCH_CODE, type BatchProgress, type BatchReport, type TaxEquipment } from '@kaipiao/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { AntdProvider } from '../../../lib/antd/provider.tsx';
import { useSessionStore } from '../../../stores/session-store.ts';
import { apiError, apiOk } from '../../../test/api.ts';
import { apiCalls, server } from '../../../test/msw.ts';
import { BatchPage } from './batch-page.tsx';

const DEVICE: TaxEquipment = {
  device_id: 3,
  name: '数电账户（电子发票服务平台）',
  kind: 'digital',
  kind_name: '数电账户',
  channel: 'GP900000',
  device_no: 'GP900000-330106-0001',
  extension_no: 0,
  is_main: true,
  online: true,
  locked: false,
  invoice_types: [
    { code: '82', name: '电子发票（普通发票）' },
    { code: '81', name: '电子发票（增值税专用发票）' },
  ],
  per_invoice_limit: '1000.00',
  monthly_quota: '10000000.00',
  quota_used: '0.00',
  stock: {},
};

const REPORT: BatchReport = {
  errors: [
    { sheet: '商品明细', row: 7, column: '金额', message: '金额最多2位小数' },
    { sheet: '发票信息', row: 3, column: '购买方类型', message: '购买方类型须为“企业”或“个人/非企业单位”' },
  ],
  error_count: 2,
  invoice_count: 5,
  line_count: 9,
};

const PROGRESS: BatchProgress = {
  batch_id: 12,
  status: 'running',
  pause_reason: '',
  notice: null,
  file_name: '三月批量.xlsx',
  device_name: DEVICE.name,
  store_id: 1,
  store_name: '文三路总部',
  created_by_name: '开票员小王',
  created_at: '2026-03-01T02:00:00.000Z',
  started_at: '2026-03-01T02:01:00.000Z',
  finished_at: null,
  source_count: 40,
  total: 40,
  pending: 25,
  issuing: 3,
  issued: 10,
  failed: 2,
  skipped: 0,
  percent: 30,
  total_with_tax: '46399.60',
  issued_with_tax: '11599.90',
};

/** antd puts a space between two CJK characters of a button */
const named = (text: string) => (name: string) => name.replace(/\s/g, '').includes(text.replace(/\s/g, ''));

function renderPage() {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AntdProvider>
        <MemoryRouter initialEntries={['/invoice/batch']}>
          <BatchPage />
        </MemoryRouter>
      </AntdProvider>
    </QueryClientProvider>,
  );
}

describe('BatchPage', { timeout: 60_000 }, () => {
  beforeEach(() => {
    useSessionStore.setState({
      signedIn: true,
      business: {
        client_id: 5,
        name: '杭州云栈软件科技有限公司',
        tax_code: 'x',
        org_id: 1,
        industry: 'general',
      },
      store: { client_store_id: 1, name: '文三路总部' },
    });
    server.use(
      apiOk('GET', '/v3/batch-invoice/list', { total: 1, list: [PROGRESS] }),
      apiOk('GET', '/v3/client-store/get-tax-equipment', [DEVICE]),
      apiError('POST', '/v3/batch-invoice/upload', BATCH_CODE.ROWS_INVALID, {
        message: '文件有2处错误，未开具任何发票，请按校验报告修改后重新上传',
        data: REPORT,
      }),
      apiOk('GET', '/v3/batch-invoice/progress', PROGRESS),
      apiOk('GET', '/v3/batch-invoice/rows', { total: 0, list: [] }),
    );
  });

  it('uploads with device and kind, and shows the report by sheet, row and column', async () => {
    const { container } = renderPage();
    expect(await screen.findByText(/数电账户（电子发票服务平台）/, {}, { timeout: 10_000 })).toBeTruthy();
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    const file = new File(['PK'], '三月批量.xlsx', {
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    fireEvent.change(input, { target: { files: [file] } });
    const button = await screen.findByRole('button', { name: /上传并校验/ });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(button);

    const report = await screen.findByLabelText('校验报告', {}, { timeout: 10_000 });
    expect(screen.getByText(/文件有2处错误/)).toBeTruthy();
    expect(within(report).getByText('金额最多2位小数')).toBeTruthy();
    expect(within(report).getByText('商品明细')).toBeTruthy();
    expect(within(report).getByText('购买方类型')).toBeTruthy();
    const [call] = apiCalls('/v3/batch-invoice/upload');
    expect(call?.query).toMatchObject({ device_id: '3', invoice_type: '82', client_id: '5', sid: '1' });
  });

  it('shows a batch from the history with its progress and controls', async () => {
    renderPage();
    await screen.findByText('#12', {}, { timeout: 10_000 });
    fireEvent.click(await screen.findByRole('button', { name: named('查看') }));
    const panel = await screen.findByLabelText('开票进度', {}, { timeout: 10_000 });
    expect(within(panel).getByText('批次 #12')).toBeTruthy();
    expect(within(panel).getByText('12 / 40')).toBeTruthy();
    for (const name of ['暂停', '取消批次', '重试失败的 2 张', '下载开票结果']) {
      expect(within(panel).getByRole('button', { name: named(name) })).toBeTruthy();
    }
  });
});
