import { TERMS } from '@kaipiao/shared/glossary/terms';
import { INVOICE_TYPES, type InvoiceType } from '@kaipiao/shared/schemas/invoice';
import type { TrusteeshipItem } from '@kaipiao/shared/schemas/trusteeship';
import { beijingDateTimeMinutes } from '@kaipiao/shared/time/beijing';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Badge,
  Button,
  Card,
  Col,
  Row,
  Space,
  Statistic,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useSessionStore } from '../../../stores/session-store.ts';
import { trusteeshipQuery } from '../api/trusteeship.ts';
import { type DialogState, TrusteeshipDialogs } from './trusteeship-dialogs.tsx';

const STATUS_COLOR = { none: 'default', hosted: 'green', revoked: 'orange' } as const;

const typeName = (code: string) => INVOICE_TYPES[code as InvoiceType] ?? code;
const money = (v: string) =>
  Number(v).toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

function StockCell({ d }: { d: TrusteeshipItem }) {
  if (d.monthly_quota !== null) {
    const left = Number(d.monthly_quota) - Number(d.quota_used);
    return (
      <Space direction="vertical" size={0}>
        <span>剩余额度 {money(String(left))}</span>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          本月已用 {money(d.quota_used)} / {money(d.monthly_quota)}
        </Typography.Text>
      </Space>
    );
  }
  const entries = Object.entries(d.stock);
  if (entries.length === 0) return <Typography.Text type="danger">无余票</Typography.Text>;
  return (
    <Space direction="vertical" size={0}>
      {entries.map(([code, n]) => (
        <span key={code} style={{ fontSize: 12 }}>
          {typeName(code)}：<Typography.Text type={n < 50 ? 'warning' : undefined}>{n}张</Typography.Text>
        </span>
      ))}
    </Space>
  );
}

/** /invoice/trusteeship (托管开票, domain.md §8.4): hand over, online state, stock and quota, stores, revoke. */
export function TrusteeshipPage() {
  const clientId = useSessionStore((s) => s.business?.client_id);
  const q = useQuery(trusteeshipQuery(clientId));
  const [dialog, setDialog] = useState<DialogState>(null);
  const list = q.data?.list ?? [];
  const hosted = list.filter((d) => d.status === 'hosted');

  const columns: TableColumnsType<TrusteeshipItem> = [
    {
      title: '设备 / 账号',
      key: 'name',
      // issue 24 item 1: the column that takes the room left, so that the table fits at 1280 px
      render: (_, d) => (
        <Space direction="vertical" size={0} style={{ display: 'flex' }}>
          <Typography.Text strong ellipsis={{ tooltip: d.name }}>
            {d.name}
          </Typography.Text>
          <Space size={4} wrap>
            <Tag color="blue">{d.kind_name}</Tag>
            {d.kind !== 'digital' && <Tag>{d.is_main ? '主盘' : `分盘${d.extension_no}`}</Tag>}
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {d.device_no}
            </Typography.Text>
          </Space>
        </Space>
      ),
    },
    {
      title: '托管状态',
      key: 'status',
      width: 160,
      render: (_, d) => (
        <Space direction="vertical" size={0}>
          <Tag color={STATUS_COLOR[d.status]}>{d.status_name}</Tag>
          {d.status === 'hosted' && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {d.location}
              <br />
              {d.handed_over_by || '—'} 于{' '}
              <span className="kp-nowrap">
                {d.handed_over_at ? beijingDateTimeMinutes(d.handed_over_at) : '—'}
              </span>{' '}
              托管
            </Typography.Text>
          )}
          {d.status === 'revoked' && d.revoked_at && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              <span className="kp-nowrap">{beijingDateTimeMinutes(d.revoked_at)}</span> 撤销
              {d.revoke_reason ? `：${d.revoke_reason}` : ''}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: '在线状态',
      key: 'online',
      width: 90,
      render: (_, d) => (
        <Space direction="vertical" size={0}>
          <Badge status={d.online ? 'success' : 'default'} text={d.online ? '在线' : '离线'} />
          {d.locked && <Badge status="error" text="已到锁死期" />}
        </Space>
      ),
    },
    { title: '余票 / 额度', key: 'stock', width: 190, render: (_, d) => <StockCell d={d} /> },
    {
      title: '单张限额',
      dataIndex: 'per_invoice_limit',
      width: 110,
      className: 'kp-num',
      align: 'right',
      render: (v: string) => money(v),
    },
    {
      title: `可开票${TERMS.store}`,
      key: 'stores',
      width: 170,
      render: (_, d) => (
        <Space direction="vertical" size={4}>
          {d.bound_stores.map((s) => (
            <Tag key={`b${s.id}`}>{s.name}（本地）</Tag>
          ))}
          {d.granted_stores.map((s) => (
            <Tag key={`g${s.id}`} color="green">
              {s.name}（托管）
            </Tag>
          ))}
          {d.bound_stores.length + d.granted_stores.length === 0 && (
            <Typography.Text type="secondary">—</Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: '操作',
      key: 'actions',
      width: 150,
      fixed: 'right',
      render: (_, d) =>
        d.status === 'hosted' ? (
          <Space size={0}>
            <Button type="link" size="small" onClick={() => setDialog({ kind: 'grant', device: d })}>
              授权{TERMS.store}
            </Button>
            <Button type="link" size="small" danger onClick={() => setDialog({ kind: 'revoke', device: d })}>
              撤销托管
            </Button>
          </Space>
        ) : (
          <Button type="link" size="small" onClick={() => setDialog({ kind: 'hand-over', device: d })}>
            {d.mode === 'account' ? '托管账号' : '托管设备'}
          </Button>
        ),
    },
  ];

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Alert
        type="info"
        showIcon
        message="托管开票"
        description={`将${TERMS.taxControlDevice}（金税盘、税控盘、税务UKey）或${TERMS.digitalAccount}托管至开票台托管中心后，设备在托管机房内7×24小时在线，授权的${TERMS.store}无需本地设备即可开票（含扫码开票）。撤销托管后，授权${TERMS.store}立即不能再通过该设备开票。`}
      />
      <Row gutter={16}>
        <Col span={6}>
          <Card size="small">
            <Statistic title="托管中" value={hosted.length} suffix="台" />
          </Card>
        </Col>
        <Col span={6}>
          <Card size="small">
            <Statistic title="托管在线" value={hosted.filter((d) => d.online).length} suffix="台" />
          </Card>
        </Col>
        <Col span={6}>
          <Card size="small">
            <Statistic
              title={`授权${TERMS.store}`}
              value={new Set(hosted.flatMap((d) => d.granted_stores.map((s) => s.id))).size}
              suffix="家"
            />
          </Card>
        </Col>
        <Col span={6}>
          <Card size="small">
            <Statistic title="可托管设备" value={list.length - hosted.length} suffix="台" />
          </Card>
        </Col>
      </Row>
      <Card
        title="设备与账号"
        extra={
          <Button onClick={() => void q.refetch()} loading={q.isFetching}>
            刷新状态
          </Button>
        }
      >
        <Table<TrusteeshipItem>
          rowKey="device_id"
          size="middle"
          loading={q.isLoading}
          columns={columns}
          dataSource={list}
          pagination={false}
          scroll={{ x: 960 }}
        />
      </Card>
      <TrusteeshipDialogs
        state={dialog}
        stores={q.data?.stores ?? []}
        onClose={() => setDialog(null)}
        onChanged={() => void q.refetch()}
      />
    </Space>
  );
}
