import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstStatRange, statPresets, statToday } from './ranges.ts';

// The browser here is on UTC, eight hours behind Beijing: from 16:00 UTC Beijing has the next day.
const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'UTC';
});
afterAll(() => {
  process.env.TZ = zone;
});

const days = (r: readonly [{ format: (f: string) => string }, { format: (f: string) => string }]) =>
  r.map((d) => d.format('YYYY-MM-DD'));

describe('开票统计 ranges on the Beijing calendar', () => {
  it('today is Beijing’s day, not the browser’s', () => {
    expect(new Date('2026-11-27T18:00:00Z').getDate()).toBe(27); // the browser's day
    expect(statToday(new Date('2026-11-27T18:00:00Z')).format('YYYY-MM-DD')).toBe('2026-11-28');
    expect(statToday(new Date('2026-11-27T15:59:59Z')).format('YYYY-MM-DD')).toBe('2026-11-27');
    expect(days(firstStatRange(new Date('2026-11-27T18:00:00Z')))).toEqual(['2026-10-30', '2026-11-28']);
  });

  it('each preset, on the last day of a quarter after 16:00 UTC (Beijing: the first of the next)', () => {
    const presets = statPresets(() => new Date('2026-12-31T17:00:00Z'));
    expect(Object.fromEntries(presets.map((p) => [p.label, days(p.value())]))).toEqual({
      近7天: ['2026-12-26', '2027-01-01'],
      近30天: ['2026-12-03', '2027-01-01'],
      本月: ['2027-01-01', '2027-01-01'],
      上月: ['2026-12-01', '2026-12-31'],
      本季度: ['2027-01-01', '2027-01-01'],
      近12个月: ['2026-02-01', '2027-01-01'],
      本年: ['2027-01-01', '2027-01-01'],
    });
  });

  it('a preset is worked out when it is picked: a page left open past midnight offers the new day', () => {
    let now = new Date('2026-11-27T15:00:00Z');
    const week = statPresets(() => now).find((p) => p.label === '近7天')!;
    expect(days(week.value())).toEqual(['2026-11-21', '2026-11-27']);
    now = new Date('2026-11-27T16:30:00Z');
    expect(days(week.value())).toEqual(['2026-11-22', '2026-11-28']);
  });
});
