import { ArrowLeftOutlined, DownloadOutlined } from '@ant-design/icons';
import type { ExportRecord } from '@kaipiao/shared/schemas/query';
import { useQuery } from '@tanstack/react-query';
import { Badge, Button, Progress, Space, Table, type TableColumnsType, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import {
  EllipsisText,
  ListCard,
  useListReload,
  usePaging,
  useStayInRange,
} from '../../../components/list-card.tsx';
import { WhyDisabled } from '../../../components/why-disabled.tsx';
import { alertError } from '../../../lib/antd/feedback.ts';
import { scopedKey } from '../../../lib/query-scope.ts';
import { downloadExport, exportsQuery } from '../api.ts';
import { beijingTime, fileSize } from '../utils.ts';

/** why a record cannot be downloaded (issue 24 item 2) */
function notReady(status: ExportRecord['status']): string {
  if (status === 'failed') return '导出失败，请重新导出';
  if (status === 'expired') return '文件已过期，请重新导出';
  return '正在导出，完成后可下载';
}

const STATUS_BADGE: Record<
  ExportRecord['status'],
  'default' | 'processing' | 'success' | 'error' | 'warning'
> = {
  queued: 'default',
  running: 'processing',
  done: 'success',
  failed: 'error',
  expired: 'warning',
};

/** spec §2 hidden /query/invoice/export-records: bulk PDF and Excel exports, their progress and files. */
export function ExportRecordsPage() {
  const navigate = useNavigate();
  const [downloading, setDownloading] = useState<number | null>(null);
  const { page, pageSize, setPage, pagination } = usePaging();
  // asked each time the page is shown (kept alive in its tab, a new export made on the library page
  // appears when it is shown again) and every 2 s while an export is being built (exportsQuery)
  const list = useQuery(exportsQuery(page, pageSize));
  useStayInRange(list.data, page, pageSize, setPage);
  const { reload, loading } = useListReload(list, scopedKey('invoice-exports'));

  async function download(r: ExportRecord) {
    setDownloading(r.record_id);
    try {
      await downloadExport(r);
    } catch (e) {
      alertError('提示', e instanceof Error ? e.message : String(e));
    } finally {
      setDownloading(null);
    }
  }

  const columns: TableColumnsType<ExportRecord> = [
    // issue 24 item 1: fits at 1280 px; 文件大小 and 操作人 show from 1600 px
    { title: '导出类型', dataIndex: 'kind_name', width: 100 },
    {
      title: '导出范围',
      dataIndex: 'summary',
      ellipsis: true,
      render: (_, r) => <Typography.Text ellipsis={{ tooltip: r.summary }}>{r.summary}</Typography.Text>,
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 170,
      render: (_, r) =>
        r.status === 'running' || r.status === 'queued' ? (
          <Space direction="vertical" size={0} style={{ width: 140 }}>
            <Badge status={STATUS_BADGE[r.status]} text={r.status_name} />
            <Progress aria-label="导出进度" percent={r.progress} size="small" />
          </Space>
        ) : r.status === 'failed' ? (
          <Tooltip title={r.error}>
            <Space direction="vertical" size={0}>
              <Badge status="error" text={r.status_name} />
              <Typography.Text type="danger" style={{ fontSize: 12 }}>
                {r.error}
              </Typography.Text>
            </Space>
          </Tooltip>
        ) : (
          <Badge status={STATUS_BADGE[r.status]} text={r.status_name} />
        ),
    },
    { title: '发票张数', dataIndex: 'row_count', width: 90, align: 'right', className: 'kp-num' },
    {
      title: '文件大小',
      dataIndex: 'file_size',
      width: 100,
      align: 'right',
      className: 'kp-num',
      responsive: ['xxl'],
      render: (_, r) => fileSize(r.file_size),
    },
    {
      title: '操作人',
      dataIndex: 'created_by_name',
      width: 110,
      ellipsis: true,
      responsive: ['xxl'],
      render: (_, r) => <EllipsisText>{r.created_by_name || '-'}</EllipsisText>,
    },
    {
      title: '创建时间',
      dataIndex: 'created_at',
      width: 140,
      className: 'kp-num',
      render: (_, r) => beijingTime(r.created_at),
    },
    {
      title: '有效期至',
      dataIndex: 'expires_at',
      width: 140,
      className: 'kp-num',
      render: (_, r) => beijingTime(r.expires_at),
    },
    {
      title: '操作',
      key: 'option',
      width: 90,
      fixed: 'right',
      render: (_, r) => (
        <WhyDisabled reason={r.status !== 'done' && notReady(r.status)}>
          <Button
            type="link"
            size="small"
            icon={<DownloadOutlined />}
            loading={downloading === r.record_id}
            onClick={() => download(r)}
          >
            下载
          </Button>
        </WhyDisabled>
      ),
    },
  ];

  return (
    <ListCard
      title="导出记录"
      tooltip="PDF批量下载和Excel导出在后台生成，完成后可下载；文件保留7天"
      onReload={reload}
      toolbar={
        <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(-1)}>
          返回发票明细
        </Button>
      }
    >
      <Table<ExportRecord>
        rowKey="record_id"
        columns={columns}
        dataSource={list.data?.list ?? []}
        // the 2 s refreshes while an export is being built change the rows in place, without a spinner
        loading={loading}
        scroll={{ x: 900 }}
        pagination={pagination(list.data?.total ?? 0)}
      />
    </ListCard>
  );
}
