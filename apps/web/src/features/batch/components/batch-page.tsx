import { PAGE_SIZES, SUMMARY_STORE_ID } from '@kaipiao/shared/constants/menu';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import type { BatchDryRun, BatchProgress } from '@kaipiao/shared/schemas/batch';
import { MSG } from '@kaipiao/shared/validation/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Progress, Skeleton, Space, Steps, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { alertError, toastSuccess } from '../../../lib/antd/feedback.ts';
import { beijingTime, money } from '../../../lib/format.ts';
import { scopedKey } from '../../../lib/query-scope.ts';
import { useSessionStore } from '../../../stores/session-store.ts';
import {
  type BatchAction,
  batchAction,
  downloadResult,
  dryRunQuery,
  historyQuery,
  progressQuery,
} from '../api/batch.ts';
import { DryRunPanel } from './dry-run-panel.tsx';
import { BatchStatusTag } from './labels.tsx';
import { ProgressPanel } from './progress-panel.tsx';
import { UploadPanel } from './upload-panel.tsx';

const ACTION_DONE: Record<BatchAction, string> = {
  start: '已开始开票',
  pause: '已暂停，已提交税局的发票会继续完成',
  resume: '已继续开票',
  cancel: '已取消批次',
  retry: '失败的发票已重新开具',
};

