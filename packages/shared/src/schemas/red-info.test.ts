import { describe, expect, it } from 'vitest';
import { RED_CODE } from '../errors/codes.ts';
import { allowedRedReasons, redFormKindOf, redStateClass, redStateName, voidRefusal } from './red-info.ts';

describe('red-info rules (domain.md §3)', () => {
  it('picks the form by the blue kind: 数电 确认单, 专票 信息表, 普票 direct', () => {
    expect(['81', '82'].map(redFormKindOf)).toEqual(['confirm', 'confirm']);
    expect(['004', '028'].map(redFormKindOf)).toEqual(['info_sheet', 'info_sheet']);
    expect(['007', '025', '026', '032'].map(redFormKindOf)).toEqual(['direct', 'direct', 'direct', 'direct']);
  });

  it('limits reasons by goods (1…/2…) and services (3…)', () => {
    expect(allowedRedReasons(['1090511030000000000'])).toEqual(['01', '02', '04']);
    expect(allowedRedReasons(['3040201010000000000'])).toEqual(['01', '03', '04']);
    // 2… (goods too) counts as goods whatever its last digit
    expect(allowedRedReasons(['2010101000000000001'])).toEqual(['01', '02', '04']);
    expect(allowedRedReasons(['1090511030000000000', '3040201010000000000'])).toEqual([
      '01',
      '02',
      '03',
      '04',
    ]);
  });

  it('classes states: 02/03 pending, 01/04 confirmed, 05–10 void', () => {
    expect(['01', '02', '03', '04', '05', '07', '10', 'approved', 'revoked'].map(redStateClass)).toEqual([
      'confirmed',
      'pending',
      'pending',
      'confirmed',
      'void',
      'void',
      'void',
      'confirmed',
      'void',
    ]);
    // 红字信息表 states: 申请中 pending, 审核通过 confirmed, the rest void
    expect(['applying', 'approved', 'rejected'].map(redStateClass)).toEqual(['pending', 'confirmed', 'void']);
    expect(redStateName('confirm', '07')).toBe('作废（超72小时未确认）');
    expect(redStateName('info_sheet', 'approved')).toBe('审核通过');
  });

  it('voids only paper kinds in the Beijing month of issue', () => {
    const now = new Date('2026-11-30T16:30:00Z'); // 2026-12-01 00:30 Beijing
    expect(voidRefusal('82', '2026-12-01T00:00:00+08:00', now)).toBe(RED_CODE.VOID_ELECTRONIC);
    expect(voidRefusal('026', '2026-12-01T00:00:00+08:00', now)).toBe(RED_CODE.VOID_ELECTRONIC);
    expect(voidRefusal('007', '2026-11-30T23:59:00+08:00', now)).toBe(RED_CODE.VOID_PAST_MONTH);
    expect(voidRefusal('007', '2026-12-01T00:10:00+08:00', now)).toBeNull();
    expect(voidRefusal('004', null, now)).toBe(RED_CODE.VOID_NOT_ISSUED);
  });
});
