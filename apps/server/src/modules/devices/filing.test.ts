import { describe, expect, it } from 'vitest';
import { filingClock, filingFlags, filingRefusal } from './filing.ts';

const at = (s: string) => new Date(s);

describe('filing window (抄税/清卡 1st–15th, Beijing time)', () => {
  it('reports the previous month, in window from the 1st to the 15th (UTC+8)', () => {
    expect(filingClock(at('2026-11-01T00:30:00+08:00'))).toEqual({
      period: '2026-10',
      inWindow: true,
      windowEnd: '2026-11-15',
    });
    expect(filingClock(at('2026-11-15T23:59:00+08:00')).inWindow).toBe(true);
    // 16 Nov 00:10 in Beijing is still 15 Nov in UTC: out of window all the same
    expect(filingClock(at('2026-11-15T16:10:00Z')).inWindow).toBe(false);
    expect(filingClock(at('2026-01-03T10:00:00+08:00')).period).toBe('2025-12');
  });
  it('copy first, then clear, each once, and neither outside the window', () => {
    const inW = filingClock(at('2026-11-05T10:00:00+08:00'));
    const outW = filingClock(at('2026-11-20T10:00:00+08:00'));
    expect(filingRefusal('copy', outW, null)).toBe('out_of_window');
    expect(filingRefusal('clear', inW, null)).toBe('not_copied');
    expect(filingRefusal('copy', inW, null)).toBeNull();
    const copied = { copiedAt: new Date(), clearedAt: null };
    expect(filingRefusal('copy', inW, copied)).toBe('already_copied');
    expect(filingRefusal('clear', inW, copied)).toBeNull();
    expect(filingRefusal('clear', inW, { ...copied, clearedAt: new Date() })).toBe('already_cleared');
  });
  it('flags 已到抄税期 in the window and 已到锁死期 after it without 清卡', () => {
    const inW = filingClock(at('2026-11-05T10:00:00+08:00'));
    const outW = filingClock(at('2026-11-20T10:00:00+08:00'));
    expect(filingFlags(inW, null)).toEqual({ copyDue: true, lockDue: false });
    expect(filingFlags(outW, null)).toEqual({ copyDue: false, lockDue: true });
    expect(filingFlags(outW, { copiedAt: new Date(), clearedAt: new Date() })).toEqual({
      copyDue: false,
      lockDue: false,
    });
  });
});
