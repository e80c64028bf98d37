import { describe, expect, it } from 'vitest';
import { checkLength, displayLength } from './length.ts';

describe('displayLength (spec §5 length rule)', () => {
  it('counts Latin characters 1 and others 2, after trimming', () => {
    expect(displayLength('  abc  ')).toBe(3);
    expect(displayLength('开票台')).toBe(6);
    expect(displayLength('A店1')).toBe(4);
  });
});

describe('checkLength', () => {
  it('reports required, min and max', () => {
    expect(checkLength('   ', { required: true })).toBe('required');
    expect(checkLength('', {})).toBeNull();
    expect(checkLength('开票', { min: 3 })).toBeNull();
    expect(checkLength('开', { min: 3 })).toBe('min');
    expect(checkLength('a', { min: 2 })).toBe('min');
    expect(checkLength('开票台开', { max: 7 })).toBe('max');
  });
});

describe('checkLength at exactly the limits', () => {
  it('counts U+00FF as Latin (1) and U+0100 as wide (2)', () => {
    expect(displayLength('ÿ')).toBe(1);
    expect(displayLength('\u0100')).toBe(2);
  });

  it('a value of exactly min or max passes; one past fails', () => {
    expect(checkLength('ab', { min: 2 })).toBeNull();
    expect(checkLength('开', { min: 2 })).toBeNull();
    expect(checkLength('abc', { max: 3 })).toBeNull();
    expect(checkLength('开票', { max: 4 })).toBeNull();
    expect(checkLength('开票a', { max: 4 })).toBe('max');
    expect(checkLength('ab', { min: 2, max: 2 })).toBeNull();
    expect(checkLength('a', { max: 5 })).toBeNull();
  });

  it('a missing value is required or fine', () => {
    expect(checkLength(null, { required: true })).toBe('required');
    expect(checkLength(undefined, { required: true, min: 2 })).toBe('required');
    expect(checkLength(undefined, { min: 2 })).toBeNull();
  });
});
