import { TERMS } from '@kaipiao/shared/glossary/terms';
import { formatMoney, formatQuantity, formatUnitPrice } from '@kaipiao/shared/money/capital';
import {
  REASON_RULES,
  RED_REASONS,
  type RedBlueInfo,
  type RedBlueLine,
  type RedLineInput,
  type RedReason,
} from '@kaipiao/shared/schemas/red-info';
import { beijingDay } from '@kaipiao/shared/time/beijing';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Empty,
  Input,
  InputNumber,
  Modal,
  Radio,
  Result,
  Skeleton,
  Space,
  Table,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { toastSuccess } from '../../../lib/antd/feedback.ts';
import { scopedKey } from '../../../lib/query-scope.ts';
import { applyRed, type BlueCandidate, blueInfoQuery, findBlueInvoices } from '../api.ts';

const money = (v: string | number) => formatMoney(String(v));

/** Step 1 without ?invoice_id: find the blue invoice by its number. */
function PickBlue({ onPick }: { onPick: (id: number) => void }) {
  const [rows, setRows] = useState<BlueCandidate[] | null>(null);
  const [loading, setLoading] = useState(false);
  return (
    <Card title={`选择${TERMS.blueInvoice}`}>
      <Input.Search
        style={{ maxWidth: 420 }}
        placeholder={`输入${TERMS.blueInvoice}号码（完整号码或后几位）`}
        enterButton="查询"
        loading={loading}
        onSearch={async (v) => {
          if (!v.trim()) return;
          setLoading(true);
          try {
            setRows((await findBlueInvoices(v.trim())).list);
          } finally {
            setLoading(false);
          }
        }}
      />
      {rows && (
        <Table<BlueCandidate>
          style={{ marginTop: 16 }}
          rowKey="invoice_id"
          size="small"
          pagination={false}
          dataSource={rows}
          locale={{ emptyText: <Empty description={`没有可${TERMS.redLetter}的${TERMS.blueInvoice}`} /> }}
          columns={[
            { title: TERMS.invoiceNo, dataIndex: 'invoice_no' },
            { title: TERMS.invoiceKind, dataIndex: 'invoice_type_name' },
            { title: TERMS.buyer, dataIndex: 'buyer_name' },
            { title: TERMS.totalWithTax, dataIndex: 'total_with_tax', align: 'right', render: money },
            { title: '状态', dataIndex: 'status_name' },
            {
              title: '操作',
              render: (_, r) => (
                <Button type="link" size="small" onClick={() => onPick(r.invoice_id)}>
                  选择
                </Button>
              ),
            },
          ]}
        />
      )}
    </Card>
  );
}

function kindHint(info: RedBlueInfo): string {
  if (info.kind === 'confirm') {
    return info.needs_confirmation
      ? `${TERMS.buyer}已勾选或入账该发票：提交后为“${TERMS.sellerShort}录入待${TERMS.buyerShort}确认”（02），${TERMS.buyer}须在72小时内确认，确认后自动开具${TERMS.redInvoice}；超时未确认自动${TERMS.void}（07）。`
      : `${TERMS.buyer}未勾选、未入账该发票：${TERMS.seller}提交的${TERMS.redConfirmForm}无需确认（01），提交后自动开具${TERMS.redInvoice}。`;
  }
  if (info.kind === 'info_sheet')
    return `税控专用发票须填开${TERMS.redInfoSheet}，税局审核通过后（取得信息表编号）再开具${TERMS.redInvoice}。`;
  return `税控普通发票无需填开信息表，提交后直接开具${TERMS.redInvoice}（${TERMS.remark}自动注明对应${TERMS.blueInvoice}代码和号码）。`;
}

type Entry = { quantity?: number | null; amount?: number | null };

