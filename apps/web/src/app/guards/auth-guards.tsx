import { Navigate, Outlet, useLocation } from 'react-router';
import { readLoginEntry } from '../../features/auth/utils/login-routing.ts';
import { isSignedIn, useSessionStore } from '../../stores/session-store.ts';

// spec §4 guard: protected paths need a session; /user/login with a session goes to /.

export function useHasToken(): boolean {
  const signedIn = useSessionStore((s) => s.signedIn);
  return signedIn && isSignedIn();
}

export function loginRedirectPath(pathname: string, search: string): string {
  return `/user/login?redirect=${encodeURIComponent(`${pathname}${search}`)}`;
}

export function RequireAuth() {
  const { pathname, search } = useLocation();
  if (!useHasToken()) return <Navigate to={loginRedirectPath(pathname, search)} replace />;
  return <Outlet />;
}

/** The login page, unless already signed in; token/ticket/code entries are still processed. */
export function GuestOnly() {
  const { search } = useLocation();
  const signedIn = useHasToken();
  if (signedIn && readLoginEntry(new URLSearchParams(search)).kind === 'form') {
    return <Navigate to="/" replace />;
  }
  return <Outlet />;
}
