import { DownloadOutlined, MailOutlined, PrinterOutlined } from '@ant-design/icons';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import { formatQuantity, formatUnitPrice } from '@kaipiao/shared/money/capital';
import type { InvoiceDetail, InvoiceLineView } from '@kaipiao/shared/schemas/query';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Descriptions,
  Drawer,
  Empty,
  Result,
  Skeleton,
  Space,
  Table,
  Tag,
  Timeline,
  Typography,
} from 'antd';
import { useState } from 'react';
import { downloadUrl } from '../../../api/documents.ts';
import { InvoiceRedActions } from '../../../components/invoice-actions/invoice-red-actions.tsx';
import { SendEmailModal } from '../../../components/send-email-modal.tsx';
import { invoiceDetailQuery } from '../api.ts';
import { beijingTime, fileSize, money2 } from '../utils.ts';
import { DirectionTag, StatusTag } from './status-tag.tsx';

const EVENT_COLORS: Record<string, string> = {
  issued: 'green',
  reconciled: 'green',
  emailed: 'blue',
  failed: 'red',
  email_failed: 'red',
  reddened: 'orange',
  voided: 'gray',
};

function eventText(e: InvoiceDetail['events'][number]): string {
  const d = e.detail as Record<string, unknown>;
  if (e.kind === 'issued' && d.invoice_no) return `${TERMS.invoiceNo} ${d.invoice_no}`;
  if ((e.kind === 'emailed' || e.kind === 'email_failed') && d.email) return `收件人 ${d.email}`;
  if (e.kind === 'failed' && (d.message || d.code)) return String(d.message ?? `错误码 ${d.code}`);
  if (e.kind === 'reddened' && d.red_invoice_no)
    return `${TERMS.redInvoice} ${d.red_invoice_no}，${TERMS.totalWithTax} ${money2(String(d.amount_with_tax ?? ''))}`;
  if (e.kind === 'rendered' && Array.isArray(d.files))
    return `生成 ${(d.files as { kind: string }[]).map((f) => f.kind.toUpperCase()).join('、')}`;
  return '';
}

const lineColumns = [
  { title: '序号', dataIndex: 'line_no', width: 56 },
  {
    title: TERMS.itemName,
    dataIndex: 'full_name',
    render: (v: string, l: InvoiceLineView) => (
      <Space direction="vertical" size={0}>
        <span>{v}</span>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {l.tax_class_code}
          {l.line_kind === 1 ? ' · 折扣行' : ''}
        </Typography.Text>
      </Space>
    ),
  },
  { title: TERMS.spec, dataIndex: 'spec', width: 90, render: (v: string) => v || '—' },
  { title: TERMS.unit, dataIndex: 'unit', width: 70, render: (v: string) => v || '—' },
  {
    title: TERMS.quantity,
    dataIndex: 'quantity',
    width: 80,
    align: 'right' as const,
    render: (v: string | null) => formatQuantity(v) || '—',
  },
  {
    title: TERMS.unitPrice,
    dataIndex: 'unit_price',
    width: 110,
    align: 'right' as const,
    render: (v: string | null) => formatUnitPrice(v) || '—',
  },
  { title: TERMS.amount, dataIndex: 'amount', width: 110, align: 'right' as const, render: money2 },
  { title: TERMS.taxRate, dataIndex: 'tax_rate_label', width: 70 },
  { title: TERMS.taxAmount, dataIndex: 'tax_amount', width: 100, align: 'right' as const, render: money2 },
];

