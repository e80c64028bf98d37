import type { ExportRecord } from '@kaipiao/shared/schemas/query';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { AntdProvider } from '../../../lib/antd/provider.tsx';
import { useSessionStore } from '../../../stores/session-store.ts';
import { apiHandler, apiOk, reply } from '../../../test/api.ts';
import { apiCalls, server } from '../../../test/msw.ts';
import { onWideScreen } from '../../../test/wide-screen.ts';
import { prefetchExports } from '../api.ts';
import { ExportRecordsPage } from './export-records-page.tsx';

const DONE: ExportRecord = {
  record_id: 11,
  kind: 'excel',
  kind_name: 'Excel导出',
  status: 'done',
  status_name: '已完成',
  progress: 100,
  row_count: 25,
  file_name: '发票明细.xlsx',
  file_size: 20480,
  error: null,
  summary: '开票日期 2026-11-01 至 2026-11-30',
  created_by_name: '开票员小王',
  created_at: '2026-11-10T02:00:00.000Z',
  finished_at: '2026-11-10T02:00:05.000Z',
  expires_at: '2026-11-17T02:00:00.000Z',
};
const RUNNING: ExportRecord = {
  ...DONE,
  record_id: 12,
  kind: 'pdf_zip',
  kind_name: 'PDF批量下载',
  status: 'running',
  status_name: '导出中',
  progress: 40,
  file_name: '发票PDF.zip',
  file_size: null,
  summary: '所选发票 3 张',
  finished_at: null,
};
const FAILED: ExportRecord = {
  ...DONE,
  record_id: 13,
  status: 'failed',
  status_name: '失败',
  file_size: null,
  error: '没有符合条件的发票',
  summary: '发票号码 0001',
  finished_at: null,
};

const PATH = '/v3/invoice-export/list';
const lists = () => apiCalls(PATH).map((c) => c.body);
const page = (list: ExportRecord[]) => ({ list, total: list.length, page: 1, page_size: 10 });

function renderPage() {
  return render(
    <MemoryRouter initialEntries={['/query/invoice/export-records']}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <AntdProvider>
          <ExportRecordsPage />
        </AntdProvider>
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

const rowOf = (summary: string) => screen.getByText(summary).closest('tr') as HTMLElement;

describe('ExportRecordsPage', { timeout: 60_000 }, () => {
  // every column, as at 1600 px and wider
  onWideScreen();
  afterEach(() => useSessionStore.getState().reset());

  it('lists the exports with their state, size and time; only a finished one can be downloaded', async () => {
    server.use(apiOk('POST', PATH, page([DONE, FAILED])));
    renderPage();
    expect(await screen.findByText(DONE.summary)).toBeTruthy();
    const done = rowOf(DONE.summary);
    expect(within(done).getByText('已完成')).toBeTruthy();
    expect(within(done).getByText('20.0 KB')).toBeTruthy();
    expect(within(done).getByText('开票员小王')).toBeTruthy();
    expect((within(done).getByRole('button', { name: /下载/ }) as HTMLButtonElement).disabled).toBe(false);
    const failed = rowOf(FAILED.summary);
    expect(within(failed).getByText('没有符合条件的发票')).toBeTruthy();
    expect((within(failed).getByRole('button', { name: /下载/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(failed).getByText('导出失败，请重新导出')).toBeTruthy();
    expect(screen.getByText('第 1-2 条/总共 2 条')).toBeTruthy();
    expect(screen.getByRole('button', { name: /返回发票明细/ })).toBeTruthy();
    expect(screen.getByLabelText('PDF批量下载和Excel导出在后台生成，完成后可下载；文件保留7天')).toBeTruthy();
    expect(lists()).toEqual([{ page: 1, page_size: 10 }]);
  });

  it('asks again every 2 s while an export is being built, and stops once it is done', async () => {
    server.use(
      apiHandler('POST', PATH, () =>
        reply.ok(
          page(lists().length <= 1 ? [RUNNING] : [{ ...RUNNING, status: 'done', status_name: '已完成' }]),
        ),
      ),
    );
    renderPage();
    expect(await screen.findByLabelText('导出进度')).toBeTruthy();
    await waitFor(() => expect(lists()).toHaveLength(2), { timeout: 5_000 });
    await waitFor(() => expect(screen.queryByLabelText('导出进度')).toBeNull());
    expect(screen.getByText('已完成')).toBeTruthy();
    // done: no further asking
    await new Promise((r) => setTimeout(r, 2_500));
    expect(lists()).toHaveLength(2);
  });

  it('asks again on 刷新', async () => {
    server.use(apiOk('POST', PATH, page([DONE])));
    renderPage();
    await screen.findByText(DONE.summary);
    fireEvent.click(screen.getByRole('button', { name: '刷新' }));
    await waitFor(() => expect(lists()).toHaveLength(2));
  });

  it('takes the first page asked for with its code instead of asking again (issue 24 item 6)', async () => {
    server.use(apiOk('POST', PATH, page([DONE])));
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
    prefetchExports();
    await waitFor(() => expect(lists()).toHaveLength(1));
    renderPage();
    expect(await screen.findByText(DONE.summary)).toBeTruthy();
    expect(lists()).toHaveLength(1);
  });
});
