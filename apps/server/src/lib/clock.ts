/**
 * What "now" is to the rules that turn on a date or a time window: the small-scale 3% reason (the
 * 1% reduction ends 2027-12-31, Beijing), the rates a taxpayer may use that day, the per-IP rate
 * limits' fixed windows (scan public calls, failed logins) and the SMS resend wait and daily caps.
 * The app reads it as `app.clock()`. Production runs on the system clock; a test builds its app
 * with a clock it sets (`buildApp({ clock })`, test/clock.ts), so a dated rule is tested on both
 * sides of its date and a window is never straddled by accident. PostgreSQL's own `now()` (row
 * timestamps, lock expiries) is not this clock.
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
