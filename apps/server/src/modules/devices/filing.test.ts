import { describe, expect, it } from 'vitest';
import { filesMonthly, filingClock, filingFlags, filingRefusal, isLiable } from './filing.ts';

const at = (s: string) => new Date(s);

describe('filing window (抄税/清卡 1st–15th, Beijing time)', () => {
  it('reports the previous month, in window from the 1st to the 15th (UTC+8)', () => {
    expect(filingClock(at('2026-11-01T00:30:00+08:00'))).toEqual({
      period: '2026-10',
      inWindow: true,
      windowEnd: '2026-11-15',
      from: at('2026-10-01T00:00:00+08:00'),
      to: at('2026-11-01T00:00:00+08:00'),
    });
    expect(filingClock(at('2026-11-15T23:59:00+08:00')).inWindow).toBe(true);
    // 16 Nov 00:10 in Beijing is still 15 Nov in UTC: out of window all the same
    expect(filingClock(at('2026-11-15T16:10:00Z')).inWindow).toBe(false);
    const january = filingClock(at('2026-01-03T10:00:00+08:00'));
    expect(january.period).toBe('2025-12');
    expect(january.from).toEqual(at('2025-12-01T00:00:00+08:00'));
    expect(january.to).toEqual(at('2026-01-01T00:00:00+08:00'));
  });

  it('a device is liable for the period only if it existed before the period ended', () => {
    const clock = filingClock(at('2026-11-20T10:00:00+08:00'));
    expect(isLiable(at('2026-03-02T09:00:00+08:00'), clock)).toBe(true);
    expect(isLiable(at('2026-10-31T23:59:59+08:00'), clock)).toBe(true);
    expect(isLiable(at('2026-11-01T00:00:00+08:00'), clock)).toBe(false);
    expect(isLiable(at('2026-11-18T10:00:00+08:00'), clock)).toBe(false);
  });

  it('only tax-control discs and keys file, not 数电 accounts', () => {
    expect(['ukey', 'golden_disc', 'tax_disc'].every(filesMonthly)).toBe(true);
    expect(['digital', 'leqi', 'blockchain'].some(filesMonthly)).toBe(false);
  });

  it('copy first, then clear, each once; outside the window only a device whose lock is due', () => {
    const inW = filingClock(at('2026-11-05T10:00:00+08:00'));
    const outW = filingClock(at('2026-11-20T10:00:00+08:00'));
    expect(filingRefusal('copy', outW, null, false)).toBe('out_of_window');
    expect(filingRefusal('clear', inW, null, true)).toBe('not_copied');
    expect(filingRefusal('copy', inW, null, true)).toBeNull();
    // in the window a device newer than the period may still upload its (empty) summary
    expect(filingRefusal('copy', inW, null, false)).toBeNull();
    const copied = { copiedAt: new Date(), clearedAt: null };
    expect(filingRefusal('copy', inW, copied, true)).toBe('already_copied');
    expect(filingRefusal('clear', inW, copied, true)).toBeNull();
    const cleared = { ...copied, clearedAt: new Date() };
    expect(filingRefusal('clear', inW, cleared, true)).toBe('already_cleared');
    // 逾期: after the 15th a liable, uncleared device copies and clears the overdue period
    expect(filingRefusal('copy', outW, null, true)).toBeNull();
    expect(filingRefusal('clear', outW, null, true)).toBe('not_copied');
    expect(filingRefusal('clear', outW, copied, true)).toBeNull();
    expect(filingRefusal('copy', outW, copied, true)).toBe('already_copied');
    expect(filingRefusal('clear', outW, cleared, true)).toBe('out_of_window');
  });

  it('flags 已到抄税期 in the window and 已到锁死期 after it without 清卡, for liable devices only', () => {
    const inW = filingClock(at('2026-11-05T10:00:00+08:00'));
    const outW = filingClock(at('2026-11-20T10:00:00+08:00'));
    expect(filingFlags(inW, null, true)).toEqual({ copyDue: true, lockDue: false });
    expect(filingFlags(outW, null, true)).toEqual({ copyDue: false, lockDue: true });
    const done = { copiedAt: new Date(), clearedAt: new Date() };
    expect(filingFlags(outW, done, true)).toEqual({ copyDue: false, lockDue: false });
    expect(filingFlags(outW, { copiedAt: new Date(), clearedAt: null }, true).lockDue).toBe(true);
    // created after the period ended: nothing to file, never due
    expect(filingFlags(inW, null, false)).toEqual({ copyDue: false, lockDue: false });
    expect(filingFlags(outW, null, false)).toEqual({ copyDue: false, lockDue: false });
  });
});
