/** The day after `day` (YYYY-MM-DD). */
export function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` inclusive. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

export function isRealDay(day: string): boolean {
  const d = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === day;
}

/**
 * ISO-8601 of a timestamp from a raw query: drizzle hands timestamptz of `db.execute` results back as
 * PostgreSQL text ('2026-11-22 06:40:00.123456+00'), typed columns as Date.
 */
export function isoOf(v: Date | string): string;
export function isoOf(v: Date | string | null | undefined): string | null;
export function isoOf(v: Date | string | null | undefined): string | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)?([+-]\d{2})(:?\d{2})?$/.exec(v.trim());
  if (!m) return new Date(v).toISOString();
  // Stryker disable next-line MethodExpression,StringLiteral: V8's Date reads the first three fraction digits and drops the rest, as the slice does, and reads .1 as .100 unpadded (the fill '0' → ''; skips the killed '.000' → '')
  const ms = (m[3] ?? '.000').slice(0, 4).padEnd(4, '0');
  const offset = `${m[4]}:${(m[5] ?? '00').replace(':', '')}`;
  return new Date(`${m[1]}T${m[2]}${ms}${offset}`).toISOString();
}

/** Milliseconds since the epoch of a raw-query timestamp. */
export const timeOf = (v: Date | string): number => Date.parse(isoOf(v));
