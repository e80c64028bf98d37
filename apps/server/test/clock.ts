import type { Clock } from '../src/lib/clock.ts';

/**
 * A clock a test moves by hand (lib/clock.ts): it follows the system clock until `set`, then stands
 * still at that instant until `advance`, `set` or `release`. Give it to `buildTestApp({ clock })`.
 */
export type TestClock = Clock & {
  /** stands the clock at `at` (an ISO instant or a Date) */
  set(at: string | Date): void;
  /** moves a set clock on by `ms` */
  advance(ms: number): void;
  /** follows the system clock again */
  release(): void;
};

export function testClock(): TestClock {
  let fixed: number | null = null;
  const clock = (() => new Date(fixed ?? Date.now())) as TestClock;
  clock.set = (at) => {
    fixed = new Date(at).getTime();
    if (Number.isNaN(fixed)) throw new Error(`testClock.set: not an instant: ${String(at)}`);
  };
  clock.advance = (ms) => {
    if (fixed === null) throw new Error('testClock.advance: set the clock first');
    fixed += ms;
  };
  clock.release = () => {
    fixed = null;
  };
  return clock;
}
