import { describe, expect, it } from 'vitest';
import { maskPhone as patternsMaskPhone } from '../validation/patterns.ts';
import { maskPhone, moveStockBodySchema, taxAccountBodySchema } from './devices.ts';

describe('devices schemas', () => {
  it('masks a phone with the one shared rule: first 3 and last 4 shown, short values unchanged', () => {
    expect(maskPhone).toBe(patternsMaskPhone);
    expect(maskPhone('17612342696')).toBe('176****2696');
    expect(maskPhone('123')).toBe('123');
    // 7 characters have no middle between the first 3 and the last 4; 8 have one
    expect(maskPhone('1761234')).toBe('1761234');
    expect(maskPhone('17612345')).toBe('176*2345');
    expect(maskPhone('176123')).toBe('176123');
  });
  it('a tax account needs a valid phone or none (kept on edit), and a known identity and channel', () => {
    const base = { account: 'a', person_name: '张丽', identity: '03', channel: 'GP900000' };
    expect(taxAccountBodySchema.safeParse({ ...base, phone: '17612342696' }).success).toBe(true);
    expect(taxAccountBodySchema.parse({ ...base }).phone).toBe('');
    expect(taxAccountBodySchema.safeParse({ ...base, phone: '1761234' }).success).toBe(false);
    expect(taxAccountBodySchema.safeParse({ ...base, identity: '04' }).success).toBe(false);
    expect(taxAccountBodySchema.safeParse({ ...base, channel: 'GP800000' }).success).toBe(false);
  });
  it('moves a positive whole number of invoices', () => {
    const b = { device_id: 1, target_device_id: 2, invoice_type: '007' };
    expect(moveStockBodySchema.safeParse({ ...b, count: 0 }).success).toBe(false);
    expect(moveStockBodySchema.safeParse({ ...b, count: 1.5 }).success).toBe(false);
    expect(moveStockBodySchema.safeParse({ ...b, count: 10 }).success).toBe(true);
  });
});
