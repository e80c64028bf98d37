/**
 * Monthly filing window (domain.md §7.1): the month `period` is copied (抄税) and cleared (清卡) from
 * the 1st to the 15th of the next month, Beijing time. Pure, so the rules are tested without a clock.
 */
export type FilingClock = { period: string; inWindow: boolean; windowEnd: string };

export function filingClock(now: Date): FilingClock {
  const bj = new Date(now.getTime() + 8 * 3600_000);
  const y = bj.getUTCFullYear();
  const m = bj.getUTCMonth(); // 0-based current month
  const day = bj.getUTCDate();
  const prev = new Date(Date.UTC(y, m - 1, 1));
  const period = `${prev.getUTCFullYear()}-${String(prev.getUTCMonth() + 1).padStart(2, '0')}`;
  const windowEnd = `${y}-${String(m + 1).padStart(2, '0')}-15`;
  return { period, inWindow: day >= 1 && day <= 15, windowEnd };
}

export type FilingState = { copiedAt: Date | null; clearedAt: Date | null };

/** 已到抄税期 / 已到锁死期 for the period `clock.period`. */
export function filingFlags(clock: FilingClock, f: FilingState | null) {
  const copyDue = clock.inWindow && !f?.copiedAt;
  const lockDue = !clock.inWindow && !f?.clearedAt;
  return { copyDue, lockDue };
}

/** What the action may do now; returns the refusal reason or null. */
export function filingRefusal(
  action: 'copy' | 'clear',
  clock: FilingClock,
  f: FilingState | null,
): 'out_of_window' | 'already_copied' | 'not_copied' | 'already_cleared' | null {
  if (!clock.inWindow) return 'out_of_window';
  if (action === 'copy') return f?.copiedAt ? 'already_copied' : null;
  if (!f?.copiedAt) return 'not_copied';
  return f.clearedAt ? 'already_cleared' : null;
}
