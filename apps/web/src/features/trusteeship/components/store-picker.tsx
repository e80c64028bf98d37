import { TERMS } from '@kaipiao/shared/glossary/terms';
import { Checkbox, Space, Tag, Typography } from 'antd';

type StoreRef = { id: number; name: string };

/** Stores that may issue through a hosted device; stores bound to it locally are shown, not picked. */
export function StorePicker({
  stores,
  bound,
  value,
  onChange,
}: {
  stores: StoreRef[];
  bound: StoreRef[];
  value?: number[];
  onChange?: (ids: number[]) => void;
}) {
  const boundIds = new Set(bound.map((s) => s.id));
  return (
    <Space direction="vertical" size={4}>
      <Checkbox.Group
        value={value}
        onChange={(v) => onChange?.(v as number[])}
        options={stores.map((s) => ({
          value: s.id,
          label: (
            <span>
              {s.name}
              {boundIds.has(s.id) && (
                <Tag color="default" style={{ marginInlineStart: 6 }}>
                  本地设备
                </Tag>
              )}
            </span>
          ),
        }))}
      />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        勾选的{TERMS.store}可通过托管设备开具发票（含扫码开票），无需在{TERMS.store}插入设备
      </Typography.Text>
    </Space>
  );
}
