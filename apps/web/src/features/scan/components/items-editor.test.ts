import { describe, expect, it } from 'vitest';
import { itemsOf, newRow, rowsOf, rowsTotal } from './items-editor.tsx';

const goods = {
  goods_id: 3,
  name: '软件开发服务',
  short_name: '信息技术服务',
  tax_class_code: '3040201010000000000',
  tax_rate: '0.06',
};

describe('the audit items editor rows', () => {
  it('become API items with defaults, and sum in cents', () => {
    const rows = [
      newRow({ ...goods, amount_with_tax: '0.10' }),
      newRow({ ...goods, amount_with_tax: '0.20' }),
    ];
    expect(rowsTotal(rows)).toBe(0.3);
    const out = itemsOf(rows);
    expect(out).toEqual({
      items: [
        expect.objectContaining({
          ...goods,
          amount_with_tax: '0.10',
          quantity: null,
          unit: '',
          zero_rate_flag: '',
        }),
        expect.objectContaining({ amount_with_tax: '0.20' }),
      ],
    });
  });

  it('name the first row that is not complete', () => {
    expect(itemsOf([newRow({ ...goods, amount_with_tax: '1' }), newRow({})])).toEqual({
      error: '第2行：请选择商品编码',
    });
    expect(itemsOf([newRow({ ...goods })])).toEqual({ error: '第1行：请输入金额' });
    expect(itemsOf([newRow({ ...goods, name: '', amount_with_tax: '1' })])).toEqual({
      error: '第1行：请输入项目名称',
    });
  });

  it('start with one empty row when a request has no items', () => {
    expect(rowsOf(null)).toHaveLength(1);
    expect(rowsOf([{ ...goods, amount_with_tax: '5.00' } as never])).toHaveLength(1);
  });
});
