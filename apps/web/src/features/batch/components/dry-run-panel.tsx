import { TERMS } from '@kaipiao/shared/glossary/terms';
import type { BatchDryRun } from '@kaipiao/shared/schemas/batch';
import { Alert, Button, Descriptions, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { WhyDisabled } from '../../../components/why-disabled.tsx';
import { money } from '../../../lib/format.ts';

const REASON = { amount: '超过单张限额', lines: '超过行数上限' } as const;

type Props = {
  dryRun: BatchDryRun;
  busy: boolean;
  onStart: () => void;
  onDiscard: () => void;
};

/** Step 3: what starting the batch will do — count, totals, splits, quota — then start. */
export function DryRunPanel({ dryRun: d, busy, onStart, onDiscard }: Props) {
  const navigate = useNavigate();
  const extra = d.invoice_count - d.source_count;
  // why 开始开票 cannot be pressed, said beside it (issue 24 item 2)
  const blocked = !d.bookkeeping_active
    ? '开票服务已暂停，请先恢复服务'
    : d.device.locked
      ? `${TERMS.device}已锁死，请先完成抄税清卡`
      : !d.device.online
        ? `${TERMS.device}离线，请检查设备后重新校验`
        : !d.quota.enough && (d.quota.kind === 'quota' ? '本月发票额度不足' : '发票库存不足');
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Alert
        type="success"
        showIcon
        message={`文件校验通过：${d.source_count} 张发票、${d.line_count} 行商品明细，尚未开具，请确认后开始开票`}
      />
      {d.notice && (
        <Alert
          type="warning"
          showIcon
          message={d.notice}
          action={
            <Button size="small" onClick={() => navigate('/freeTrial/bookkeeping')}>
              恢复服务
            </Button>
          }
        />
      )}
      {d.duplicate_of && (
        <Alert
          type="warning"
          showIcon
          message={`该文件与批次 #${d.duplicate_of.batch_id} 的文件完全相同，请确认不是重复开票`}
        />
      )}
      <Descriptions bordered size="small" column={{ xs: 1, md: 2, xl: 3 }} aria-label="开票预览">
        <Descriptions.Item label="文件">{d.file_name}</Descriptions.Item>
        <Descriptions.Item label={TERMS.device}>
          {d.device.name}（{d.device.kind_name}）
          {d.device.locked ? <Tag color="red">已锁死</Tag> : !d.device.online ? <Tag>离线</Tag> : null}
        </Descriptions.Item>
        <Descriptions.Item label="单张限额（不含税）">{money(d.device.per_invoice_limit)}</Descriptions.Item>
        <Descriptions.Item label="将开具发票">
          <Typography.Text strong>{d.invoice_count}</Typography.Text> 张
          {extra > 0 && (
            <Typography.Text type="secondary">
              （文件 {d.source_count} 张，{d.split_sources} 张拆分后多出 {extra} 张）
            </Typography.Text>
          )}
        </Descriptions.Item>
        <Descriptions.Item label={`按${TERMS.invoiceKindShort}`}>
          {d.by_type.map((t) => (
            <Tag key={t.invoice_type}>
              {t.name} {t.count} 张
            </Tag>
          ))}
        </Descriptions.Item>
        <Descriptions.Item label="商品明细">{d.line_count} 行</Descriptions.Item>
        <Descriptions.Item label={TERMS.totalAmount}>{money(d.total_amount)}</Descriptions.Item>
        <Descriptions.Item label={TERMS.totalTax}>{money(d.total_tax)}</Descriptions.Item>
        <Descriptions.Item label={TERMS.totalWithTax}>
          <Typography.Text strong>¥{money(d.total_with_tax)}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={d.quota.kind === 'quota' ? '本月发票额度' : '发票库存'} span={3}>
          {d.quota.kind === 'quota' ? (
            <span>
              本批需 {money(d.quota.needed)} 元，剩余{' '}
              {d.quota.remaining === null ? '不限' : `${money(d.quota.remaining)} 元`}
            </span>
          ) : (
            <span>
              {d.quota.stock.map((s) => (
                <Tag key={s.invoice_type} color={s.needed > s.remaining ? 'red' : undefined}>
                  {s.invoice_type} 需 {s.needed} 张 / 剩余 {s.remaining} 张
                </Tag>
              ))}
            </span>
          )}{' '}
          {d.quota.enough ? <Tag color="green">充足</Tag> : <Tag color="red">不足</Tag>}
        </Descriptions.Item>
        <Descriptions.Item label="邮件发送">
          {d.send_email ? `开具后发送到${TERMS.buyer}邮箱` : '不发送'}
        </Descriptions.Item>
      </Descriptions>
      {d.splits.length > 0 && (
        <Table
          size="small"
          aria-label="拆分明细"
          title={() => `需要拆分的发票（${d.split_sources} 张）`}
          rowKey="source_serial"
          dataSource={d.splits}
          pagination={{ pageSize: 5, showSizeChanger: false }}
          columns={[
            { title: '流水号', dataIndex: 'source_serial' },
            { title: '发票信息行号', dataIndex: 'source_row', width: 120 },
            { title: TERMS.totalAmount, dataIndex: 'total_amount', render: (v: string) => money(v) },
            { title: '拆分为', dataIndex: 'parts', render: (n: number) => `${n} 张` },
            {
              title: '原因',
              dataIndex: 'reasons',
              render: (rs: ('amount' | 'lines')[]) => rs.map((r) => <Tag key={r}>{REASON[r]}</Tag>),
            },
          ]}
        />
      )}
      <Space>
        {blocked ? (
          <WhyDisabled reason={blocked} beside>
            <Button type="primary">开始开票</Button>
          </WhyDisabled>
        ) : (
          <Popconfirm
            title={`确认开具 ${d.invoice_count} 张发票？`}
            description="开票开始后可以暂停或取消，已开具的发票不会撤回。"
            okText="开始开票"
            cancelText="再看看"
            onConfirm={onStart}
          >
            <Button type="primary" loading={busy}>
              开始开票
            </Button>
          </Popconfirm>
        )}
        <Button onClick={onDiscard} disabled={busy}>
          放弃本批
        </Button>
      </Space>
    </Space>
  );
}
