import type { RedForm } from '@kaipiao/shared/schemas/red-info';
import { Tag } from 'antd';

const COLORS: Record<RedForm['state_class'], string> = {
  pending: 'processing',
  confirmed: 'success',
  void: 'default',
};

const ELLIPSIS = {
  maxWidth: '100%',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  verticalAlign: 'bottom',
} as const;

/** A red form's state: pending (blue), confirmed (green), void (grey); the code for 确认单. */
export function RedStateTag({
  form,
}: {
  form: Pick<RedForm, 'kind' | 'state' | 'state_name' | 'state_class'>;
}) {
  const text = form.kind === 'confirm' ? `${form.state} ${form.state_name}` : form.state_name;
  return (
    // a long state (05 作废（销方录入购方否认）) ends in … in a narrow column, in full on hover
    <Tag color={COLORS[form.state_class]} bordered={false} title={text} style={ELLIPSIS}>
      {text}
    </Tag>
  );
}

/** The red invoice's own state, once there is one. */
export function RedInvoiceText({ form }: { form: Pick<RedForm, 'red_invoice'> }) {
  const r = form.red_invoice;
  if (!r) return <span>—</span>;
  if (r.status === 'issued') return <span>{`${r.invoice_code}${r.invoice_no ?? ''}`}</span>;
  if (r.status === 'failed') return <Tag color="error">开具失败</Tag>;
  return <Tag color="processing">开具中</Tag>;
}

/** Time left to confirm, e.g. "剩余 71小时58分". */
export function timeLeft(expiresAt: string | null, now = Date.now()): string {
  if (!expiresAt) return '';
  const ms = Date.parse(expiresAt) - now;
  if (ms <= 0) return '已超时';
  const h = Math.floor(ms / 3600_000);
  const m = Math.floor((ms % 3600_000) / 60_000);
  return `剩余 ${h}小时${m}分`;
}
