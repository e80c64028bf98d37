import { LOGIN_STATES, REAL_NAME_STATES } from '@kaipiao/shared/schemas/devices';
import { INVOICE_TYPES, type InvoiceType } from '@kaipiao/shared/schemas/invoice';
import { Badge, Tag } from 'antd';

export const typeName = (code: string) => INVOICE_TYPES[code as InvoiceType] ?? code;
export const money = (v: string | number) =>
  Number(v).toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function OnlineBadge({ online }: { online: boolean }) {
  return <Badge status={online ? 'success' : 'default'} text={online ? '在线' : '离线'} />;
}

export function DiscTag({ d }: { d: { kind: string; is_main: boolean; extension_no: number } }) {
  if (d.kind === 'digital') return null;
  return <Tag color={d.is_main ? 'geekblue' : 'cyan'}>{d.is_main ? '主盘' : `分盘${d.extension_no}`}</Tag>;
}

export function LoginTag({ state }: { state: string }) {
  return (
    <Tag color={state === 'online' ? 'green' : 'default'}>
      {LOGIN_STATES[state as keyof typeof LOGIN_STATES] ?? state}
    </Tag>
  );
}

const RN_COLOR: Record<string, string> = {
  verified: 'green',
  pending: 'gold',
  expired: 'red',
  none: 'default',
};
export function RealNameTag({ state }: { state: string }) {
  return (
    <Tag color={RN_COLOR[state] ?? 'default'}>
      {REAL_NAME_STATES[state as keyof typeof REAL_NAME_STATES] ?? state}
    </Tag>
  );
}

/** "2小时15分" / "已过期" */
export function timeLeft(seconds: number): string {
  if (seconds <= 0) return '已失效';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return h > 0 ? `${h}小时${m}分` : `${m}分钟`;
}
