/**
 * The business calendar: Beijing time (Asia/Shanghai), UTC+8 all year round. Invoice dates, quota
 * and filing months, daily caps, report days and every time the console shows are read here, on the
 * server, in the browser and in shared rules alike, whatever the machine's own time zone.
 *
 * A fixed offset: China has kept no daylight saving since September 1991, so for any instant since
 * then this agrees with the time-zone database (beijing.test.ts checks it against Intl).
 *
 * Each function takes an instant (a Date, or a string / number `new Date()` reads) and, like
 * `Date.prototype.toISOString`, throws a RangeError when it is not a valid time.
 */

/** The IANA name, for Intl and for SQL (`at time zone`). */
export const BEIJING_TIME_ZONE = 'Asia/Shanghai';

const OFFSET_MS = 8 * 3_600_000;

/** A moment: a Date, an ISO-8601 / PostgreSQL timestamp text, or milliseconds since the epoch. */
export type Instant = Date | string | number;

/** The Beijing wall clock of `t` written as if it were UTC: '2026-11-22T10:11:12.345Z'. */
function wallClock(t: Instant): string {
  const ms = t instanceof Date ? t.getTime() : new Date(t).getTime();
  return new Date(ms + OFFSET_MS).toISOString();
}

/** '2026-11-22': the Beijing calendar day (now by default). */
export function beijingDay(t: Instant = new Date()): string {
  return wallClock(t).slice(0, 10);
}

/** '2026-11': the Beijing calendar month (now by default). */
export function beijingMonth(t: Instant = new Date()): string {
  return wallClock(t).slice(0, 7);
}

/** '20261122': the Beijing day without separators (invoice QR text, form numbers). */
export function beijingCompactDay(t: Instant): string {
  return beijingDay(t).replaceAll('-', '');
}

/** '2026年11月22日': the Beijing day as the printed invoice writes it. */
export function beijingChineseDay(t: Instant): string {
  const w = wallClock(t);
  return `${w.slice(0, 4)}年${w.slice(5, 7)}月${w.slice(8, 10)}日`;
}

/** '2026-11-22 10:11:12': Beijing date and time to the second. */
export function beijingDateTime(t: Instant): string {
  const w = wallClock(t);
  return `${w.slice(0, 10)} ${w.slice(11, 19)}`;
}

/** '2026-11-22 10:11': Beijing date and time to the minute. */
export function beijingDateTimeMinutes(t: Instant): string {
  const w = wallClock(t);
  return `${w.slice(0, 10)} ${w.slice(11, 16)}`;
}

/** '11-22 10:11': Beijing month, day and time to the minute (tables where the year is plain). */
export function beijingMonthDayMinutes(t: Instant): string {
  return beijingDateTimeMinutes(t).slice(5);
}

/** '20261122_101112': a Beijing time for file names (yyyyMMdd_HHmmss). */
export function beijingFileStamp(t: Instant): string {
  return beijingDateTime(t).replace(/[-:]/g, '').replace(' ', '_');
}

/** A Beijing calendar day as numbers: `month` 1–12, `weekday` 0 (Sunday) – 6 (Saturday). */
export type BeijingParts = { year: number; month: number; day: number; weekday: number };

/** The Beijing calendar fields of `t` (now by default). */
export function beijingParts(t: Instant = new Date()): BeijingParts {
  const w = new Date(wallClock(t));
  return {
    year: w.getUTCFullYear(),
    month: w.getUTCMonth() + 1,
    day: w.getUTCDate(),
    weekday: w.getUTCDay(),
  };
}

/**
 * The instant a Beijing wall-clock time names (`month` 1–12). Fields out of range carry over as in
 * `Date.UTC`: month 0 is December of the year before, month 13 January of the next, day 0 the last
 * day of the month before.
 */
export function beijingInstant(f: {
  year: number;
  month: number;
  day: number;
  hour?: number;
  minute?: number;
  second?: number;
}): Date {
  return new Date(
    Date.UTC(f.year, f.month - 1, f.day, f.hour ?? 0, f.minute ?? 0, f.second ?? 0) - OFFSET_MS,
  );
}

/**
 * 00:00 Beijing time of a day: a Beijing day 'YYYY-MM-DD' (an Invalid Date if it is not one), or the
 * day an instant falls on.
 */
export function startOfBeijingDay(day: string | Date): Date {
  return new Date(Date.parse(`${typeof day === 'string' ? day : beijingDay(day)}T00:00:00Z`) - OFFSET_MS);
}
