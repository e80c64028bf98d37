import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import type { GoodsItem } from '@kaipiao/shared/schemas/goods';
import type { ScanItem } from '@kaipiao/shared/schemas/scan';
import { useQuery } from '@tanstack/react-query';
import { Button, Input, InputNumber, Select, Space, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { projectsQuery } from '../../../api/projects.ts';
import { WhyDisabled } from '../../../components/why-disabled.tsx';

/** One editable row: the goods code it came from and the amounts the clerk states. */
export type ItemRow = { key: string; item: Partial<ScanItem> };

let seq = 0;
export const newRow = (item: Partial<ScanItem> = {}): ItemRow => ({ key: `r${++seq}`, item });
export const rowsOf = (items: readonly ScanItem[] | null | undefined): ItemRow[] =>
  items && items.length > 0 ? items.map((it) => newRow(it)) : [newRow()];

const rateLabel = (r?: string) => (r === undefined ? '' : `${Number((Number(r) * 100).toFixed(4))}%`);

/** The rows as the API wants them, or the first problem (Chinese) to show. */
export function itemsOf(rows: readonly ItemRow[]): { items: ScanItem[] } | { error: string } {
  const items: ScanItem[] = [];
  for (const [i, r] of rows.entries()) {
    const it = r.item;
    if (!it.tax_class_code) return { error: `第${i + 1}行：请选择${TERMS.goodsCode}` };
    if (!it.name) return { error: `第${i + 1}行：请输入${TERMS.itemName}` };
    if (!it.amount_with_tax || Number(it.amount_with_tax) <= 0)
      return { error: `第${i + 1}行：请输入${TERMS.amount}` };
    items.push({
      goods_id: it.goods_id ?? null,
      name: it.name,
      tax_class_code: it.tax_class_code,
      short_name: it.short_name ?? '',
      spec: it.spec ?? '',
      unit: it.unit ?? '',
      quantity: it.quantity ?? null,
      tax_rate: it.tax_rate ?? '0',
      amount_with_tax: it.amount_with_tax,
      preferential_code: it.preferential_code ?? '',
      zero_rate_flag: it.zero_rate_flag ?? '',
    });
  }
  return { items };
}

export const rowsTotal = (rows: readonly ItemRow[]) =>
  rows.reduce((s, r) => s + Math.round(Number(r.item.amount_with_tax || 0) * 100), 0) / 100;

function GoodsPicker({ value, onPick }: { value?: string; onPick: (g: GoodsItem) => void }) {
  const [keyword, setKeyword] = useState('');
  const goods = useQuery(projectsQuery(keyword));
  const options = useMemo(
    () =>
      (goods.data?.list ?? []).map((g) => ({
        value: g.id,
        label: `${g.full_name}（${g.tax_rate_label}）`,
        goods: g,
      })),
    [goods.data],
  );
  return (
    <Select
      showSearch
      placeholder={`选择${TERMS.goodsCode}`}
      value={value}
      filterOption={false}
      onSearch={setKeyword}
      loading={goods.isFetching}
      options={options}
      onChange={(_, opt) => {
        const g = (opt as { goods?: GoodsItem } | undefined)?.goods;
        if (g) onPick(g);
      }}
      style={{ width: '100%' }}
      notFoundContent={goods.isFetching ? '加载中…' : `没有匹配的商品，请先在${TERMS.goodsCode}中添加`}
      popupMatchSelectWidth={360}
    />
  );
}

/** Goods and tax-inclusive amounts of a request or an order (the server computes 金额 / 税额). */
export function ItemsEditor({ rows, onChange }: { rows: ItemRow[]; onChange: (rows: ItemRow[]) => void }) {
  const set = (key: string, patch: Partial<ScanItem>) =>
    onChange(rows.map((r) => (r.key === key ? { ...r, item: { ...r.item, ...patch } } : r)));
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Table<ItemRow>
        size="small"
        rowKey="key"
        pagination={false}
        dataSource={rows}
        columns={[
          {
            title: TERMS.goodsCode,
            width: 220,
            render: (_, r) => (
              <GoodsPicker
                value={r.item.short_name ? `*${r.item.short_name}*${r.item.name ?? ''}` : undefined}
                onPick={(g) =>
                  set(r.key, {
                    goods_id: g.id,
                    name: g.name,
                    short_name: g.short_name,
                    tax_class_code: g.tax_class_code,
                    tax_rate: g.tax_rate,
                    unit: g.unit,
                    spec: g.spec,
                    preferential_code: g.preferential_code,
                    zero_rate_flag: (g.zero_rate_flag || '') as ScanItem['zero_rate_flag'],
                  })
                }
              />
            ),
          },
          {
            title: TERMS.itemName,
            render: (_, r) => (
              <Input
                value={r.item.name}
                placeholder={TERMS.itemName}
                maxLength={200}
                onChange={(e) => set(r.key, { name: e.target.value })}
              />
            ),
          },
          {
            title: TERMS.taxRate,
            width: 70,
            render: (_, r) => rateLabel(r.item.tax_rate),
          },
          {
            title: `${TERMS.amount}（含税）`,
            width: 140,
            render: (_, r) => (
              <InputNumber<string>
                stringMode
                min="0.01"
                precision={2}
                placeholder="0.00"
                aria-label={`${TERMS.amount}（含税）`}
                value={r.item.amount_with_tax}
                onChange={(v) => set(r.key, { amount_with_tax: v ?? '' })}
                style={{ width: '100%' }}
              />
            ),
          },
          {
            title: '',
            width: 44,
            render: (_, r) => (
              <WhyDisabled reason={rows.length === 1 && '至少保留一个项目'}>
                <Button
                  type="text"
                  aria-label="删除"
                  icon={<DeleteOutlined />}
                  onClick={() => onChange(rows.filter((x) => x.key !== r.key))}
                />
              </WhyDisabled>
            ),
          },
        ]}
      />
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <WhyDisabled reason={rows.length >= 100 && '最多添加100个项目'}>
          <Button icon={<PlusOutlined />} onClick={() => onChange([...rows, newRow()])}>
            添加项目
          </Button>
        </WhyDisabled>
        <Typography.Text>
          {TERMS.totalWithTax}：<Typography.Text strong>¥{rowsTotal(rows).toFixed(2)}</Typography.Text>
        </Typography.Text>
      </Space>
    </Space>
  );
}
