import { dec, formatMoney } from '@kaipiao/shared';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import { Descriptions, Form, Input, Modal, Radio } from 'antd';
import { useState } from 'react';
import { discountAmount, isNumeric, type LineNumbers } from '../utils/line-math.ts';
import type { DraftLine } from '../utils/types.ts';

// 添加折扣 (domain.md §2.4): by amount or percentage, per line; the discount line follows its line
// with the same name, code and rate and a negative amount.

type Discount = NonNullable<DraftLine['discount']>;

type Props = {
  line: DraftLine | null;
  numbers: LineNumbers | null;
  inclusive: boolean;
  initial: Discount | null;
  onOk: (discount: Discount) => void;
  onCancel: () => void;
};

function problem(d: Discount, base: string | null): string | null {
  if (!d.value.trim()) return d.mode === 'amount' ? `请输入折扣${TERMS.amount}` : '请输入折扣比例';
  if (!isNumeric(d.value) || dec(d.value).lte(0)) return '须为大于0的数字';
  if (d.mode === 'percent' && dec(d.value).gt(100)) return '折扣比例不能超过100%';
  if (d.mode === 'amount' && base && dec(d.value).gt(dec(base)))
    return `折扣${TERMS.amount}不能大于被折扣行${TERMS.amount}`;
  return null;
}

export function DiscountModal(props: Props) {
  return props.line ? <DiscountDialog key={props.line.key} {...props} /> : null;
}

function DiscountDialog({ line, numbers, inclusive, initial, onOk, onCancel }: Props) {
  const [d, setD] = useState<Discount>(initial ?? { mode: 'amount', value: '' });
  const [tried, setTried] = useState(false);
  const base = numbers ? (inclusive ? numbers.amountWithTax : numbers.amount) : null;
  const error = problem(d, base);
  const off = error ? null : discountAmount(d, numbers, inclusive);
  const after = off && base ? dec(base).minus(dec(off)).toFixed(2) : null;

  return (
    <Modal
      open
      title="添加折扣"
      okText="确定"
      cancelText="取消"
      onCancel={onCancel}
      onOk={() => {
        setTried(true);
        if (!error) onOk({ mode: d.mode, value: d.value.trim() });
      }}
      destroyOnHidden
    >
      <Descriptions column={1} size="small" style={{ marginBottom: 16 }}>
        <Descriptions.Item label="项目">
          {line?.short_name ? `*${line.short_name}*` : ''}
          {line?.name}
        </Descriptions.Item>
        <Descriptions.Item label={inclusive ? `${TERMS.amount}（含税）` : `${TERMS.amount}（不含税）`}>
          {base ? formatMoney(base, { symbol: true }) : `请先填写该行${TERMS.amount}`}
        </Descriptions.Item>
      </Descriptions>
      <Form layout="vertical">
        <Form.Item label="折扣方式">
          <Radio.Group
            value={d.mode}
            onChange={(e) => setD({ mode: e.target.value, value: '' })}
            options={[
              { value: 'amount', label: `按${TERMS.amount}` },
              { value: 'percent', label: '按比例' },
            ]}
          />
        </Form.Item>
        <Form.Item
          label={d.mode === 'amount' ? `折扣${TERMS.amount}` : '折扣比例'}
          htmlFor="discount-value"
          validateStatus={tried && error ? 'error' : undefined}
          help={tried && error ? error : undefined}
          extra={off && after ? `折扣 ¥${off}，折后 ¥${after}` : undefined}
        >
          <Input
            id="discount-value"
            inputMode="decimal"
            value={d.value}
            suffix={d.mode === 'percent' ? '%' : '元'}
            onChange={(e) => setD({ ...d, value: e.target.value.replace(/[^\d.]/g, '') })}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
