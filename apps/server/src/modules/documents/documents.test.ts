import { describe, expect, it } from 'vitest';
import { contentDisposition } from './routes.ts';

// The PDF's tests are in pdf.test.ts and pdf-issued.test.ts, the XML's in xml.test.ts.

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
