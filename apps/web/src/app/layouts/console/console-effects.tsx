import { SUMMARY_STORE_ID } from '@kaipiao/shared/constants/menu';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { type Prompt, queuePrompt, useDialogStore } from '../../../components/dialog-host/index.ts';
import { getUserInfo } from '../../../features/auth/api/account.ts';
import { getPublicNotice } from '../../../features/notices/api.ts';
import { STORAGE_KEYS } from '../../../lib/storage-keys.ts';
import { useSessionStore } from '../../../stores/session-store.ts';

/**
 * What the console does on entry: refresh the user info, then show the one-time prompts one after
 * another — the forced password change (expired), the weak-password warning after sign-in, the
 * public notice, and the all-stores summary guide. They queue with every other prompt (one dialog at
 * a time), and page notices wait until they are decided and shown (issue 24 item 9).
 */
export function ConsoleEffects() {
  const prompted = useRef(false);
  const user = useQuery({ queryKey: ['user-info'], queryFn: getUserInfo, staleTime: 0 });

  // each console entry decides its prompts again; a failed user info decides none
  useEffect(() => {
    const { setEntryPending } = useDialogStore.getState();
    setEntryPending(true);
    return () => setEntryPending(true);
  }, []);
  useEffect(() => {
    if (user.isError) useDialogStore.getState().setEntryPending(false);
  }, [user.isError]);

  useEffect(() => {
    if (user.data) useSessionStore.getState().setUser(user.data);
  }, [user.data]);

  // once per console entry, on fresh user info
  useEffect(() => {
    if (!user.data || user.isFetching || prompted.current) return;
    prompted.current = true;
    const session = useSessionStore.getState();
    const decided = () => useDialogStore.getState().setEntryPending(false);
    if (user.data.password_expired === 1) {
      queuePrompt({ kind: 'change-password', props: { forced: true } }, { first: true });
      decided();
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
    const queueAll = (first: Prompt | null) => {
      for (const p of first ? [first, ...prompts] : prompts) queuePrompt(p);
      decided();
    };
    if (sessionStorage.getItem(STORAGE_KEYS.noticeShown)) {
      queueAll(null);
      return;
    }
    sessionStorage.setItem(STORAGE_KEYS.noticeShown, '1');
    // the public notice first, then the account's prompts
    getPublicNotice()
      .then((notice) => queueAll(notice ? { kind: 'public-notice', props: notice } : null))
      .catch(() => queueAll(null));
  }, [user.data, user.isFetching]);

  return null;
}
