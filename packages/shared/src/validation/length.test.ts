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
