import type { TaxEquipment } from '@kaipiao/shared';
import { describe, expect, it } from 'vitest';
import { preferredKind } from './use-devices.ts';

const device = (codes: string[], defaults?: string[]): TaxEquipment => ({
  device_id: 1,
  name: '数电账户',
  kind: 'digital',
  kind_name: '数电账户',
  channel: 'GP900000',
  device_no: 'x',
  extension_no: 0,
  is_main: true,
  online: true,
  locked: false,
  invoice_types: codes.map((code) => ({ code, name: code })),
  per_invoice_limit: '1000000.00',
  monthly_quota: null,
  quota_used: '0.00',
  stock: {},
  default_invoice_types: defaults,
});

describe('preferredKind (the kind a fresh form starts on)', () => {
  it('takes the store’s first default kind the device issues', () => {
    expect(preferredKind(device(['81', '82'], ['81']))).toBe('81');
    expect(preferredKind(device(['004', '007', '026'], ['82', '026']))).toBe('026');
  });

  it('without a usable default, the device’s first ordinary (普票) kind, else its first', () => {
    expect(preferredKind(device(['81', '82']))).toBe('82');
    expect(preferredKind(device(['81', '82'], ['007']))).toBe('82');
    expect(preferredKind(device(['81']))).toBe('81');
    expect(preferredKind(undefined)).toBeNull();
  });
});
