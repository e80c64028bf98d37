import { formatMoney } from '@kaipiao/shared/money/capital';
import { beijingDateTime, beijingDateTimeMinutes } from '@kaipiao/shared/time/beijing';

/** Display formats shared by the pages: times in Beijing time and amounts with thousands separators. */

/** '2026-11-22 10:11' (or with seconds) in Beijing time; '—' for none. */
export function beijingTime(iso: string | null | undefined, withSeconds = false): string {
  if (!iso) return '—';
  return withSeconds ? beijingDateTime(iso) : beijingDateTimeMinutes(iso);
}

/** "1,234.50": the shared money formatter (decimal, half-up); what it cannot read is shown as it is. */
export function money(v: string | number): string {
  return formatMoney(v) || String(v);
}
