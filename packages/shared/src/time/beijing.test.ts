import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BEIJING_TIME_ZONE,
  beijingChineseDay,
  beijingCompactDay,
  beijingDateTime,
  beijingDateTimeMinutes,
  beijingDay,
  beijingFileStamp,
  beijingInstant,
  beijingMonth,
  beijingMonthDayMinutes,
  beijingParts,
  startOfBeijingDay,
} from './beijing.ts';

/** The reference: the time-zone database through Intl, independent of the module's fixed offset. */
const reference = new Intl.DateTimeFormat('zh-CN', {
  timeZone: BEIJING_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  weekday: 'short',
  hourCycle: 'h23',
});
const WEEKDAYS = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'];

function intlWall(d: Date) {
  const p = Object.fromEntries(reference.formatToParts(d).map((x) => [x.type, x.value]));
  return {
    Y: p.year!.padStart(4, '0'),
    M: p.month!,
    D: p.day!,
    h: p.hour!,
    m: p.minute!,
    s: p.second!,
    weekday: WEEKDAYS.indexOf(p.weekday!),
  };
}

// Since September 1991 Asia/Shanghai has been UTC+8 all year (1986–1991 kept summer time), and
// toISOString writes four-digit years only up to 9999.
const instants = fc.date({
  min: new Date('1992-01-01T00:00:00Z'),
  max: new Date('9999-12-31T15:59:59.999Z'),
  noInvalidDate: true,
});

