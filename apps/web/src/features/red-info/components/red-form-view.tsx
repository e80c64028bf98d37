import { formatMoney, formatQuantity, formatUnitPrice } from '@kaipiao/shared/money/capital';
import type { RedForm, RedLine } from '@kaipiao/shared/schemas/red-info';
import { beijingDateTime } from '@kaipiao/shared/time/beijing';
import { Descriptions, Table, Typography } from 'antd';
import { RedInvoiceText, RedStateTag, timeLeft } from './red-state-tag.tsx';

const money = (v: string) => formatMoney(v);
const time = (iso: string | null) => (iso ? beijingDateTime(iso) : '—');

const lineColumns = [
  { title: '蓝字行号', dataIndex: 'blue_line_no', width: 80 },
  { title: '项目名称', dataIndex: 'full_name' },
  { title: '规格型号', dataIndex: 'spec', width: 90, render: (v: string) => v || '—' },
  { title: '单位', dataIndex: 'unit', width: 60, render: (v: string) => v || '—' },
  {
    title: '数量',
    dataIndex: 'quantity',
    width: 80,
    align: 'right' as const,
    render: (v: string | null) => formatQuantity(v) || '—',
  },
  {
    title: '单价',
    dataIndex: 'unit_price',
    width: 100,
    align: 'right' as const,
    render: (v: string | null) => formatUnitPrice(v) || '—',
  },
  { title: '金额', dataIndex: 'amount', width: 110, align: 'right' as const, render: money },
  {
    title: '税率',
    dataIndex: 'tax_rate',
    width: 70,
    render: (v: string) => `${Number((Number(v) * 100).toFixed(4))}%`,
  },
  { title: '税额', dataIndex: 'tax_amount', width: 100, align: 'right' as const, render: money },
];

/** One red form: the bureau's fields, the blue invoice it reverses, the red lines and the red invoice. */
export function RedFormView({ form, print = false }: { form: RedForm; print?: boolean }) {
  const b = form.blue;
  return (
    <>
      <Descriptions
        size="small"
        bordered
        column={2}
        items={[
          { key: 'kind', label: '单据类型', children: form.kind_name },
          {
            key: 'no',
            label: form.kind === 'confirm' ? '确认单编号' : '信息表编号',
            children: form.form_no || '—',
          },
          {
            key: 'state',
            label: '状态',
            children: (
              <>
                <RedStateTag form={form} />
                {form.expires_at && !print && (
                  <Typography.Text type="warning">{timeLeft(form.expires_at)}</Typography.Text>
                )}
              </>
            ),
          },
          { key: 'init', label: '录入方', children: form.initiator === 'buyer' ? '购买方' : '销售方' },
          { key: 'reason', label: '红冲原因', children: `${form.reason} ${form.reason_name}` },
          { key: 'full', label: '红冲方式', children: form.full ? '全额红冲' : '部分红冲' },
          { key: 'bt', label: '蓝字发票种类', children: b.invoice_type_name },
          {
            key: 'bn',
            label: '蓝字发票号码',
            children: `${b.invoice_code ? `${b.invoice_code} ` : ''}${b.invoice_no ?? ''}`,
          },
          { key: 'bi', label: '蓝字开票日期', children: time(b.issued_at) },
          { key: 'bw', label: '蓝字价税合计', children: `¥${money(b.total_with_tax)}` },
          { key: 'seller', label: '销售方', children: `${b.seller_name}（${b.seller_tax_code}）` },
          {
            key: 'buyer',
            label: '购买方',
            children: `${b.buyer_name}${b.buyer_tax_code ? `（${b.buyer_tax_code}）` : ''}`,
          },
          { key: 'ra', label: '红字金额', children: `¥${money(form.total_amount)}` },
          { key: 'rt', label: '红字税额', children: `¥${money(form.total_tax)}` },
          {
            key: 'rw',
            label: '红字价税合计',
            children: (
              <Typography.Text type="danger" strong>{`¥${money(form.total_with_tax)}`}</Typography.Text>
            ),
          },
          { key: 'ri', label: '红字发票', children: <RedInvoiceText form={form} /> },
          { key: 'ct', label: '填开时间', children: time(form.created_at) },
          { key: 'cb', label: '填开人', children: form.created_by_name },
          ...(form.remark ? [{ key: 'rm', label: '备注', children: form.remark, span: 2 }] : []),
        ]}
      />
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        红字明细
      </Typography.Title>
      <Table<RedLine>
        rowKey="blue_line_no"
        size="small"
        pagination={false}
        columns={lineColumns}
        dataSource={form.lines}
        bordered={print}
      />
      {form.red_invoice?.error_message && (
        <Typography.Paragraph type="danger" style={{ marginTop: 8 }}>
          红字发票开具失败：{form.red_invoice.error_message}
        </Typography.Paragraph>
      )}
    </>
  );
}