function Body({ d }: { d: InvoiceDetail }) {
  const inv = d.invoice;
  const [mailOpen, setMailOpen] = useState(false);
  const issued = Boolean(inv.invoice_no && inv.issued_at);
  return (
    <Space direction="vertical" size={20} style={{ width: '100%' }}>
      {inv.error_message && <Alert type="error" showIcon message={`开具失败：${inv.error_message}`} />}
      <Descriptions
        size="small"
        column={2}
        bordered
        items={[
          { key: 'type', label: TERMS.invoiceKind, children: inv.invoice_type_name, span: 2 },
          { key: 'code', label: TERMS.invoiceCode, children: inv.invoice_code || '—' },
          {
            key: 'no',
            label: TERMS.invoiceNo,
            children: inv.invoice_no ? <Typography.Text copyable>{inv.invoice_no}</Typography.Text> : '—',
          },
          { key: 'issued', label: TERMS.issueTime, children: beijingTime(inv.issued_at, true) },
          {
            key: 'status',
            label: '状态',
            children: (
              <Space size={4}>
                <DirectionTag direction={inv.direction} />
                <StatusTag status={inv.status_key} />
              </Space>
            ),
          },
          { key: 'store', label: TERMS.store, children: inv.store_name || '—' },
          { key: 'serial', label: '流水号', children: inv.serial_no },
          { key: 'check', label: '校验码', children: inv.check_code || '—' },
          { key: 'drawer', label: TERMS.drawer, children: inv.drawer || inv.created_by_name || '—' },
          ...(inv.small_scale_reason
            ? [{ key: 'slsm', label: '3%征收率原因', span: 2, children: inv.small_scale_reason }]
            : []),
        ]}
      />
      <Descriptions
        size="small"
        column={2}
        bordered
        title={`${TERMS.buyer} / ${TERMS.seller}`}
        items={[
          { key: 'bn', label: `${TERMS.buyer}名称`, children: inv.buyer_name },
          { key: 'sn', label: `${TERMS.seller}名称`, children: inv.seller_name },
          { key: 'bt', label: `${TERMS.buyer}${TERMS.taxCodeShort}`, children: inv.buyer_tax_code || '—' },
          { key: 'st', label: `${TERMS.seller}${TERMS.taxCodeShort}`, children: inv.seller_tax_code },
          {
            key: 'ba',
            label: '地址电话',
            children: [inv.buyer_address, inv.buyer_phone].filter(Boolean).join(' ') || '—',
          },
          {
            key: 'sa',
            label: '地址电话',
            children: [inv.seller_address, inv.seller_phone].filter(Boolean).join(' ') || '—',
          },
          {
            key: 'bb',
            label: '开户行及账号',
            children: [inv.buyer_bank_name, inv.buyer_bank_account].filter(Boolean).join(' ') || '—',
          },
          {
            key: 'sb',
            label: '开户行及账号',
            children: [inv.seller_bank_name, inv.seller_bank_account].filter(Boolean).join(' ') || '—',
          },
          { key: 'em', label: `${TERMS.buyer}邮箱`, children: inv.buyer_email || '—', span: 2 },
        ]}
      />
      <div>
        <Typography.Title level={5}>项目明细</Typography.Title>
        <Table<InvoiceLineView>
          rowKey="line_no"
          size="small"
          pagination={false}
          columns={lineColumns}
          dataSource={d.lines}
          scroll={{ x: 760 }}
          summary={() => (
            <Table.Summary.Row>
              <Table.Summary.Cell index={0} colSpan={6}>
                合计（{TERMS.totalWithTax} ¥{money2(inv.total_with_tax)}）
              </Table.Summary.Cell>
              <Table.Summary.Cell index={6} align="right">
                {money2(inv.total_amount)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={7} />
              <Table.Summary.Cell index={8} align="right">
                {money2(inv.total_tax)}
              </Table.Summary.Cell>
            </Table.Summary.Row>
          )}
        />
        {inv.remark && (
          <Typography.Paragraph type="secondary" style={{ marginTop: 8, whiteSpace: 'pre-wrap' }}>
            {TERMS.remark}：{inv.remark}
          </Typography.Paragraph>
        )}
      </div>
      {d.specific_business && (
        <div>
          <Typography.Title level={5}>特定业务：{d.specific_business.name}</Typography.Title>
          <Typography.Paragraph code style={{ whiteSpace: 'pre-wrap' }}>
            {JSON.stringify(d.specific_business.data, null, 2)}
          </Typography.Paragraph>
        </div>
      )}
      {d.original && (
        <Alert
          type="info"
          showIcon
          message={`本发票为${TERMS.redInvoice}，对应${TERMS.blueInvoice} ${d.original.invoice_code}${d.original.invoice_no ?? ''}（${TERMS.totalWithTax} ${money2(d.original.total_with_tax)}）`}
        />
      )}
      {d.red && (
        <Descriptions
          size="small"
          column={3}
          bordered
          title={`${TERMS.redLetter}情况`}
          items={[
            {
              key: 'n',
              label: TERMS.redInvoice,
              children: d.red.red_invoices.length ? `${d.red.red_invoices.length} 张` : '无',
            },
            {
              key: 'r',
              label: `已${TERMS.redLetter}${TERMS.totalWithTax}`,
              children: money2(d.red.reddened_with_tax),
            },
            { key: 'left', label: `可${TERMS.redLetter}余额`, children: money2(d.red.remaining_with_tax) },
          ]}
        />
      )}
      <div>
        <Typography.Title level={5}>版式文件</Typography.Title>
        {d.files.length === 0 ? (
          <Typography.Text type="secondary">发票未开具成功，没有版式文件</Typography.Text>
        ) : (
          <Space wrap>
            {d.files.map((f) => (
              <Button key={f.kind} icon={<DownloadOutlined />} href={downloadUrl(inv.invoice_id, f.kind)}>
                下载 {f.kind.toUpperCase()}
                {f.ready && f.size !== null ? `（${fileSize(f.size)}）` : ''}
              </Button>
            ))}
            {issued && (
              <Button icon={<MailOutlined />} onClick={() => setMailOpen(true)}>
                重发邮件
              </Button>
            )}
            {issued && (
              // roll / ticket printing in a tab of its own (spec §2 /external/print-ticket)
              <Button
                icon={<PrinterOutlined />}
                href={`/external/print-ticket?invoice_id=${inv.invoice_id}`}
                target="_blank"
              >
                打印小票
              </Button>
            )}
          </Space>
        )}
      </div>
      <div>
        <Typography.Title level={5}>操作记录</Typography.Title>
        {d.events.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无记录" />
        ) : (
          <Timeline
            items={d.events.map((e) => ({
              key: e.id,
              color: EVENT_COLORS[e.kind] ?? 'blue',
              children: (
                <Space direction="vertical" size={0}>
                  <Space size={8}>
                    <Typography.Text strong>{e.kind_name}</Typography.Text>
                    <Tag bordered={false}>{e.user_name}</Tag>
                  </Space>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {beijingTime(e.created_at, true)}
                    {eventText(e) ? ` · ${eventText(e)}` : ''}
                  </Typography.Text>
                </Space>
              ),
            }))}
          />
        )}
      </div>
      <SendEmailModal
        open={mailOpen}
        invoiceId={inv.invoice_id}
        defaultEmail={inv.buyer_email}
        onClose={() => setMailOpen(false)}
      />
    </Space>
  );
}

/** The library's detail drawer (POST /v3/invoice-detail/get-invoice-detail). */
export function InvoiceDetailDrawer({
  invoiceId,
  onClose,
}: {
  invoiceId: number | null;
  onClose: () => void;
}) {
  const q = useQuery(invoiceDetailQuery(invoiceId));
  return (
    <Drawer
      title="发票详情"
      width={880}
      open={invoiceId !== null}
      onClose={onClose}
      destroyOnHidden
      extra={q.data && <InvoiceRedActions invoice={q.data.invoice} onLeave={onClose} />}
    >
      {q.isLoading && <Skeleton active paragraph={{ rows: 12 }} />}
      {q.isError && (
        <Result status="warning" title="发票详情加载失败" subTitle="发票不存在或不属于当前企业" />
      )}
      {q.data && <Body d={q.data} />}
    </Drawer>
  );
}
