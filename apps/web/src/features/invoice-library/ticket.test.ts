import type { InvoiceDetail } from '@kaipiao/shared/schemas/query';
import { describe, expect, it } from 'vitest';
import { ticketOf } from './ticket.ts';

const detail = (over: Partial<InvoiceDetail['invoice']> = {}): InvoiceDetail =>
  ({
    invoice: {
      invoice_type: '82',
      invoice_type_name: '电子发票（普通发票）',
      invoice_code: '',
      invoice_no: '26332000000000000123',
      issued_at: '2026-11-23T17:30:00.000Z',
      check_code: '',
      seller_name: '杭州云栈软件科技有限公司',
      seller_tax_code: '91330106MA2KC7LM1A',
      buyer_name: '杭州西溪数据服务有限公司',
      buyer_tax_code: '91330100MA2B3C4D5X',
      total_amount: '1000.00',
      total_tax: '60.00',
      total_with_tax: '1060.00',
      qr_string: '',
      remark: '',
      drawer: '开票员小王',
      status: 'issued',
      ...over,
    },
    lines: [
      {
        line_no: 1,
        full_name: '*信息技术服务*软件开发服务',
        spec: '',
        unit: '项',
        quantity: '2.00000000',
        unit_price: '500.00000000',
        unit_price_with_tax: '530.00000000',
        amount_with_tax: '1060.00',
        tax_rate_label: '6%',
      },
    ],
  }) as unknown as InvoiceDetail;

describe('ticketOf', () => {
  it('prints number, Beijing date, buyer, lines and totals with the amount in capitals', () => {
    const t = ticketOf(detail());
    expect(t).toMatchObject({
      invoiceNo: '26332000000000000123',
      issuedAt: '2026-11-24 01:30:00',
      buyer: '杭州西溪数据服务有限公司',
      totalWithTax: '1,060.00',
      capital: '壹仟零陆拾圆整',
    });
    expect(t.lines[0]).toEqual({
      no: 1,
      name: '*信息技术服务*软件开发服务',
      detail: '2项 × 530',
      amount: '1,060.00',
      rate: '6%',
    });
  });

  it('uses the stored QR text, else builds it with the shared money/qr code (Beijing date, 价税合计 for 数电)', () => {
    expect(ticketOf(detail({ qr_string: '01,32,,X' })).qr).toBe('01,32,,X');
    // §六: 数电 — no code, 价税合计, Beijing date, no check code, CRC over the seven fields and their comma
    expect(ticketOf(detail()).qr).toBe('01,32,,26332000000000000123,1060.00,20261124,,CABB');
    // old kinds — code, 合计金额, 校验码 and a comma after the CRC
    expect(
      ticketOf(
        detail({
          invoice_type: '026',
          invoice_code: '033002300111',
          invoice_no: '01234567',
          check_code: '12345678901234567890',
        }),
      ).qr,
    ).toBe('01,10,033002300111,01234567,1000.00,20261124,12345678901234567890,6912,');
    // a kind without a QR rule prints none
    expect(ticketOf(detail({ invoice_type: '999' as never })).qr).toBe('');
  });
});
