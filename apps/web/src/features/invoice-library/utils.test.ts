import { describe, expect, it } from 'vitest';
import { beijingTime, fileSize, money2, toFilter } from './utils.ts';

describe('library form → filters', () => {
  it('sends a name fragment as buyer_name and a tax code as buyer_tax_code', () => {
    expect(toFilter({ buyer: ' 星河 ' })).toEqual({ buyer_name: '星河' });
    expect(toFilter({ buyer: '91330106ma2star01x' })).toEqual({ buyer_tax_code: '91330106MA2STAR01X' });
    // letters only is a name, not a tax code
    expect(toFilter({ buyer: 'AlibabaCloudChina' })).toEqual({ buyer_name: 'AlibabaCloudChina' });
  });

  it('maps the date range, amounts with two decimals and drops empty values', () => {
    expect(
      toFilter({
        date_range: ['2026-11-01', '2026-11-30'],
        invoice_types: [],
        statuses: ['failed'],
        amount_min: 100,
        amount_max: null,
        invoice_no: '  ',
        direction: 'red',
      }),
    ).toEqual({
      date_from: '2026-11-01',
      date_to: '2026-11-30',
      statuses: ['failed'],
      amount_min: '100.00',
      direction: 'red',
    });
  });

  it('formats times in Beijing, amounts with separators and file sizes', () => {
    expect(beijingTime('2026-11-10T02:00:00.000Z')).toBe('2026-11-10 10:00');
    expect(beijingTime('2026-11-10T16:30:05.000Z', true)).toBe('2026-11-11 00:30:05');
    expect(beijingTime(null)).toBe('—');
    expect(money2('-1234567.5')).toBe('-1,234,567.50');
    expect(fileSize(2048)).toBe('2.0 KB');
    expect(fileSize(null)).toBe('—');
  });
});
