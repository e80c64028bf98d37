import { describe, expect, it } from 'vitest';
import { SMALL_SCALE_3_PERCENT_REASONS } from '../money/rates.ts';
import { blueInvoiceRequestSchema, canVoidInvoiceType, INVOICE_TYPES } from './invoice.ts';

const body = () => ({
  serial_no: 'WEBserial0001',
  device_id: 1,
  invoice_type: '82',
  buyer: { title_type: 1, name: '张三' },
  goods_info: [
    {
      tax_class_code: '3070402000000000000',
      short_name: '住宿服务',
      name: '住宿费',
      amount: '100.00',
      tax_amount: '3.00',
      amount_with_tax: '103.00',
      tax_rate: '0.03',
    },
  ],
  invoice_info: { total_amount: '100.00', total_tax: '3.00', total_price_with_tax: '103.00' },
});

describe('blueInvoiceRequestSchema small_scale_reason (slsm, domain.md §2.6)', () => {
  it('stays absent when not sent: no default, so request hashes of older payloads do not change', () => {
    const parsed = blueInvoiceRequestSchema.parse(body());
    expect('small_scale_reason' in parsed).toBe(false);
    expect(Object.keys(parsed)).not.toContain('small_scale_reason');
    expect(JSON.stringify(parsed)).not.toContain('small_scale_reason');
  });

  it("takes '1' or '2', the keys of SMALL_SCALE_3_PERCENT_REASONS, and nothing else", () => {
    for (const reason of Object.keys(SMALL_SCALE_3_PERCENT_REASONS)) {
      expect(
        blueInvoiceRequestSchema.parse({ ...body(), small_scale_reason: reason }).small_scale_reason,
      ).toBe(reason);
    }
    for (const bad of ['', '3', 1, null]) {
      const res = blueInvoiceRequestSchema.safeParse({ ...body(), small_scale_reason: bad });
      expect(res.success).toBe(false);
      expect(res.error?.issues[0]?.path).toEqual(['small_scale_reason']);
    }
  });
});

describe('canVoidInvoiceType (作废, domain.md §3.1)', () => {
  it.each([
    ['81', false], // 电子发票（增值税专用发票）
    ['82', false], // 电子发票（普通发票）
    ['026', false], // 增值税电子普通发票
    ['028', false], // 增值税电子专用发票
    ['032', false], // 区块链电子发票
    ['004', true], // 增值税专用发票 (paper)
    ['007', true], // 增值税普通发票 (paper)
    ['025', true], // 卷式 (paper)
    ['', false],
    ['999', false],
  ])('%s → %s', (kind, voidable) => {
    expect(canVoidInvoiceType(kind)).toBe(voidable);
  });

  it('covers every kind of the table: only the three paper kinds can be voided', () => {
    const voidable = Object.keys(INVOICE_TYPES).filter(canVoidInvoiceType);
    expect(voidable.sort()).toEqual(['004', '007', '025']);
  });
});
