import { beijingDateTime, beijingDateTimeMinutes } from '@kaipiao/shared/time/beijing';

/** Display formats shared by the pages: times in Beijing time and amounts with thousands separators. */

/** '2026-11-22 10:11' (or with seconds) in Beijing time; '—' for none. */
export function beijingTime(iso: string | null | undefined, withSeconds = false): string {
  if (!iso) return '—';
  return withSeconds ? beijingDateTime(iso) : beijingDateTimeMinutes(iso);
}

/** "1,234.50" */
export function money(v: string | number): string {
  const n = Number(v);
  return Number.isFinite(n)
    ? n.toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
    : String(v);
}