/** spec §2 /invoice/batch 批量开票: template, upload and report, dry run, issuing with progress, history. */
export function BatchPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const store = useSessionStore((s) => s.store);
  const summary = !store || store.client_store_id === SUMMARY_STORE_ID;
  const [current, setCurrent] = useState<number | null>(null);
  const [busy, setBusy] = useState<BatchAction | null>(null);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZES[0]);

  const history = useQuery(historyQuery(page, pageSize));
  const progress = useQuery({ ...progressQuery(current ?? 0), enabled: current !== null });
  const dryRun = useQuery({
    ...dryRunQuery(current ?? 0),
    enabled: current !== null && progress.data?.status === 'ready',
  });
  const p = progress.data;
  // the history follows the current batch's state (running → done, paused …)
  const currentStatus = p?.status;
  useEffect(() => {
    if (currentStatus) void queryClient.invalidateQueries({ queryKey: scopedKey('batch', 'list') });
  }, [currentStatus, queryClient]);

  const refresh = (id: number) => {
    void queryClient.invalidateQueries({ queryKey: scopedKey('batch') });
    setCurrent(id);
  };

  async function act(action: BatchAction) {
    if (current === null) return;
    setBusy(action);
    try {
      const next = await batchAction(action, current);
      queryClient.setQueryData(progressQuery(current).queryKey, next);
      toastSuccess(ACTION_DONE[action]);
      refresh(current);
    } catch {
      // the API client has shown the message (bookkeeping notice, state, quota)
      void progress.refetch();
    } finally {
      setBusy(null);
    }
  }

  const step = !p ? 0 : p.status === 'ready' ? 2 : 3;
  const uploaded = (d: BatchDryRun) => {
    queryClient.setQueryData(dryRunQuery(d.batch_id).queryKey, d);
    refresh(d.batch_id);
  };

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card variant="borderless">
        <Steps
          size="small"
          current={step}
          items={[
            { title: '下载模板并填写' },
            { title: '上传校验' },
            { title: '预览确认' },
            { title: '开票' },
          ]}
          style={{ marginBottom: 24 }}
        />
        {summary ? (
          <Alert
            type="info"
            showIcon
            message={`请先切换到具体${TERMS.store}`}
            description={MSG.SUMMARY_GUIDE}
            action={
              <Button
                type="primary"
                onClick={() =>
                  navigate(`/user/switch-store?redirect=${encodeURIComponent('/invoice/batch')}`)
                }
              >
                切换{TERMS.store}
              </Button>
            }
          />
        ) : p?.status === 'ready' && dryRun.data ? (
          <DryRunPanel
            dryRun={dryRun.data}
            busy={busy !== null}
            onStart={() => act('start')}
            onDiscard={() => act('cancel').then(() => setCurrent(null))}
          />
        ) : p?.status === 'ready' ? (
          <Skeleton active />
        ) : p ? (
          <Space direction="vertical" style={{ width: '100%' }}>
            <ProgressPanel progress={p} busy={busy} onAction={act} />
            <Button type="link" onClick={() => setCurrent(null)} style={{ paddingLeft: 0 }}>
              上传新的批量开票文件
            </Button>
          </Space>
        ) : (
          <UploadPanel
            storeId={store?.client_store_id ?? SUMMARY_STORE_ID}
            disabled={false}
            onUploaded={uploaded}
          />
        )}
      </Card>

      <Card variant="borderless" title="批量开票记录">
        <Table<BatchProgress>
          size="small"
          rowKey="batch_id"
          loading={history.isLoading}
          dataSource={history.data?.list ?? []}
          pagination={{
            current: page,
            pageSize,
            total: history.data?.total ?? 0,
            pageSizeOptions: PAGE_SIZES.map(String),
            showSizeChanger: true,
            showTotal: (n) => `共 ${n} 批`,
            onChange: (pg, size) => {
              setPage(size !== pageSize ? 1 : pg);
              setPageSize(size);
            },
          }}
          rowClassName={(r) => (r.batch_id === current ? 'ant-table-row-selected' : '')}
          // a phone's width scrolls the table, not the page
          scroll={{ x: 940 }}
          columns={[
            // issue 24 item 1: at 1280–1599 px the store and the uploader give their room to the
            // file name (the store is the one chosen; both are in the batch's detail)
            {
              title: '批次',
              dataIndex: 'batch_id',
              width: 70,
              className: 'kp-num',
              render: (v: number) => `#${v}`,
            },
            {
              title: '上传时间',
              dataIndex: 'created_at',
              width: 170,
              className: 'kp-num',
              render: (v: string) => beijingTime(v, true),
            },
            { title: '文件', dataIndex: 'file_name', ellipsis: true },
            {
              title: TERMS.store,
              dataIndex: 'store_name',
              width: 120,
              ellipsis: true,
              responsive: ['xxl'],
            },
            {
              title: '上传人',
              dataIndex: 'created_by_name',
              width: 100,
              ellipsis: true,
              responsive: ['xxl'],
            },
            {
              title: '状态',
              dataIndex: 'status',
              width: 120,
              render: (_: unknown, r) => (
                <Space direction="vertical" size={0}>
                  <BatchStatusTag status={r.status} failed={r.failed} />
                  {r.notice && <Typography.Text type="warning">记账服务已到期</Typography.Text>}
                </Space>
              ),
            },
            {
              title: '进度',
              width: 180,
              render: (_: unknown, r) => (
                <Space direction="vertical" size={0} style={{ width: '100%' }}>
                  <Progress
                    aria-label={`批次 #${r.batch_id} 的开票进度`}
                    percent={r.percent}
                    size="small"
                    status={r.failed ? 'exception' : undefined}
                  />
                  <Typography.Text type="secondary">
                    已开 {r.issued} / {r.total}
                    {r.failed ? `，失败 ${r.failed}` : ''}
                  </Typography.Text>
                </Space>
              ),
            },
            {
              title: TERMS.totalWithTax,
              dataIndex: 'total_with_tax',
              align: 'right',
              width: 130,
              className: 'kp-num',
              render: (v: string) => money(v),
            },
            {
              title: '操作',
              width: 150,
              render: (_: unknown, r) => (
                <Space size={0}>
                  <Button type="link" size="small" onClick={() => setCurrent(r.batch_id)}>
                    查看
                  </Button>
                  {r.status !== 'ready' && (
                    <Button
                      type="link"
                      size="small"
                      onClick={() =>
                        downloadResult(r.batch_id).catch((e: Error) => alertError('下载失败', e.message))
                      }
                    >
                      下载结果
                    </Button>
                  )}
                </Space>
              ),
            },
          ]}
        />
      </Card>
    </Space>
  );
}
