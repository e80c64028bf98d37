import type { UserInfo } from '@kaipiao/shared';
import { useCallback } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { isMobileUserAgent } from '../../../lib/device.ts';
import { STORAGE_KEYS } from '../../../lib/storage-keys.ts';
import { useSessionStore } from '../../../stores/session-store.ts';
import { getUserInfo } from '../api/account.ts';
import { landingPath, SWITCH_STORE_PATH } from '../utils/login-routing.ts';

export type LoginResult = {
  token: string;
  expires_in?: number;
  user?: UserInfo;
  secure_id?: string;
  source?: string;
  platform?: string;
};

/** Stores the session and goes where spec §4 says: redirect, store switching, or home. */
export function useCompleteLogin() {
  const navigate = useNavigate();
  const [search] = useSearchParams();

  return useCallback(
    async (result: LoginResult, landing?: string) => {
      if (result.secure_id) localStorage.setItem(STORAGE_KEYS.secureId, result.secure_id);
      const session = useSessionStore.getState();
      session.signIn(result);
      // token-only sign-ins (secure-id check) learn who they are first
      if (!result.user) session.signIn({ ...result, user: await getUserInfo() });
      const redirect = search.get('redirect') ?? landing;
      const hasBusiness = Boolean(useSessionStore.getState().business);
      let target = landingPath({ redirect, hasBusiness, isMobile: isMobileUserAgent() });
      if (target === SWITCH_STORE_PATH) target = `${SWITCH_STORE_PATH}?auto=1`;
      const taxCode = search.get('taxCode') ?? search.get('tax_code');
      if (taxCode) target += `${target.includes('?') ? '&' : '?'}taxCode=${encodeURIComponent(taxCode)}`;
      navigate(target, { replace: true });
    },
    [navigate, search],
  );
}
