import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { PageLoading } from '../components/lite/page-loading.tsx';
import { configureApi } from '../lib/api.ts';
import { GuestOnly, RequireAuth } from './guards/auth-guards.tsx';
import { RequireBusiness } from './guards/require-business.tsx';
import { prefetchRoute } from './prefetch.ts';
import { RootRoute, RouteError } from './root-route.tsx';
import {
  type AppRoute,
  BLANK_ROUTES,
  CONSOLE_ROUTES,
  GROUP_HOME,
  MOBILE_ROUTES,
  USER_ROUTES,
} from './route-config.tsx';
import LoginRoute from './routes/user/login.tsx';

// Derived from the route table. Every page and layout is a lazy chunk but the login page, which
// loads no antd at all (the other pages get it from the AntdLayout route).
export type RouteHandle = { route: AppRoute };

function toRoute(def: AppRoute): RouteObject {
  return {
    path: def.path,
    handle: { route: def } satisfies RouteHandle,
    lazy: async () => ({ Component: (await def.page()).default }),
  };
}

const isLogin = (r: AppRoute) => r.path.startsWith('/user/login');
/**
 * The login page is part of the first load (issue 11): its code comes with the entry's scripts
 * (the `lite` chunk, build/chunks.ts) and the first render draws it. As a lazy route it cost a
 * phone one round trip more for its own chunk, then a render of the fallback and a task more
 * before the page was painted (Lighthouse's mobile LCP).
 */
const loginRoute = (def: AppRoute): RouteObject => ({
  path: def.path,
  handle: { route: def } satisfies RouteHandle,
  Component: LoginRoute,
});
const antdLayout = async () => ({ Component: (await import('../lib/antd/provider.tsx')).AntdLayout });
const consoleLayout = async () => ({
  Component: (await import('./layouts/console-layout.tsx')).ConsoleLayout,
});
const mobileLayout = async () => ({ Component: (await import('./layouts/mobile-layout.tsx')).MobileLayout });
const rootRedirect = async () => ({
  Component: (await import('./layouts/console/root-redirect.tsx')).RootRedirect,
});

const otherUserRoutes = USER_ROUTES.filter((r) => !isLogin(r));

export const routes: RouteObject[] = [
  {
    Component: RootRoute,
    ErrorBoundary: RouteError,
    HydrateFallback: PageLoading,
    children: [
      { Component: GuestOnly, children: USER_ROUTES.filter(isLogin).map(loginRoute) },
      { path: '/huo-dong', element: <Navigate to="/huo-dong/op-loan" replace /> },
      {
        lazy: antdLayout,
        children: [
          ...otherUserRoutes.filter((r) => r.public).map(toRoute),
          ...BLANK_ROUTES.filter((r) => r.public).map(toRoute),
          {
            Component: RequireAuth,
            children: [
              ...otherUserRoutes.filter((r) => !r.public).map(toRoute),
              ...BLANK_ROUTES.filter((r) => !r.public).map(toRoute),
              {
                Component: RequireBusiness,
                children: [
                  {
                    lazy: consoleLayout,
                    children: [
                      { index: true, lazy: rootRedirect },
                      { path: '/group', element: <Navigate to={GROUP_HOME} replace /> },
                      ...CONSOLE_ROUTES.map(toRoute),
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
      {
        Component: RequireAuth,
        children: [
          {
            Component: RequireBusiness,
            children: [{ lazy: mobileLayout, children: MOBILE_ROUTES.map(toRoute) }],
          },
        ],
      },
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
];

export const router = createBrowserRouter(routes);

/**
 * A console page's data starts with its code (issue 24 item 6): when a navigation to it starts
 * (its chunk may still be loading) or, when nothing is left to load, as the router switches to it —
 * before the page mounts (app/prefetch.ts calls the page module's `prefetch`). Not a route loader:
 * a loader makes every navigation wait a tick, and the login page's redirect back (a navigation
 * the guest guard's own redirect then overtakes) would be lost.
 */
const CONSOLE_PATHS = new Set(CONSOLE_ROUTES.map((r) => r.path));
let prefetchedFor: string | undefined;
router.subscribe((state) => {
  const target = state.navigation.location ?? state.location;
  if (target.key === prefetchedFor) return;
  prefetchedFor = target.key;
  if (CONSOLE_PATHS.has(target.pathname)) prefetchRoute(target.pathname);
});

configureApi({
  navigate: (to) => void router.navigate(to),
  currentPath: () => `${router.state.location.pathname}${router.state.location.search}`,
});
