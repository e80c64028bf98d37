import { SUMMARY_STORE_ID } from '@kaipiao/shared/constants/menu';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import {
  type DialogKind,
  type DialogPropsMap,
  openDialog,
  useDialogStore,
} from '../../../components/dialog-host/index.ts';
import { getUserInfo } from '../../../features/auth/api/account.ts';
import { getPublicNotice } from '../../../features/notices/api.ts';
import { STORAGE_KEYS } from '../../../lib/storage-keys.ts';
import { useSessionStore } from '../../../stores/session-store.ts';

type Prompt = { [K in DialogKind]: { kind: K; props: DialogPropsMap[K] } }[DialogKind];

/**
 * What the console does on entry: refresh the user info, then show the one-time prompts one after
 * another — the forced password change (expired), the weak-password warning after sign-in, the
 * public notice, and the all-stores summary guide.
 */
export function ConsoleEffects() {
  const [queue, setQueue] = useState<Prompt[]>([]);
  const anyOpen = useDialogStore((s) => Object.values(s.entries).some((e) => e?.open));
  const prompted = useRef(false);
  const user = useQuery({ queryKey: ['user-info'], queryFn: getUserInfo, staleTime: 0 });

  useEffect(() => {
    if (user.data) useSessionStore.getState().setUser(user.data);
  }, [user.data]);

  // once per console entry, on fresh user info
  useEffect(() => {
    if (!user.data || user.isFetching || prompted.current) return;
    prompted.current = true;
    const session = useSessionStore.getState();
    if (user.data.password_expired === 1) {
      setQueue([{ kind: 'change-password', props: { forced: true } }]);
      return;
    }
    const prompts: Prompt[] = [];
    if (session.firstTime && user.data.is_weak_password === 1) {
      prompts.push({ kind: 'change-password', props: {} });
    }
    session.setFirstTime(false);
    if (
      session.store?.client_store_id === SUMMARY_STORE_ID &&
      !localStorage.getItem(STORAGE_KEYS.summaryGuide)
    ) {
      prompts.push({ kind: 'summary-guide', props: {} });
    }
    setQueue((q) => [...q, ...prompts]);
    if (!sessionStorage.getItem(STORAGE_KEYS.noticeShown)) {
      sessionStorage.setItem(STORAGE_KEYS.noticeShown, '1');
      getPublicNotice()
        .then((notice) => notice && setQueue((q) => [{ kind: 'public-notice', props: notice }, ...q]))
        .catch(() => undefined);
    }
  }, [user.data, user.isFetching]);

  useEffect(() => {
    if (anyOpen || queue.length === 0) return;
    const [next, ...rest] = queue;
    setQueue(rest);
    openDialog(next.kind, next.props as never);
  }, [anyOpen, queue]);

  return null;
}
