import { TERMS } from '@kaipiao/shared/glossary/terms';
import { formatMoney, formatQuantity, formatUnitPrice } from '@kaipiao/shared/money/capital';
import type { RedForm, RedLine } from '@kaipiao/shared/schemas/red-info';
import { beijingDateTime } from '@kaipiao/shared/time/beijing';
import { Descriptions, Table, Typography } from 'antd';
import { RedInvoiceText, RedStateTag, timeLeft } from './red-state-tag.tsx';

const money = (v: string) => formatMoney(v);
const time = (iso: string | null) => (iso ? beijingDateTime(iso) : '—');

const lineColumns = [
  { title: `${TERMS.blueShort}行号`, dataIndex: 'blue_line_no', width: 80 },
  { title: TERMS.itemName, dataIndex: 'full_name' },
  { title: TERMS.spec, dataIndex: 'spec', width: 90, render: (v: string) => v || '—' },
  { title: TERMS.unit, dataIndex: 'unit', width: 60, render: (v: string) => v || '—' },
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
    width: 100,
    align: 'right' as const,
    render: (v: string | null) => formatUnitPrice(v) || '—',
  },
  { title: TERMS.amount, dataIndex: 'amount', width: 110, align: 'right' as const, render: money },
  {
    title: TERMS.taxRate,
    dataIndex: 'tax_rate',
    width: 70,
    render: (v: string) => `${Number((Number(v) * 100).toFixed(4))}%`,
  },
  { title: TERMS.taxAmount, dataIndex: 'tax_amount', width: 100, align: 'right' as const, render: money },
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
          { key: 'init', label: '录入方', children: form.initiator === 'buyer' ? TERMS.buyer : TERMS.seller },
          { key: 'reason', label: `${TERMS.redLetter}原因`, children: `${form.reason} ${form.reason_name}` },
          {
            key: 'full',
            label: `${TERMS.redLetter}方式`,
            children: form.full ? `全额${TERMS.redLetter}` : `部分${TERMS.redLetter}`,
          },
          { key: 'bt', label: `${TERMS.blueInvoice}种类`, children: b.invoice_type_name },
          {
            key: 'bn',
            label: `${TERMS.blueInvoice}号码`,
            children: `${b.invoice_code ? `${b.invoice_code} ` : ''}${b.invoice_no ?? ''}`,
          },
          { key: 'bi', label: `${TERMS.blueShort}${TERMS.issueDate}`, children: time(b.issued_at) },
          {
            key: 'bw',
            label: `${TERMS.blueShort}${TERMS.totalWithTax}`,
            children: `¥${money(b.total_with_tax)}`,
          },
          { key: 'seller', label: TERMS.seller, children: `${b.seller_name}（${b.seller_tax_code}）` },
          {
            key: 'buyer',
            label: TERMS.buyer,
            children: `${b.buyer_name}${b.buyer_tax_code ? `（${b.buyer_tax_code}）` : ''}`,
          },
          { key: 'ra', label: `${TERMS.redShort}${TERMS.amount}`, children: `¥${money(form.total_amount)}` },
          { key: 'rt', label: `${TERMS.redShort}${TERMS.taxAmount}`, children: `¥${money(form.total_tax)}` },
          {
            key: 'rw',
            label: `${TERMS.redShort}${TERMS.totalWithTax}`,
            children: (
              <Typography.Text type="danger" strong>{`¥${money(form.total_with_tax)}`}</Typography.Text>
            ),
          },
          { key: 'ri', label: TERMS.redInvoice, children: <RedInvoiceText form={form} /> },
          { key: 'ct', label: '填开时间', children: time(form.created_at) },
          { key: 'cb', label: '填开人', children: form.created_by_name },
          ...(form.remark ? [{ key: 'rm', label: TERMS.remark, children: form.remark, span: 2 }] : []),
        ]}
      />
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {TERMS.redShort}明细
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
          {TERMS.redInvoice}开具失败：{form.red_invoice.error_message}
        </Typography.Paragraph>
      )}
    </>
  );
}
