import { PLATFORM_WXWORK } from '@kaipiao/shared/constants/menu';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { openDialog } from '../../../components/dialog-host/index.ts';
import { alertError } from '../../../lib/antd/feedback.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { isMobileUserAgent } from '../../../lib/device.ts';
import { STORAGE_KEYS } from '../../../lib/storage-keys.ts';
import { useSessionStore } from '../../../stores/session-store.ts';
import { checkSecureId, wecomLogin } from '../api/login.ts';
import {
  decideSecureId,
  decideWecom,
  homePath,
  type LoginEntry,
  readLoginEntry,
} from '../utils/login-routing.ts';
import { useCompleteLogin } from './use-complete-login.ts';

/** spec §4: a token, ticket or work-app code in the login URL signs in without the form. */
export function useLoginEntry(): { busy: boolean } {
  const [search] = useSearchParams();
  const [entry] = useState<LoginEntry>(() => readLoginEntry(search));
  const [busy, setBusy] = useState(entry.kind !== 'form');
  const started = useRef(false);
  const completeLogin = useCompleteLogin();
  const navigate = useNavigate();

  useEffect(() => {
    if (started.current || entry.kind === 'form') return;
    started.current = true;
    const secure_id = localStorage.getItem(STORAGE_KEYS.secureId) ?? undefined;

    async function viaSecureId(e: Extract<LoginEntry, { kind: 'secure-id' }>) {
      const answer = await checkSecureId({ token: e.token, ticket: e.ticket, app_id: e.app_id, secure_id });
      const outcome = decideSecureId(answer, e);
      if (outcome.kind === 'signed-in') {
        await completeLogin({ token: outcome.token, user: answer.user, source: outcome.source });
      } else if (outcome.kind === 'verify-phone') {
        const { kind: _kind, ...rest } = outcome;
        openDialog('phone-verify', { mode: 'secure-id', ...rest });
      }
    }

    async function viaWecom(e: Extract<LoginEntry, { kind: 'wecom' }>) {
      const result = await wecomLogin({ code: e.code, appid: e.appid }).then(
        (data) => ({ data }),
        (error: unknown) => {
          if (isApiError(error) && error.code !== undefined) return { errorCode: error.code, error };
          throw error;
        },
      );
      const outcome = decideWecom(result);
      if ('data' in result) {
        const { corp_id, qw_user_id, role, is_register } = result.data;
        useSessionStore.getState().setWxwork({ corp_id, qw_user_id, role, is_register });
      }
      if (outcome.kind === 'home') {
        const user = 'data' in result ? result.data.user : undefined;
        await completeLogin(
          { token: outcome.token, user, platform: PLATFORM_WXWORK },
          homePath(isMobileUserAgent()),
        );
      } else if (outcome.kind === 'redirect') {
        navigate(outcome.to, { replace: true });
      } else if (outcome.kind === 'enterprise-login') {
        const back = `${window.location.origin}/user/login`;
        const query = new URLSearchParams({ redirect_uri: back, ...(e.appid ? { appid: e.appid } : {}) });
        window.location.assign(`${outcome.url}?${query}`);
      } else if ('error' in result) {
        alertError('提示', result.error.message);
      }
    }

    const run = entry.kind === 'secure-id' ? viaSecureId(entry) : viaWecom(entry);
    // failures of the calls were shown by the API client; the form stays usable
    run.catch(() => undefined).finally(() => setBusy(false));
  }, [entry, completeLogin, navigate]);

  return { busy };
}
