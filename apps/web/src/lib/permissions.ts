import type { MenuEntry } from '@kaipiao/shared';
import { MSG } from '@kaipiao/shared/validation/messages';

// spec §4 route filtering and disabled state, spec §6 VIP sign. Pure: the console layout feeds it
// the route table and GET /v3/authority/menu-list, the router and the sidebar read the result.

export type GuardedRoute = {
  path: string;
  /** menu-list url; routes without one are public inside the console */
  permission?: string;
  area?: 'main' | 'group';
  hidden?: boolean;
};

export type RouteAccess = {
  visible: boolean;
  disabled: boolean;
  /** prompt shown on a disabled page */
  prompt?: string;
  vip: boolean;
};

export type Access = {
  of: (path: string) => RouteAccess;
  groupAuth: boolean;
  /** first permitted, enabled, non-hidden main menu path; null → /403 */
  firstPath: string | null;
};

const OPEN: RouteAccess = { visible: true, disabled: false, vip: false };
const DENIED: RouteAccess = { visible: false, disabled: false, vip: false };

/** A listed route stays unless is_auth and is_gray are both 0 (an unlisted one is dropped by routeAccess). */
export function isEntryVisible(entry: MenuEntry): boolean {
  return !(entry.is_auth === 0 && entry.is_gray === 0);
}

/** Gray and not authorised (bookkeeping-expired or not) → shown with a prompt, page disabled. */
export function disabledPrompt(entry: MenuEntry): string | undefined {
  if (entry.is_gray !== 1 || entry.is_auth !== 0) return undefined;
  if (entry.is_gray_from_bookkeeping === 1) return MSG.GRAY_BOOKKEEPING;
  if (entry.is_new_client === 1) return MSG.NEW_CLIENT;
  if (entry.is_need_pay === 1) return MSG.NEED_PAY;
  return MSG.GRAY_ROUTE;
}

export function routeAccess(route: GuardedRoute, byUrl: ReadonlyMap<string, MenuEntry>): RouteAccess {
  if (!route.permission) return OPEN;
  const entry = byUrl.get(route.permission);
  if (!entry || !isEntryVisible(entry)) return DENIED;
  const prompt = disabledPrompt(entry);
  return {
    visible: true,
    disabled: prompt !== undefined,
    prompt,
    vip: entry.is_need_pay === 1 || entry.is_gray === 1,
  };
}

export function buildAccess(routes: readonly GuardedRoute[], entries: readonly MenuEntry[]): Access {
  const byUrl = new Map(entries.map((e) => [e.url, e]));
  const byPath = new Map(routes.map((r) => [r.path, routeAccess(r, byUrl)]));
  const of = (path: string) => byPath.get(path) ?? OPEN;
  const usable = (r: GuardedRoute) => !r.hidden && of(r.path).visible;
  const first = routes.find((r) => r.area === 'main' && r.permission && usable(r) && !of(r.path).disabled);
  return {
    of,
    groupAuth: routes.some((r) => r.area === 'group' && usable(r)),
    firstPath: first?.path ?? null,
  };
}