describe('the Beijing business calendar (time/beijing.ts)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  // [instant (UTC), Beijing date and time, why]
  const BOUNDARIES: [string, string, string][] = [
    ['2026-11-25T15:59:59.999Z', '2026-11-25 23:59:59', 'the last millisecond of a Beijing day'],
    ['2026-11-25T16:00:00.000Z', '2026-11-26 00:00:00', 'the next Beijing day, still the 25th in UTC'],
    ['2026-01-31T15:59:59.999Z', '2026-01-31 23:59:59', 'the last moment of January'],
    ['2026-01-31T16:00:00.000Z', '2026-02-01 00:00:00', 'February in Beijing, January in UTC'],
    ['2026-12-31T15:59:59.999Z', '2026-12-31 23:59:59', 'the last moment of the year'],
    ['2026-12-31T16:00:00.000Z', '2027-01-01 00:00:00', 'a new year in Beijing, New Year’s Eve in UTC'],
    ['2028-02-28T16:00:00.000Z', '2028-02-29 00:00:00', 'a leap day begins'],
    ['2028-02-29T15:59:59.999Z', '2028-02-29 23:59:59', 'a leap day ends'],
    ['2028-02-29T16:00:00.000Z', '2028-03-01 00:00:00', 'March after a leap day'],
    ['2026-02-28T16:00:00.000Z', '2026-03-01 00:00:00', 'March after 28 February in a common year'],
    ['2026-11-22T02:11:12.000Z', '2026-11-22 10:11:12', 'an ordinary morning'],
  ];

  it.each(BOUNDARIES)('%s is %s in Beijing (%s)', (iso, wall) => {
    const [day, time] = wall.split(' ') as [string, string];
    const [Y, M, D] = day.split('-');
    const at = new Date(iso);
    expect(beijingDay(at)).toBe(day);
    expect(beijingMonth(at)).toBe(`${Y}-${M}`);
    expect(beijingCompactDay(at)).toBe(`${Y}${M}${D}`);
    expect(beijingChineseDay(at)).toBe(`${Y}年${M}月${D}日`);
    expect(beijingDateTime(at)).toBe(wall);
    expect(beijingDateTimeMinutes(at)).toBe(wall.slice(0, 16));
    expect(beijingMonthDayMinutes(at)).toBe(wall.slice(5, 16));
    expect(beijingFileStamp(at)).toBe(`${Y}${M}${D}_${time.replaceAll(':', '')}`);
    expect(beijingParts(at)).toMatchObject({ year: Number(Y), month: Number(M), day: Number(D) });
    expect(startOfBeijingDay(at)).toEqual(new Date(`${day}T00:00:00+08:00`));
  });

  it('reads Dates, ISO-8601 and PostgreSQL texts and epoch milliseconds alike', () => {
    const ms = Date.parse('2026-11-22T06:40:00.123Z');
    for (const t of [new Date(ms), ms, '2026-11-22T06:40:00.123Z', '2026-11-22 06:40:00.123456+00']) {
      expect(beijingDateTime(t)).toBe('2026-11-22 14:40:00');
    }
    expect(beijingDay('2026-11-22T23:30:00+08:00')).toBe('2026-11-22');
  });

  it('names the weekday: Sunday 0 to Saturday 6', () => {
    expect(beijingParts(new Date('2026-11-21T16:00:00Z'))).toEqual({
      year: 2026,
      month: 11,
      day: 22,
      weekday: 0,
    });
    expect(beijingParts(new Date('2026-11-21T15:59:59Z')).weekday).toBe(6);
  });

  it('throws a RangeError for a time that is not one, as toISOString does', () => {
    for (const bad of [new Date(Number.NaN), 'not a time', Number.NaN]) {
      expect(() => beijingDay(bad)).toThrow(RangeError);
      expect(() => beijingMonth(bad)).toThrow(RangeError);
      expect(() => beijingCompactDay(bad)).toThrow(RangeError);
      expect(() => beijingChineseDay(bad)).toThrow(RangeError);
      expect(() => beijingDateTime(bad)).toThrow(RangeError);
      expect(() => beijingDateTimeMinutes(bad)).toThrow(RangeError);
      expect(() => beijingMonthDayMinutes(bad)).toThrow(RangeError);
      expect(() => beijingFileStamp(bad)).toThrow(RangeError);
      expect(() => beijingParts(bad)).toThrow(RangeError);
    }
    expect(() => startOfBeijingDay(new Date(Number.NaN))).toThrow(RangeError);
    // a day text that is not a day gives an Invalid Date (callers check days first)
    expect(Number.isNaN(startOfBeijingDay('2026-13-01').getTime())).toBe(true);
  });

  it('defaults to now', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-31T16:30:00Z'));
    expect(beijingDay()).toBe('2027-01-01');
    expect(beijingMonth()).toBe('2027-01');
    expect(beijingParts()).toEqual({ year: 2027, month: 1, day: 1, weekday: 5 });
  });

  it('a Beijing day starts at 16:00 UTC the day before', () => {
    expect(startOfBeijingDay('2026-11-26').toISOString()).toBe('2026-11-25T16:00:00.000Z');
    expect(startOfBeijingDay('2027-01-01').toISOString()).toBe('2026-12-31T16:00:00.000Z');
    expect(startOfBeijingDay(new Date('2026-11-25T16:00:00Z')).toISOString()).toBe(
      '2026-11-25T16:00:00.000Z',
    );
    expect(startOfBeijingDay(new Date('2026-11-25T15:59:59.999Z')).toISOString()).toBe(
      '2026-11-24T16:00:00.000Z',
    );
  });

  it('the instant of a Beijing wall time, carrying months and days over as Date.UTC does', () => {
    expect(beijingInstant({ year: 2026, month: 11, day: 22, hour: 10, minute: 11, second: 12 })).toEqual(
      new Date('2026-11-22T02:11:12Z'),
    );
    expect(beijingInstant({ year: 2027, month: 1, day: 1 })).toEqual(new Date('2026-12-31T16:00:00Z'));
    expect(beijingInstant({ year: 2027, month: 0, day: 1 })).toEqual(
      beijingInstant({ year: 2026, month: 12, day: 1 }),
    );
    expect(beijingInstant({ year: 2026, month: 13, day: 20, hour: 10 })).toEqual(
      new Date('2027-01-20T10:00:00+08:00'),
    );
    expect(beijingInstant({ year: 2028, month: 3, day: 0 })).toEqual(new Date('2028-02-29T00:00:00+08:00'));
  });

  it('agrees with Intl.DateTimeFormat (zh-CN, Asia/Shanghai) for any instant from 1992 to 9999', () => {
    fc.assert(
      fc.property(instants, (d) => {
        const w = intlWall(d);
        expect(beijingDay(d)).toBe(`${w.Y}-${w.M}-${w.D}`);
        expect(beijingMonth(d)).toBe(`${w.Y}-${w.M}`);
        expect(beijingCompactDay(d)).toBe(`${w.Y}${w.M}${w.D}`);
        expect(beijingChineseDay(d)).toBe(`${w.Y}年${w.M}月${w.D}日`);
        expect(beijingDateTime(d)).toBe(`${w.Y}-${w.M}-${w.D} ${w.h}:${w.m}:${w.s}`);
        expect(beijingDateTimeMinutes(d)).toBe(`${w.Y}-${w.M}-${w.D} ${w.h}:${w.m}`);
        expect(beijingMonthDayMinutes(d)).toBe(`${w.M}-${w.D} ${w.h}:${w.m}`);
        expect(beijingFileStamp(d)).toBe(`${w.Y}${w.M}${w.D}_${w.h}${w.m}${w.s}`);
        expect(beijingParts(d)).toEqual({
          year: Number(w.Y),
          month: Number(w.M),
          day: Number(w.D),
          weekday: w.weekday,
        });
      }),
      { numRuns: 500 },
    );
  });

  it('the start of an instant’s Beijing day is the wall time 00:00 of that day, at most 24 h before it', () => {
    fc.assert(
      fc.property(instants, (d) => {
        const start = startOfBeijingDay(d);
        expect(start.getTime()).toBeLessThanOrEqual(d.getTime());
        expect(d.getTime() - start.getTime()).toBeLessThan(86_400_000);
        expect(beijingDateTime(start)).toBe(`${beijingDay(d)} 00:00:00`);
        expect(startOfBeijingDay(beijingDay(d))).toEqual(start);
        const { year, month, day } = beijingParts(d);
        expect(beijingInstant({ year, month, day })).toEqual(start);
      }),
      { numRuns: 300 },
    );
  });

  it('beijingInstant undoes the wall clock to the second', () => {
    fc.assert(
      fc.property(instants, (d) => {
        const w = intlWall(d);
        const back = beijingInstant({
          year: Number(w.Y),
          month: Number(w.M),
          day: Number(w.D),
          hour: Number(w.h),
          minute: Number(w.m),
          second: Number(w.s),
        });
        expect(back.getTime()).toBe(d.getTime() - (d.getTime() % 1000));
      }),
      { numRuns: 300 },
    );
  });
});
