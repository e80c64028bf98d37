import { TERMS } from '@kaipiao/shared/glossary/terms';
import type { FilingItem } from '@kaipiao/shared/schemas/devices';
import { beijingMonthDayMinutes } from '@kaipiao/shared/time/beijing';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { WhyDisabled } from '../../../components/why-disabled.tsx';
import { toastSuccess } from '../../../lib/antd/feedback.ts';
import { scopedKey } from '../../../lib/query-scope.ts';
import { useSessionStore } from '../../../stores/session-store.ts';
import { fileDevice, filingsQuery } from '../api/devices.ts';
import { money } from './common.tsx';

/**
 * /report-summary/summary: monthly 抄税 / 清卡 per device in the 1st–15th window, with the month's
 * totals. After the 15th a device whose lock is due files late (逾期), which lifts the lock.
 */
/** 抄税/清卡 only in the filing window (1st–15th) or on a device locked for a missed one */
const OUT_OF_WINDOW = '不在征期内（每月1日至15日），无需抄税清卡';

export function SummaryPage() {
  const clientId = useSessionStore((s) => s.business?.client_id);
  const q = useQuery(filingsQuery(clientId));
  const qc = useQueryClient();
  const rows = q.data ?? [];
  const first = rows[0];
  const act = async (action: 'copy' | 'clear', id: number) => {
    await fileDevice(action, id);
    toastSuccess(action === 'copy' ? '汇总上传成功' : '清卡成功');
    await qc.invalidateQueries({ queryKey: scopedKey('devices', clientId) });
  };
  const columns: TableColumnsType<FilingItem> = [
    {
      title: '设备',
      key: 'dev',
      // the name on its line, the kind under it (the column keeps the rest of the table's width)
      render: (_, r) => (
        <>
          <div>{r.device_name}</div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.kind}
          </Typography.Text>
        </>
      ),
    },
    { title: '所属期', dataIndex: 'period', width: 80 },
    { title: '发票份数', dataIndex: 'invoice_count', width: 80 },
    { title: TERMS.totalAmount, dataIndex: 'total_amount', width: 120, render: (v: string) => money(v) },
    { title: TERMS.totalTax, dataIndex: 'total_tax', width: 110, render: (v: string) => money(v) },
    {
      title: '抄税',
      dataIndex: 'copied_at',
      width: 110,
      render: (v: string | null) => (v ? beijingMonthDayMinutes(v) : <Tag>未抄税</Tag>),
    },
    {
      title: '清卡',
      dataIndex: 'cleared_at',
      width: 110,
      render: (v: string | null) => (v ? beijingMonthDayMinutes(v) : <Tag>未清卡</Tag>),
    },
    {
      title: '锁死标志',
      key: 'flags',
      width: 130,
      render: (_, r) => (
        <Space size={4} wrap>
          {r.copy_due && <Tag color="orange">已到抄税期</Tag>}
          {r.lock_due && <Tag color="red">已到锁死期</Tag>}
          {r.locked && <Tag color="red">设备已锁</Tag>}
          {!r.copy_due && !r.lock_due && !r.locked && <Tag color="green">正常</Tag>}
        </Space>
      ),
    },
    {
      title: '操作',
      key: 'op',
      width: 150,
      render: (_, r) => (
        <Space size={0}>
          <WhyDisabled
            reason={!(r.in_window || r.lock_due) ? OUT_OF_WINDOW : !!r.copied_at && '本期已汇总上传'}
          >
            <Button type="link" size="small" onClick={() => act('copy', r.device_id)}>
              汇总上传
            </Button>
          </WhyDisabled>
          <WhyDisabled
            reason={
              !(r.in_window || r.lock_due)
                ? OUT_OF_WINDOW
                : !r.copied_at
                  ? '请先汇总上传'
                  : !!r.cleared_at && '本期已清卡'
            }
          >
            <Button type="link" size="small" onClick={() => act('clear', r.device_id)}>
              清卡
            </Button>
          </WhyDisabled>
        </Space>
      ),
    },
  ];
  return (
    <Card title="报表汇总" size="small">
      {first && (
        <Alert
          style={{ marginBottom: 12 }}
          showIcon
          type={first.in_window ? 'info' : 'warning'}
          message={
            first.in_window
              ? `当前为征期，请在 ${first.window_end} 前完成 ${first.period} 的抄税和清卡`
              : `${first.period} 的征期（每月1日至15日）已结束，未清卡的设备已锁死，逾期完成抄税和清卡后解锁`
          }
        />
      )}
      <Table
        rowKey="device_id"
        size="small"
        loading={q.isLoading}
        columns={columns}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 1010 }}
      />
    </Card>
  );
}
