import { isKeptAlive } from './kept-alive.ts';
import { findRoute } from './route-config.tsx';

// Navigation ≤ 300 ms (issue 24 item 6): a page's code is fetched before the click — when the
// pointer rests on its menu item, or when the browser is idle after the console's first load — and
// its data starts with the code (the page module's `prefetch`, called by the route's loader and on
// hover), not after the page has mounted.

/**
 * Loads a route's code; with `data`, also starts the requests its page makes first — unless the page
 * is kept mounted in its tab, where it shows what it has without asking.
 */
export function prefetchRoute(path: string, { data = true }: { data?: boolean } = {}): void {
  const route = findRoute(path);
  if (!route) return;
  route
    .page()
    .then((page) => {
      if (data && !isKeptAlive(path)) page.prefetch?.();
    })
    // a chunk that fails to load here fails again on the click, where the router shows the error
    .catch(() => undefined);
}

type IdleWindow = Window & {
  requestIdleCallback?: (cb: () => void, options?: { timeout: number }) => number;
  cancelIdleCallback?: (id: number) => void;
};

/** The first idle prefetch waits this long after the console is shown, so it never competes with it. */
export const IDLE_PREFETCH_DELAY_MS = 2_000;

/**
 * Loads the code of `paths`, one route per idle period, starting a while after the console is
 * shown (no data: that waits for a hover or a click). Returns a cancel function.
 */
export function prefetchWhenIdle(paths: readonly string[], delayMs = IDLE_PREFETCH_DELAY_MS): () => void {
  const w = window as IdleWindow;
  const queue = [...paths];
  let cancelled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let idle: number | undefined;
  const next = () => {
    if (cancelled) return;
    const path = queue.shift();
    if (!path) return;
    const run = () => {
      if (cancelled) return;
      const route = findRoute(path);
      if (!route) return next();
      route
        .page()
        .catch(() => undefined)
        .then(next);
    };
    if (w.requestIdleCallback) idle = w.requestIdleCallback(run, { timeout: 5_000 });
    else timer = setTimeout(run, 50);
  };
  timer = setTimeout(next, delayMs);
  return () => {
    cancelled = true;
    if (timer !== undefined) clearTimeout(timer);
    if (idle !== undefined) w.cancelIdleCallback?.(idle);
  };
}
