import { useQuery } from '@tanstack/react-query';
import { Spin } from 'antd';
import { createContext, type ReactNode, useContext, useDeferredValue, useEffect, useMemo } from 'react';
import { useNavigate } from 'react-router';
import { menuListQuery } from '../api/menu.ts';
import { useSessionStore } from '../stores/session-store.ts';
import { signOutLocally } from './api.ts';
import { type Access, buildAccess, type GuardedRoute } from './permissions.ts';

const AccessContext = createContext<Access | null>(null);

/** Loads the menu permissions; spec §8: when they fail to load, the token is reset → login. */
export function AccessProvider({
  routes,
  children,
}: {
  routes: readonly GuardedRoute[];
  children: ReactNode;
}) {
  const clientId = useSessionStore((s) => s.business?.client_id ?? 0);
  const navigate = useNavigate();
  const { data, isError } = useQuery(menuListQuery(clientId));
  const built = useMemo(() => (data ? buildAccess(routes, data.list) : null), [data, routes]);
  // The whole console (shell, menu, tabs, page) first renders when the permissions arrive. That
  // answer comes through react-query's store, which React renders in one blocking task; deferred,
  // the render runs at transition priority and yields to the browser every few milliseconds
  // (issue 11: Lighthouse's total blocking time).
  const access = useDeferredValue(built);

  useEffect(() => {
    if (!isError) return;
    signOutLocally();
    navigate('/user/login', { replace: true });
  }, [isError, navigate]);

  if (!access) return <Spin fullscreen tip="正在加载权限…" />;
  return <AccessContext.Provider value={access}>{children}</AccessContext.Provider>;
}

export function useAccess(): Access {
  const access = useContext(AccessContext);
  if (!access) throw new Error('useAccess outside AccessProvider');
  return access;
}
