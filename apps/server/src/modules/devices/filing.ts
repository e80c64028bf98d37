import { beijingInstant, beijingMonth, beijingParts } from '@kaipiao/shared';

/**
 * Monthly filing window (domain.md §7.1): the month `period` is copied (抄税) and cleared (清卡) from
 * the 1st to the 15th of the next month, Beijing time. Pure, so the rules are tested without a clock.
 */
export type FilingClock = {
  period: string;
  inWindow: boolean;
  windowEnd: string;
  /** the period's first and last instants: [from, to) */
  from: Date;
  to: Date;
};

/** Tax-control kinds that copy and clear every month; 数电 accounts, 乐企 and blockchain do not file. */
export const FILING_KINDS: readonly string[] = [
  'ukey',
  'golden_disc',
  'tax_disc',
  'virtual_ukey',
  'baiwang_server',
];
export const filesMonthly = (kind: string) => FILING_KINDS.includes(kind);

export function filingClock(now: Date): FilingClock {
  const { year, month, day } = beijingParts(now);
  const from = beijingInstant({ year, month: month - 1, day: 1 });
  return {
    period: beijingMonth(from),
    inWindow: day >= 1 && day <= 15,
    windowEnd: `${beijingMonth(now)}-15`,
    from,
    to: beijingInstant({ year, month, day: 1 }),
  };
}

/** A device that existed before the period ended has the period to file; a newer one has nothing. */
export function isLiable(createdAt: Date, clock: FilingClock): boolean {
  return createdAt.getTime() < clock.to.getTime();
}

export type FilingState = { copiedAt: Date | null; clearedAt: Date | null };

/**
 * 已到抄税期 / 已到锁死期 for the period `clock.period`. `lockDue` is what locks the device
 * (filing-locks.ts): after the 15th, liable and not cleared.
 */
export function filingFlags(clock: FilingClock, f: FilingState | null, liable: boolean) {
  const copyDue = clock.inWindow && liable && !f?.copiedAt;
  const lockDue = !clock.inWindow && liable && !f?.clearedAt;
  return { copyDue, lockDue };
}

/**
 * What the action may do now; returns the refusal reason or null. In the window anything in order;
 * after it only the overdue period of a device whose lock is due (逾期抄报: the way out of the lock).
 */
export function filingRefusal(
  action: 'copy' | 'clear',
  clock: FilingClock,
  f: FilingState | null,
  liable: boolean,
): 'out_of_window' | 'already_copied' | 'not_copied' | 'already_cleared' | null {
  if (!clock.inWindow && !filingFlags(clock, f, liable).lockDue) return 'out_of_window';
  if (action === 'copy') return f?.copiedAt ? 'already_copied' : null;
  if (!f?.copiedAt) return 'not_copied';
  return f.clearedAt ? 'already_cleared' : null;
}
