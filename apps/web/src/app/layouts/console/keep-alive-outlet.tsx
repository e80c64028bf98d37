import { Activity, Fragment, type ReactNode, useRef } from 'react';
import { useLocation, useOutlet } from 'react-router';
import { useLayoutStore } from '../../../stores/layout-store.ts';
import { useTabsStore } from '../../../stores/tabs-store.ts';
import { setKeptAlive } from '../../kept-alive.ts';
import type { AppRoute } from '../../route-config.tsx';
import { RouteGate } from './route-gate.tsx';

/**
 * Pages flagged keepAlive stay mounted (hidden) while their tab is open, so switching tabs keeps
 * their state; closing the tab or pressing refresh drops it.
 */
export function KeepAliveOutlet({ route }: { route?: AppRoute }) {
  const outlet = useOutlet();
  const { pathname } = useLocation();
  const tabs = useTabsStore((s) => s.tabs);
  const reloads = useLayoutStore((s) => s.reloads);
  const cache = useRef(new Map<string, ReactNode>());

  const page = <RouteGate route={route}>{outlet}</RouteGate>;
  if (route?.keepAlive) cache.current.set(pathname, page);
  for (const path of cache.current.keys()) {
    if (path !== pathname && !tabs.some((t) => t.path === path)) cache.current.delete(path);
  }
  setKeptAlive(cache.current.keys());

  return (
    <>
      {[...cache.current].map(([path, element]) => (
        <Activity key={`${path}#${reloads[path] ?? 0}`} mode={path === pathname ? 'visible' : 'hidden'}>
          {element}
        </Activity>
      ))}
      {!route?.keepAlive && <Fragment key={`${pathname}#${reloads[pathname] ?? 0}`}>{page}</Fragment>}
    </>
  );
}
