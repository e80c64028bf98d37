import { TERMS } from '@kaipiao/shared/glossary/terms';
import type { DeviceItem, HealthRow } from '@kaipiao/shared/schemas/devices';
import { beijingMonthDayMinutes } from '@kaipiao/shared/time/beijing';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Drawer,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { openDialog } from '../../../components/dialog-host/index.ts';
import { useSessionStore } from '../../../stores/session-store.ts';
import { deviceDetailQuery, devicesQuery, healthQuery } from '../api/devices.ts';
import { DiscTag, LoginTag, money, OnlineBadge, RealNameTag, timeLeft, typeName } from './common.tsx';

function StockCell({ d }: { d: DeviceItem }) {
  if (d.monthly_quota !== null) {
    return (
      <Space direction="vertical" size={0}>
        <span>
          已用 {money(d.quota_used)} / {money(d.monthly_quota)}
        </span>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          本月发票总额度
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

/** Tax-session health board: every 电子税务局 account × clerk, so a session is renewed before an invoice fails. */
export function HealthBoard() {
  const clientId = useSessionStore((s) => s.business?.client_id);
  const q = useQuery(healthQuery(clientId));
  const rows = q.data ?? [];
  const lapsed = new Set(rows.filter((r) => r.login_state !== 'online').map((r) => r.tax_account_id)).size;
  const columns: TableColumnsType<HealthRow> = [
    {
      title: TERMS.taxBureauAccount,
      key: 'account',
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong>{r.person_name}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.account}
          </Typography.Text>
        </Space>
      ),
    },
    { title: '开票员', dataIndex: 'clerk_name', width: 120 },
    { title: TERMS.digitalAccount, dataIndex: 'device_name', width: 240, render: (v: string) => v || '—' },
    {
      title: '登录状态',
      dataIndex: 'login_state',
      width: 100,
      render: (v: string) => <LoginTag state={v} />,
    },
    {
      title: '实名状态',
      dataIndex: 'real_name_state',
      width: 110,
      render: (v: string) => <RealNameTag state={v} />,
    },
    {
      title: '会话剩余',
      key: 'left',
      width: 150,
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          <Typography.Text type={r.seconds_left < 1800 ? 'danger' : undefined}>
            {timeLeft(r.seconds_left)}
          </Typography.Text>
          {r.session_expires_at && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              至 {beijingMonthDayMinutes(r.session_expires_at)}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: '操作',
      key: 'op',
      width: 110,
      render: (_, r) =>
        r.device_id ? (
          <Button
            type="link"
            size="small"
            onClick={() => openDialog('real-name', { device_id: r.device_id! })}
          >
            {r.login_state === 'online' ? '实名认证' : '税局登录'}
          </Button>
        ) : (
          <Typography.Text type="secondary">未绑定设备</Typography.Text>
        ),
    },
  ];
  return (
    <Card
      title="税局会话健康看板"
      size="small"
      data-testid="health-board"
      extra={
        lapsed > 0 ? <Tag color="red">{lapsed}个账号需重新登录</Tag> : <Tag color="green">全部账号在线</Tag>
      }
    >
      <Table
        rowKey={(r) => `${r.tax_account_id}-${r.clerk_id}`}
        size="small"
        loading={q.isLoading}
        columns={columns}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 900 }}
        locale={{ emptyText: `暂无${TERMS.taxBureauAccount}` }}
      />
    </Card>
  );
}

function DeviceDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const clientId = useSessionStore((s) => s.business?.client_id);
  const q = useQuery(deviceDetailQuery(clientId, id));
  const d = q.data;
  return (
    <Drawer open={id !== null} onClose={onClose} width={720} title={d ? `设备详情：${d.name}` : '设备详情'}>
      {d && (
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <Descriptions column={2} size="small" bordered>
            <Descriptions.Item label="设备类型">
              {d.kind_name} <DiscTag d={d} />
            </Descriptions.Item>
            <Descriptions.Item label="状态">
              <OnlineBadge online={d.online} /> {d.locked && <Tag color="red">已锁死</Tag>}
            </Descriptions.Item>
            <Descriptions.Item label={d.kind === 'digital' ? '账号' : '盘号'}>
              {d.device_no}
            </Descriptions.Item>
            <Descriptions.Item label="通道">{d.channel}</Descriptions.Item>
            <Descriptions.Item label="单张限额">{money(d.per_invoice_limit)}</Descriptions.Item>
            <Descriptions.Item label={`可开${TERMS.invoiceKindShort}`}>
              {d.invoice_types.map(typeName).join('、')}
            </Descriptions.Item>
            <Descriptions.Item label={`使用${TERMS.store}`} span={2}>
              {d.stores.map((s) => s.name).join('、') || '—'}
            </Descriptions.Item>
            {d.monthly_quota !== null && (
              <Descriptions.Item label="本月额度" span={2}>
                已用 {money(d.quota_used)} / {money(d.monthly_quota)}
              </Descriptions.Item>
            )}
            {d.filing && (
              <Descriptions.Item label={`${d.filing.period} 抄报`} span={2}>
                {d.filing.cleared_at ? (
                  <Tag color="green">已清卡</Tag>
                ) : d.filing.copied_at ? (
                  <Tag color="blue">已抄税</Tag>
                ) : (
                  <Tag>未抄税</Tag>
                )}
                {d.filing.lock_due && <Tag color="red">已到锁死期</Tag>}
                {d.filing.copy_due && <Tag color="orange">已到抄税期</Tag>}
              </Descriptions.Item>
            )}
          </Descriptions>
          {d.kind !== 'digital' && (
            <>
              <Typography.Title level={5}>发票库存</Typography.Title>
              <Table
                size="small"
                rowKey={(r) => `${r.invoice_code}-${r.start_no}`}
                pagination={false}
                dataSource={d.ranges}
                columns={[
                  { title: TERMS.invoiceKindShort, dataIndex: 'invoice_type', render: typeName },
                  { title: TERMS.invoiceCode, dataIndex: 'invoice_code' },
                  {
                    title: '号段',
                    key: 'range',
                    render: (_, r) =>
                      `${String(r.next_no).padStart(8, '0')} – ${String(r.end_no).padStart(8, '0')}`,
                  },
                  { title: '剩余', dataIndex: 'left', render: (v: number) => `${v}张` },
                ]}
              />
              {d.branches.length > 0 && (
                <div>分盘：{d.branches.map((b) => `${b.name}（分机号${b.extension_no}）`).join('、')}</div>
              )}
            </>
          )}
        </Space>
      )}
    </Drawer>
  );
}

/** /device-project/device: every device with kind, main/branch, state, limits, stock and quota; detail drawer. */
export function DevicesPage() {
  const clientId = useSessionStore((s) => s.business?.client_id);
  const q = useQuery(devicesQuery(clientId));
  const [detail, setDetail] = useState<number | null>(null);
  const columns: TableColumnsType<DeviceItem> = [
    {
      title: '设备 / 账号',
      key: 'name',
      render: (_, d) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong>{d.name}</Typography.Text>
          <Space size={4} wrap>
            <Tag color="blue">{d.kind_name}</Tag>
            <DiscTag d={d} />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {d.device_no}
            </Typography.Text>
          </Space>
        </Space>
      ),
    },
    {
      title: '状态',
      key: 'state',
      width: 120,
      render: (_, d) => (
        <Space direction="vertical" size={0}>
          <OnlineBadge online={d.online} />
          {d.locked ? (
            <Tag color="red">已锁死</Tag>
          ) : (
            <Typography.Text type="secondary">未锁死</Typography.Text>
          )}
          {d.status === 'disabled' && <Tag>已停用</Tag>}
        </Space>
      ),
    },
    { title: '单张限额', dataIndex: 'per_invoice_limit', width: 120, render: (v: string) => money(v) },
    { title: '库存 / 额度', key: 'stock', width: 220, render: (_, d) => <StockCell d={d} /> },
    {
      title: TERMS.store,
      key: 'stores',
      width: 160,
      render: (_, d) => d.stores.map((s) => s.name).join('、') || '—',
    },
    {
      title: '操作',
      key: 'op',
      width: 80,
      render: (_, d) => (
        <Button type="link" size="small" onClick={() => setDetail(d.device_id)}>
          详情
        </Button>
      ),
    },
  ];
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <HealthBoard />
      <Card title={TERMS.device} size="small" data-testid="device-table">
        {q.data?.some((d) => d.locked) && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 12 }}
            message="有设备已锁死，请在报表汇总中完成抄税清卡"
          />
        )}
        <Table
          rowKey="device_id"
          size="small"
          loading={q.isLoading}
          columns={columns}
          dataSource={q.data ?? []}
          pagination={false}
          scroll={{ x: 900 }}
        />
      </Card>
      <DeviceDrawer id={detail} onClose={() => setDetail(null)} />
    </Space>
  );
}