/** The red-info fill-in page (/red-info/modify?invoice_id=…). */
export function RedModifyPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const raw = Number(params.get('invoice_id'));
  const invoiceId = Number.isSafeInteger(raw) && raw > 0 ? raw : null;
  const q = useQuery(blueInfoQuery(invoiceId));
  const [reason, setReason] = useState<RedReason | null>(null);
  const [full, setFull] = useState(true);
  const [entries, setEntries] = useState<Record<number, Entry>>({});
  const [remark, setRemark] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const info = q.data;
  const rule = reason ? REASON_RULES[reason] : null;
  const untouched = info ? info.remaining_with_tax === info.blue.total_with_tax : true;
  const fullOnly = Boolean(rule?.fullOnly) || Boolean(info?.has_discount);
  const isFull = fullOnly || full;

  const redTotal = useMemo(() => {
    if (!info) return 0;
    if (isFull) return Number(info.remaining_with_tax);
    let sum = 0;
    for (const l of info.lines) {
      const e = entries[l.line_no];
      if (!e) continue;
      if (reason === '02') sum += (e.quantity ?? 0) * Number(l.unit_price_with_tax ?? 0);
      else sum += e.amount ?? 0;
    }
    return Math.round(sum * 100) / 100;
  }, [info, isFull, entries, reason]);

  if (invoiceId === null) return <PickBlue onPick={(id) => setParams({ invoice_id: String(id) })} />;
  if (q.isLoading) return <Skeleton active paragraph={{ rows: 12 }} />;
  if (q.isError || !info) {
    return (
      <Result
        status="warning"
        title={`该发票不能${TERMS.redLetter}`}
        subTitle={(q.error as Error | null)?.message ?? '发票不存在或不属于当前企业'}
        extra={<Button onClick={() => setParams({})}>重新选择{TERMS.blueInvoice}</Button>}
      />
    );
  }
  const b = info.blue;

  const setEntry = (lineNo: number, e: Entry) =>
    setEntries((s) => ({ ...s, [lineNo]: { ...s[lineNo], ...e } }));
  const columns = [
    { title: '行号', dataIndex: 'line_no', width: 56 },
    { title: TERMS.itemName, dataIndex: 'full_name' },
    {
      title: TERMS.quantity,
      dataIndex: 'quantity',
      width: 70,
      render: (v: string | null) => formatQuantity(v) || '—',
    },
    {
      title: `含税${TERMS.unitPrice}`,
      dataIndex: 'unit_price_with_tax',
      width: 100,
      render: (v: string | null) => formatUnitPrice(v) || '—',
    },
    {
      title: TERMS.totalWithTax,
      dataIndex: 'amount_with_tax',
      width: 110,
      align: 'right' as const,
      render: money,
    },
    { title: TERMS.taxRate, dataIndex: 'tax_rate', width: 64, render: (v: string) => `${Number(v) * 100}%` },
    {
      title: `可${TERMS.redLetter}`,
      width: 140,
      render: (_: unknown, l: RedBlueLine) => (
        <Space direction="vertical" size={0}>
          <span>¥{money(l.remaining_with_tax)}</span>
          {l.remaining_quantity !== null && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {TERMS.quantity} {formatQuantity(l.remaining_quantity)}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    ...(!isFull && rule
      ? [
          {
            title: `本次${TERMS.redLetter}`,
            width: 260,
            render: (_: unknown, l: RedBlueLine) => (
              <Space>
                {rule.quantity && (
                  <InputNumber
                    aria-label={`第${l.line_no}行${TERMS.redLetter}${TERMS.quantity}`}
                    placeholder={TERMS.quantity}
                    min={0}
                    max={l.remaining_quantity === null ? undefined : Number(l.remaining_quantity)}
                    disabled={l.quantity === null}
                    value={entries[l.line_no]?.quantity ?? null}
                    onChange={(v) => setEntry(l.line_no, { quantity: v })}
                    style={{ width: 100 }}
                  />
                )}
                {rule.amount && (
                  <InputNumber
                    aria-label={`第${l.line_no}行${TERMS.redLetter}${TERMS.amount}`}
                    placeholder={`${TERMS.amount}（含税）`}
                    min={0}
                    max={Number(l.remaining_with_tax)}
                    precision={2}
                    value={entries[l.line_no]?.amount ?? null}
                    onChange={(v) => setEntry(l.line_no, { amount: v })}
                    style={{ width: 130 }}
                  />
                )}
              </Space>
            ),
          },
        ]
      : []),
  ];

  async function submit() {
    if (!reason || !info) return;
    const lines: RedLineInput[] = [];
    if (!isFull) {
      for (const l of info.lines) {
        const e = entries[l.line_no];
        const qty = rule?.quantity && e?.quantity ? String(e.quantity) : null;
        const amt = rule?.amount && e?.amount ? e.amount.toFixed(2) : null;
        if (qty || amt) lines.push({ blue_line_no: l.line_no, quantity: qty, amount_with_tax: amt });
      }
    }
    setSubmitting(true);
    try {
      const form = await applyRed({ invoice_id: info.blue.invoice_id, reason, full: isFull, lines, remark });
      setConfirming(false);
      toastSuccess(
        form.red_invoice?.status === 'issued'
          ? `${TERMS.redInvoice}已开具：${form.red_invoice.invoice_no}`
          : `${form.kind_name}已提交：${form.state_name}`,
      );
      // this page's blue invoice may have nothing left to redden now: mark it stale without asking
      // again while the page is still shown (that refetch answered "已全额红冲" beside the success)
      const blueKey = blueInfoQuery(info.blue.invoice_id).queryKey;
      void client.invalidateQueries({ queryKey: blueKey, refetchType: 'none' });
      void client.invalidateQueries({
        queryKey: scopedKey('red-info'),
        predicate: (query) => JSON.stringify(query.queryKey) !== JSON.stringify(blueKey),
      });
      void client.invalidateQueries({ queryKey: scopedKey('invoice-detail') });
      navigate(`/red-info/sheet?form_id=${form.form_id}`);
    } catch {
      // the API client showed the reason
    } finally {
      setSubmitting(false);
    }
  }

  // why 提交 cannot be pressed yet, said beside it
  const blocked = !reason
    ? `请先选择${TERMS.redLetter}原因`
    : info.pending_form_id !== null
      ? `该发票有待确认的${TERMS.redConfirmForm}，不能再次提交`
      : !isFull && redTotal <= 0
        ? `请填写要${TERMS.redLetter}的${TERMS.quantity}或${TERMS.amount}`
        : null;

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card title={`填写${info.kind_name}`}>
        <Descriptions
          size="small"
          bordered
          column={3}
          items={[
            { key: 't', label: `${TERMS.blueInvoice}种类`, children: b.invoice_type_name },
            {
              key: 'n',
              label: TERMS.invoiceNo,
              children: `${b.invoice_code ? `${b.invoice_code} ` : ''}${b.invoice_no}`,
            },
            {
              key: 'i',
              label: TERMS.issueDate,
              children: b.issued_at ? beijingDay(b.issued_at) : '—',
            },
            { key: 'buyer', label: TERMS.buyer, children: b.buyer_name, span: 2 },
            { key: 'w', label: TERMS.totalWithTax, children: `¥${money(b.total_with_tax)}` },
            {
              key: 'ra',
              label: `可${TERMS.redLetter}${TERMS.amount}`,
              children: `¥${money(info.remaining_amount)}`,
            },
            {
              key: 'rt',
              label: `可${TERMS.redLetter}${TERMS.taxAmount}`,
              children: `¥${money(info.remaining_tax)}`,
            },
            {
              key: 'rw',
              label: `可${TERMS.redLetter}${TERMS.totalWithTax}`,
              children: `¥${money(info.remaining_with_tax)}`,
            },
          ]}
        />
        <Alert style={{ marginTop: 16 }} type="info" showIcon message={kindHint(info)} />
        {info.pending_form_id !== null && (
          <Alert
            style={{ marginTop: 12 }}
            type="error"
            showIcon
            message={`该发票有待确认的${TERMS.redConfirmForm}，${TERMS.blueInvoice}已锁定`}
            action={
              <Button
                size="small"
                onClick={() => navigate(`/red-info/sheet?form_id=${info.pending_form_id}`)}
              >
                查看
              </Button>
            }
          />
        )}
      </Card>
      <Card title={`${TERMS.redLetter}信息`}>
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <Space align="center" wrap>
            <Typography.Text strong>{TERMS.redLetter}原因</Typography.Text>
            <Radio.Group
              value={reason}
              onChange={(e) => {
                setReason(e.target.value);
                setEntries({});
              }}
              options={(Object.keys(RED_REASONS) as RedReason[]).map((r) => ({
                value: r,
                label: RED_REASONS[r],
                disabled: !info.reasons.includes(r) || (r === '01' && !untouched),
              }))}
            />
          </Space>
          <Space align="center" wrap>
            <Typography.Text strong>{TERMS.redLetter}方式</Typography.Text>
            <Radio.Group
              value={isFull ? 'full' : 'partial'}
              onChange={(e) => setFull(e.target.value === 'full')}
              disabled={fullOnly}
              options={[
                { value: 'full', label: `全额${TERMS.redLetter}` },
                { value: 'partial', label: `部分${TERMS.redLetter}` },
              ]}
            />
            {reason === '01' && (
              <Typography.Text type="secondary">开票有误只能全额{TERMS.redLetter}</Typography.Text>
            )}
            {info.has_discount && (
              <Typography.Text type="secondary">含折扣行的发票只能全额{TERMS.redLetter}</Typography.Text>
            )}
            {reason === '02' && !isFull && (
              <Typography.Text type="secondary">
                销货退回按退回{TERMS.quantity}
                {TERMS.redLetter}
              </Typography.Text>
            )}
            {reason === '04' && !isFull && (
              <Typography.Text type="secondary">
                销售折让只填折让{TERMS.amount}，不填{TERMS.quantity}和{TERMS.unitPrice}
              </Typography.Text>
            )}
          </Space>
          <Table<RedBlueLine>
            rowKey="line_no"
            size="small"
            pagination={false}
            columns={columns}
            dataSource={info.lines}
          />
          <Input.TextArea
            aria-label={TERMS.remark}
            placeholder={`${TERMS.remark}（选填，系统自动注明对应${TERMS.blueInvoice}和确认单编号）`}
            maxLength={200}
            showCount
            value={remark}
            onChange={(e) => setRemark(e.target.value)}
            autoSize={{ minRows: 2 }}
          />
          <Space size={24}>
            <span>
              本次{TERMS.redLetter}
              {TERMS.totalWithTax}：
              <Typography.Text type="danger" strong>
                ¥{money(-redTotal)}
              </Typography.Text>
            </span>
            <Button
              type="primary"
              loading={submitting}
              disabled={blocked !== null}
              aria-describedby={blocked ? 'red-submit-blocked' : undefined}
              onClick={() => setConfirming(true)}
            >
              提交
            </Button>
            <Button onClick={() => navigate('/red-info/sheet')}>返回列表</Button>
            {blocked && (
              <Typography.Text id="red-submit-blocked" type="secondary">
                {blocked}
              </Typography.Text>
            )}
          </Space>
          <Modal
            open={confirming}
            title={`确认提交${info.kind_name}`}
            okText={info.kind === 'info_sheet' ? '确认提交' : `确认${TERMS.redLetter}`}
            cancelText="返回修改"
            confirmLoading={submitting}
            onOk={submit}
            onCancel={() => setConfirming(false)}
            destroyOnHidden
          >
            <Descriptions
              size="small"
              column={1}
              bordered
              items={[
                {
                  key: 'blue',
                  label: TERMS.blueInvoice,
                  children: `${b.invoice_type_name} ${b.invoice_code ? `${b.invoice_code} ` : ''}${b.invoice_no}`,
                },
                { key: 'buyer', label: TERMS.buyer, children: b.buyer_name },
                {
                  key: 'reason',
                  label: `${TERMS.redLetter}原因`,
                  children: reason ? RED_REASONS[reason] : '—',
                },
                {
                  key: 'way',
                  label: `${TERMS.redLetter}方式`,
                  children: isFull ? `全额${TERMS.redLetter}` : `部分${TERMS.redLetter}`,
                },
                {
                  key: 'total',
                  label: `本次${TERMS.redLetter}${TERMS.totalWithTax}`,
                  children: (
                    <Typography.Text type="danger" strong>
                      ¥{money(-redTotal)}
                    </Typography.Text>
                  ),
                },
                ...(remark.trim() ? [{ key: 'remark', label: TERMS.remark, children: remark.trim() }] : []),
              ]}
            />
            <Alert style={{ marginTop: 12 }} type="info" showIcon message={kindHint(info)} />
          </Modal>
        </Space>
      </Card>
    </Space>
  );
}
