import type { TaxEquipment } from '@kaipiao/shared/schemas/invoice';
import { Space, Tag, Typography } from 'antd';

type Device = Pick<
  TaxEquipment,
  'name' | 'kind' | 'kind_name' | 'is_main' | 'extension_no' | 'locked' | 'online'
>;

/** a tax-control device's disc (主盘, 分盘n); a 数电 account has none */
const discOf = (d: Device) => (d.kind === 'digital' ? null : d.is_main ? '主盘' : `分盘${d.extension_no}`);

function State({ device: d }: { device: Device }) {
  if (d.locked) return <Tag color="red">已锁死</Tag>;
  return d.online ? <Tag color="green">在线</Tag> : <Tag>离线</Tag>;
}

/** A device in a select's list: its name, kind, disc and state. */
export function DeviceOption({ device: d }: { device: Device }) {
  return (
    <Space size={4}>
      <span>{d.name}</span>
      <Typography.Text type="secondary">{d.kind_name}</Typography.Text>
      {discOf(d) && <Tag>{discOf(d)}</Tag>}
      <State device={d} />
    </Space>
  );
}

/**
 * The chosen device in the select's box: the name (cut with … when the box is narrow, whole on
 * hover) and its state, which always shows — the list's kind and disc would push it out of a
 * one-third column at 1280 px.
 */
export function DeviceValue({ device: d }: { device: Device }) {
  const disc = discOf(d);
  const name = disc ? `${d.name}（${disc}）` : d.name;
  return (
    <span style={{ display: 'flex', alignItems: 'center', gap: 4, minWidth: 0 }}>
      <Typography.Text ellipsis={{ tooltip: name }} style={{ minWidth: 0 }}>
        {name}
      </Typography.Text>
      <State device={d} />
    </span>
  );
}
