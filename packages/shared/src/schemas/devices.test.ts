import { describe, expect, it } from 'vitest';
import { maskPhone, moveStockBodySchema, taxAccountBodySchema } from './devices.ts';

describe('devices schemas', () => {
  it('masks characters 4 to 7 of a phone', () => {
    expect(maskPhone('17612342696')).toBe('176****2696');
    expect(maskPhone('123')).toBe('123');
    // exactly 7 characters: all of 4 to 7 are masked; 6 are too short to mask
    expect(maskPhone('1761234')).toBe('176****');
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
