import { describe, expect, it } from 'vitest';
import { daysBetween, isoOf, isRealDay, nextDay, timeOf } from './scope.ts';

// The Beijing day of an instant and the instant a day starts: @kaipiao/shared time/beijing.test.ts.
describe('calendar days and raw-query timestamps (query/scope.ts)', () => {
  it('the next day and the days of a range, across months, years and a leap day', () => {
    expect(nextDay('2026-11-30')).toBe('2026-12-01');
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
    expect(nextDay('2028-02-28')).toBe('2028-02-29');
    expect(daysBetween('2026-11-26', '2026-11-26')).toBe(1);
    expect(daysBetween('2026-11-01', '2026-11-30')).toBe(30);
    expect(daysBetween('2028-01-01', '2028-12-31')).toBe(366);
    expect(daysBetween('2026-11-02', '2026-11-01')).toBe(0);
  });

  it('a real calendar day only', () => {
    for (const day of ['2026-11-26', '2028-02-29', '2026-12-31']) expect(isRealDay(day), day).toBe(true);
    for (const day of ['2026-02-29', '2026-11-31', '2026-13-01', '2026-1-01', 'not-a-day', ''])
      expect(isRealDay(day), day).toBe(false);
  });

  it('PostgreSQL’s text timestamps in every form it writes them, and Dates, as ISO-8601', () => {
    const cases: [string, string][] = [
      ['2026-11-22 06:40:00.123456+00', '2026-11-22T06:40:00.123Z'],
      ['2026-11-22 06:40:00+00', '2026-11-22T06:40:00.000Z'],
      ['2026-11-22 14:40:00.5+08', '2026-11-22T06:40:00.500Z'],
      ['2026-11-22 12:10:00.12+05:30', '2026-11-22T06:40:00.120Z'],
      ['2026-11-22 03:10:00-03:30', '2026-11-22T06:40:00.000Z'],
      ['2026-11-22 12:10:00+0530', '2026-11-22T06:40:00.000Z'],
      ['2026-11-22T06:40:00.999999+00', '2026-11-22T06:40:00.999Z'],
      ['  2026-11-22 06:40:00+00  ', '2026-11-22T06:40:00.000Z'],
      // not PostgreSQL's form: left to Date
      ['2026-11-22T06:40:00Z', '2026-11-22T06:40:00.000Z'],
    ];
    for (const [raw, iso] of cases) expect(isoOf(raw), raw).toBe(iso);
    expect(isoOf(new Date('2026-11-22T06:40:00Z'))).toBe('2026-11-22T06:40:00.000Z');
    expect(isoOf(null)).toBeNull();
    expect(isoOf(undefined)).toBeNull();
    expect(timeOf('2026-11-22 06:40:00+00')).toBe(Date.UTC(2026, 10, 22, 6, 40));
    expect(() => isoOf('not a time')).toThrow(RangeError);
    // PostgreSQL writes years before 1000 with four digits: never a two-digit year
    expect(isoOf('0099-11-22 06:40:00+00')).toBe('0099-11-22T06:40:00.000Z');
    expect(isoOf('0001-01-01 00:00:00+00')).toBe('0001-01-01T00:00:00.000Z');
    // surrounding spaces, a T and a four-digit offset together
    expect(isoOf(' 2026-11-22T12:10:00+0530')).toBe('2026-11-22T06:40:00.000Z');
    // the whole text is the timestamp: text before or after it is not read
    expect(() => isoOf('x2026-11-22 06:40:00+00')).toThrow(RangeError);
    expect(() => isoOf('2026-11-22 06:40:00+00x')).toThrow(RangeError);
  });
});
