import { ArrowLeftOutlined, DownloadOutlined } from '@ant-design/icons';
import { type ActionType, type ProColumns, ProTable } from '@ant-design/pro-components';
import { PAGE_SIZES } from '@kaipiao/shared/constants/menu';
import type { ExportRecord } from '@kaipiao/shared/schemas/query';
import { Badge, Button, Progress, Space, Tooltip, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { WhyDisabled } from '../../../components/why-disabled.tsx';
import { alertError } from '../../../lib/antd/feedback.ts';
import { downloadExport, listExports } from '../api.ts';
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

const active = (rows: readonly ExportRecord[]) =>
  rows.some((r) => r.status === 'queued' || r.status === 'running');

/** spec §2 hidden /query/invoice/export-records: bulk PDF and Excel exports, their progress and files. */
export function ExportRecordsPage() {
  const navigate = useNavigate();
  const [downloading, setDownloading] = useState<number | null>(null);
  const action = useRef<ActionType>(null);
  // kept alive while its tab is open: effects re-run each time the page is shown again, so a new
  // export made on the library page appears at once
  useEffect(() => {
    action.current?.reload();
  }, []);

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

  const columns: ProColumns<ExportRecord>[] = [
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
    { title: '操作人', dataIndex: 'created_by_name', width: 110, ellipsis: true, responsive: ['xxl'] },
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
      valueType: 'option',
      width: 90,
      fixed: 'right',
      render: (_, r) => [
        <WhyDisabled key="download" reason={r.status !== 'done' && notReady(r.status)}>
          <Button
            type="link"
            size="small"
            icon={<DownloadOutlined />}
            loading={downloading === r.record_id}
            onClick={() => download(r)}
          >
            下载
          </Button>
        </WhyDisabled>,
      ],
    },
  ];

  return (
    <ProTable<ExportRecord>
      rowKey="record_id"
      actionRef={action}
      columns={columns}
      search={false}
      cardBordered
      headerTitle="导出记录"
      tooltip="PDF批量下载和Excel导出在后台生成，完成后可下载；文件保留7天"
      scroll={{ x: 900 }}
      options={{ reload: true, density: false, setting: false }}
      // refresh every 2 s while an export is still being built
      polling={(rows) => (active(rows) ? 2000 : 0)}
      pagination={{
        defaultPageSize: PAGE_SIZES[0],
        pageSizeOptions: PAGE_SIZES.map(String),
        showSizeChanger: true,
      }}
      request={async (params) => {
        const page = await listExports(params.current ?? 1, params.pageSize ?? PAGE_SIZES[0]);
        return { data: page.list, total: page.total, success: true };
      }}
      toolBarRender={() => [
        <Button key="back" icon={<ArrowLeftOutlined />} onClick={() => navigate(-1)}>
          返回发票明细
        </Button>,
      ]}
    />
  );
}
