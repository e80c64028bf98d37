import { DownloadOutlined } from '@ant-design/icons';
import { PAGE_SIZES } from '@kaipiao/shared/constants/menu';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import {
  BATCH_ROW_STATUS,
  type BatchProgress,
  type BatchRow,
  type BatchRowStatus,
} from '@kaipiao/shared/schemas/batch';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Col,
  Popconfirm,
  Progress,
  Row,
  Segmented,
  Space,
  Statistic,
  Table,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { alertError } from '../../../lib/antd/feedback.ts';
import { beijingTime, money } from '../../../lib/format.ts';
import { type BatchAction, downloadResult, rowsQuery } from '../api/batch.ts';
import { BatchStatusTag, RowStatusTag } from './labels.tsx';

type Props = {
  progress: BatchProgress;
  busy: BatchAction | null;
  onAction: (action: BatchAction) => void;
};

const FILTERS: { value: BatchRowStatus | ''; label: string }[] = [
  { value: '', label: '全部' },
  { value: 'failed', label: BATCH_ROW_STATUS.failed },
  { value: 'issued', label: BATCH_ROW_STATUS.issued },
  { value: 'pending', label: BATCH_ROW_STATUS.pending },
  { value: 'skipped', label: BATCH_ROW_STATUS.skipped },
];

/** Step 4: the live progress bar, the controls and the rows of one batch. */
export function ProgressPanel({ progress: p, busy, onAction }: Props) {
  const navigate = useNavigate();
  const [filter, setFilter] = useState<BatchRowStatus | ''>('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZES[0]);
  const rows = useQuery(rowsQuery(p.batch_id, filter, page, pageSize));
  const settled = p.issued + p.failed + p.skipped;
  const { refetch } = rows;
  // the rows follow the progress while the batch runs
  useEffect(() => {
    if (settled >= 0) void refetch();
  }, [settled, refetch]);

  const status =
    p.status === 'running'
      ? 'active'
      : p.failed > 0
        ? 'exception'
        : p.status === 'done'
          ? 'success'
          : 'normal';
  const finishingNote =
    p.status !== 'running' && p.issuing > 0 ? `正在完成已提交税局的 ${p.issuing} 张发票…` : null;
  const run = (a: BatchAction) => onAction(a);

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} aria-label="开票进度">
      <Space wrap>
        <Typography.Title level={5} style={{ margin: 0 }}>
          批次 #{p.batch_id}
        </Typography.Title>
        <BatchStatusTag status={p.status} failed={p.failed} />
        <Typography.Text type="secondary">
          {p.file_name} · {p.device_name} · {p.store_name} · {p.created_by_name} 上传于{' '}
          {beijingTime(p.created_at, true)}
        </Typography.Text>
      </Space>
      {p.notice && (
        <Alert
          type="warning"
          showIcon
          message={p.notice}
          action={
            <Button size="small" onClick={() => navigate('/freeTrial/bookkeeping')}>
              恢复服务
            </Button>
          }
        />
      )}
      <Progress
        aria-label="批量开票进度"
        percent={p.percent}
        status={status}
        success={{ percent: p.total ? Math.floor((p.issued / p.total) * 100) : 0 }}
        format={() => `${settled} / ${p.total}`}
      />
      {finishingNote && <Typography.Text type="secondary">{finishingNote}</Typography.Text>}
      <Row gutter={16}>
        <Col xs={12} md={4}>
          <Statistic title="发票总数" value={p.total} />
        </Col>
        <Col xs={12} md={4}>
          <Statistic title="已开具" value={p.issued} valueStyle={{ color: '#389e0d' }} />
        </Col>
        <Col xs={12} md={4}>
          <Statistic
            title="开具失败"
            value={p.failed}
            valueStyle={p.failed ? { color: '#cf1322' } : undefined}
          />
        </Col>
        <Col xs={12} md={4}>
          <Statistic title="待开具" value={p.pending + p.issuing} />
        </Col>
        <Col xs={12} md={4}>
          <Statistic title="已取消" value={p.skipped} />
        </Col>
        <Col xs={12} md={4}>
          <Statistic title={`已开${TERMS.totalWithTax}`} value={money(p.issued_with_tax)} prefix="¥" />
        </Col>
      </Row>
      <Space wrap>
        {p.status === 'running' && (
          <Button loading={busy === 'pause'} onClick={() => run('pause')}>
            暂停
          </Button>
        )}
        {p.status === 'paused' && (
          <Button type="primary" loading={busy === 'resume'} onClick={() => run('resume')}>
            继续开票
          </Button>
        )}
        {(p.status === 'running' || p.status === 'paused') && (
          <Popconfirm
            title="确认取消本批次？"
            description="尚未开具的发票将不再开具，已开具的发票不受影响。"
            okText="取消批次"
            cancelText="不取消"
            onConfirm={() => run('cancel')}
          >
            <Button danger loading={busy === 'cancel'}>
              取消批次
            </Button>
          </Popconfirm>
        )}
        {p.failed > 0 && p.status !== 'cancelled' && (
          <Button loading={busy === 'retry'} onClick={() => run('retry')}>
            重试失败的 {p.failed} 张
          </Button>
        )}
        <Button
          icon={<DownloadOutlined />}
          onClick={() => downloadResult(p.batch_id).catch((e: Error) => alertError('下载失败', e.message))}
        >
          下载开票结果
        </Button>
      </Space>
      <Segmented
        aria-label="按状态筛选"
        value={filter}
        onChange={(v) => {
          setFilter(v as BatchRowStatus | '');
          setPage(1);
        }}
        options={FILTERS}
      />
      <Table<BatchRow>
        size="small"
        rowKey="seq"
        loading={rows.isLoading}
        dataSource={rows.data?.list ?? []}
        pagination={{
          current: page,
          pageSize,
          total: rows.data?.total ?? 0,
          pageSizeOptions: PAGE_SIZES.map(String),
          showSizeChanger: true,
          showTotal: (n) => `共 ${n} 张`,
          onChange: (pg, size) => {
            setPage(size !== pageSize ? 1 : pg);
            setPageSize(size);
          },
        }}
        columns={[
          { title: '序号', dataIndex: 'seq', width: 70 },
          {
            title: '文件流水号',
            dataIndex: 'source_serial',
            render: (v: string, r) => (r.part_count > 1 ? `${v}（${r.part_no}/${r.part_count}）` : v),
          },
          { title: TERMS.buyer, dataIndex: 'buyer_name', ellipsis: true },
          {
            title: TERMS.totalWithTax,
            dataIndex: 'total_with_tax',
            align: 'right',
            render: (v: string) => money(v),
          },
          {
            title: '状态',
            dataIndex: 'status',
            width: 100,
            render: (s: BatchRowStatus) => <RowStatusTag status={s} />,
          },
          {
            title: TERMS.invoiceNo,
            dataIndex: 'invoice_no',
            render: (v: string | null, r) => (v ? `${r.invoice_code ? `${r.invoice_code} ` : ''}${v}` : '—'),
          },
          {
            title: '失败原因',
            dataIndex: 'error_message',
            ellipsis: true,
            render: (v: string | null, r) => (r.status === 'issued' ? '' : (v ?? '')),
          },
        ]}
      />
    </Space>
  );
}
