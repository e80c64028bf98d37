import { useCallback } from 'react';
import { signOutLocally } from '../../../lib/api.ts';
import { logoutSession } from '../api/account.ts';

/**
 * spec §4 logout: server session ended, user/route/business state and tokens cleared, then the
 * login page — or the partner sign-on / source-22 address the server returns. A full page load
 * drops every in-memory cache (menu, pages kept alive).
 */
export function useLogout() {
  return useCallback(async () => {
    let redirect: string | null = null;
    try {
      redirect = (await logoutSession()).redirect_url;
    } catch {
      // the local session ends regardless
    }
    signOutLocally();
    window.location.replace(redirect || '/user/login');
  }, []);
}
