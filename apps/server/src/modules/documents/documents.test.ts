import { describe, expect, it } from 'vitest';
import type { InvoiceDocData } from './model.ts';
import { normalizeSpecific, smallScaleReasonOf } from './model.ts';
import { contentDisposition } from './routes.ts';
import { sampleInvoice } from './sample.ts';
import { assertWellFormedXml } from './test-utils.ts';
import { escapeXml, renderInvoiceXml } from './xml.ts';

const xmlText = (xml: string, tag: string) =>
  [...xml.matchAll(new RegExp(`<${tag}>([^<]*)</${tag}>`, 'g'))].map((m) => m[1]);

const neg = (v: string) => (v.startsWith('-') ? v : `-${v}`);
function redOf(inv: InvoiceDocData): InvoiceDocData {
  return {
    ...inv,
    red: true,
    invoiceNo: '26332000000000012399',
    original: { invoiceCode: '', invoiceNo: inv.invoiceNo, redFormNo: '33010826112200000123' },
    lines: inv.lines.map((l) => ({
      ...l,
      amount: neg(l.amount),
      taxAmount: neg(l.taxAmount),
      quantity: l.quantity && neg(l.quantity),
    })),
    totalAmount: neg(inv.totalAmount),
    totalTax: neg(inv.totalTax),
    totalWithTax: neg(inv.totalWithTax),
  };
}

describe('invoice XML', () => {
  it('is well-formed EInvoice with the totals, lines and Y label of a blue invoice', () => {
    const inv = sampleInvoice();
    const xml = renderInvoiceXml(inv);
    assertWellFormedXml(xml);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<EInvoice>')).toBe(true);
    expect(xmlText(xml, 'TotalAmWithoutTax')).toEqual(['10000.00']);
    expect(xmlText(xml, 'TotalTaxAm')).toEqual(['600.00']);
    expect(xmlText(xml, 'TotalTax-includedAmount')).toEqual(['10600.00']);
    expect(xmlText(xml, 'TotalTax-includedAmountInChinese')).toEqual(['壹万零陆佰圆整']);
    expect(xmlText(xml, 'ItemName')).toEqual(['*信息技术服务*软件开发服务', '*信息技术服务*软件运维服务']);
    expect(xmlText(xml, 'TaxRate')).toEqual(['0.06', '0.06']);
    expect(xmlText(xml, 'UnPrice')).toEqual(['9433.96226415', '188.67924528']);
    expect(xmlText(xml, 'InvoiceNumber')).toEqual(['26332000000000012345']);
    expect(xmlText(xml, 'IssueTime')).toEqual(['2026-11-22']);
    expect(xmlText(xml, 'BuyerName')).toEqual([inv.buyer.name]);
    expect(xml).toMatch(/<InIssuType>\s*<LabelCode>Y<\/LabelCode>/);
  });

  it('escapes markup and drops control characters from user text', () => {
    const inv = sampleInvoice({
      buyer: { ...sampleInvoice().buyer, name: 'A&B <公司> "引号" \'单\'' },
      remark: 'x\u0001y & </Remark><Evil>',
    });
    const xml = renderInvoiceXml(inv);
    assertWellFormedXml(xml);
    expect(xmlText(xml, 'BuyerName')).toEqual(['A&amp;B &lt;公司&gt; &quot;引号&quot; &apos;单&apos;']);
    expect(xml).not.toContain('<Evil>');
    expect(xml).not.toContain('\u0001');
    expect(escapeXml('a\u0000b\tc\u000Bd')).toBe('ab\tcd');
  });

  it('marks a red invoice N with the reversed invoice and negative totals', () => {
    const xml = renderInvoiceXml(redOf(sampleInvoice()));
    assertWellFormedXml(xml);
    expect(xml).toMatch(/<InIssuType>\s*<LabelCode>N<\/LabelCode>/);
    expect(xmlText(xml, 'OriginalInvoiceCode')).toEqual(['26332000000000012345']);
    expect(xmlText(xml, 'CreditNoteNumber')).toEqual(['33010826112200000123']);
    expect(xmlText(xml, 'TotalTax-includedAmount')).toEqual(['-10600.00']);
    expect(xmlText(xml, 'TotalTax-includedAmountInChinese')).toEqual(['（负数）壹万零陆佰圆整']);
  });

  it('carries the small-scale 3% reason as Slsm in BasicInformation only when there is one', () => {
    expect(renderInvoiceXml(sampleInvoice())).not.toContain('Slsm');
    expect(renderInvoiceXml(sampleInvoice({ smallScaleReason: null }))).not.toContain('Slsm');
    const xml = renderInvoiceXml(sampleInvoice({ smallScaleReason: '2' }));
    assertWellFormedXml(xml);
    expect(xmlText(xml, 'Slsm')).toEqual(['2']);
    expect(xml).toMatch(/<RequestTime>[^<]*<\/RequestTime>\s*<Slsm>2<\/Slsm>\s*<\/BasicInformation>/);
    // read from the stored specific_business, anything else ignored
    expect(smallScaleReasonOf({ small_scale_reason: '1', hotel_stay: {} })).toBe('1');
    expect(smallScaleReasonOf({ small_scale_reason: '3' })).toBeNull();
    expect(smallScaleReasonOf(null)).toBeNull();
  });

  it('carries the 09 travellers in SpecificInformation', () => {
    const xml = renderInvoiceXml(
      sampleInvoice({
        specific: normalizeSpecific('09', [
          {
            traveller: '张三',
            id_type: '201',
            id_no: '11010519491231002X',
            travel_date: '2026-11-20',
            origin: '杭州',
            destination: '宁波',
            vehicle_type: '3',
            seat_class: '',
          },
        ]),
      }),
    );
    assertWellFormedXml(xml);
    expect(xmlText(xml, 'Traveler')).toEqual(['张三']);
    expect(xmlText(xml, 'TypeOfPassengerDocument')).toEqual(['居民身份证']);
    expect(xmlText(xml, 'Vehicletype')).toEqual(['长途汽车']);
  });
});

describe('download file name', () => {
  it('gives an ASCII fallback and the UTF-8 name per RFC 5987', () => {
    const cd = contentDisposition('电子发票（普通发票）_26332000000000012345.pdf');
    expect(cd).toBe(
      `attachment; filename="invoice_26332000000000012345.pdf"; filename*=UTF-8''${encodeURIComponent('电子发票（普通发票）_26332000000000012345.pdf')}`,
    );
    expect(decodeURIComponent(cd.split("UTF-8''")[1]!)).toBe('电子发票（普通发票）_26332000000000012345.pdf');
    expect(contentDisposition("a'(b).xml", true)).toBe(
      `inline; filename="a'(b).xml"; filename*=UTF-8''a%27%28b%29.xml`,
    );
  });
});
