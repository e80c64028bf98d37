import { useMatches } from 'react-router';
import type { AppRoute } from '../route-config.tsx';
import type { RouteHandle } from '../router.tsx';

/** The route-table entry of the deepest matched route. */
export function useCurrentRoute(): AppRoute | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i].handle as RouteHandle | undefined;
    if (handle?.route) return handle.route;
  }
  return undefined;
}
