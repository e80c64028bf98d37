import type { UserInfo } from '@kaipiao/shared';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { readJson, STORAGE_KEYS } from '../lib/storage-keys.ts';

// spec §3 session storage: the token is an HttpOnly cookie the server sets on sign-in and clears on
// logout (~2 h; no script can read it, so an injected script cannot steal it); this store keeps only
// until when it lives, and the rest in sessionStorage, seeded from the last selection in
// localStorage when a new tab starts with an empty sessionStorage.

export type Business = {
  client_id: number;
  name: string;
  tax_code: string;
  org_id: number;
  industry: 'general' | 'hotel';
};
export type SelectedStore = { client_store_id: number; name: string };
export type WxworkInfo = { corp_id: string; qw_user_id: string; role: number; is_register: 0 | 1 };
type LastSelection = { user_id: number; business: Business; store: SelectedStore };

export type SignIn = {
  expires_in?: number;
  user?: UserInfo;
  source?: string;
  platform?: string;
};

type SessionData = {
  /** signed in on this browser (the cookie's lifetime, as the sign-in answer gave it) */
  signedIn: boolean;
  business: Business | null;
  store: SelectedStore | null;
  user: UserInfo | null;
  source: string;
  platform: string;
  wxwork: WxworkInfo | null;
  /** first console entry after signing in (one-time prompts) */
  firstTime: boolean;
  weakPassword: boolean;
};

type SessionActions = {
  signIn: (payload: SignIn) => void;
  setUser: (user: UserInfo) => void;
  setWxwork: (info: WxworkInfo | null) => void;
  select: (business: Business, store: SelectedStore) => void;
  setFirstTime: (value: boolean) => void;
  /** logout / 401: session, user, business, store and login source cleared */
  reset: () => void;
};

const readSignedIn = () => Number(localStorage.getItem(STORAGE_KEYS.signedInUntil)) > Date.now();
const lastSelection = () => readJson<LastSelection>(localStorage, STORAGE_KEYS.lastSelection);

const empty: Omit<SessionData, 'signedIn'> = {
  business: null,
  store: null,
  user: null,
  source: '',
  platform: '',
  wxwork: null,
  firstTime: false,
  weakPassword: false,
};

export const useSessionStore = create<SessionData & SessionActions>()(
  persist(
    (set, get) => ({
      ...empty,
      signedIn: readSignedIn(),
      business: lastSelection()?.business ?? null,
      store: lastSelection()?.store ?? null,
      signIn: ({ expires_in, user, source, platform }) => {
        // the server has set the cookie with the answer; remember how long it lives
        const until = Date.now() + (expires_in ?? 7200) * 1000;
        localStorage.setItem(STORAGE_KEYS.signedInUntil, String(until));
        const last = lastSelection();
        const keep = user && last?.user_id === user.user_id;
        set({
          signedIn: true,
          user: user ?? get().user,
          source: source ?? user?.source ?? get().source,
          platform: platform ?? user?.platform ?? get().platform,
          weakPassword: user?.is_weak_password === 1,
          firstTime: true,
          business: keep ? last.business : null,
          store: keep ? last.store : null,
        });
      },
      setUser: (user) => set({ user, weakPassword: user.is_weak_password === 1 }),
      setWxwork: (wxwork) => set({ wxwork }),
      select: (business, store) => {
        const user = get().user;
        if (user) {
          const last: LastSelection = { user_id: user.user_id, business, store };
          localStorage.setItem(STORAGE_KEYS.lastSelection, JSON.stringify(last));
        }
        set({ business, store });
      },
      setFirstTime: (firstTime) => set({ firstTime }),
      reset: () => {
        localStorage.removeItem(STORAGE_KEYS.signedInUntil);
        localStorage.removeItem(STORAGE_KEYS.lastSelection);
        set({ ...empty, signedIn: false });
      },
    }),
    {
      name: STORAGE_KEYS.session,
      storage: createJSONStorage(() => sessionStorage),
      partialize: ({ signedIn: _signedIn, ...data }) => ({
        business: data.business,
        store: data.store,
        user: data.user,
        source: data.source,
        platform: data.platform,
        wxwork: data.wxwork,
        firstTime: data.firstTime,
        weakPassword: data.weakPassword,
      }),
    },
  ),
);

/** Whether the session still lives now (it may have expired since the store was read). */
export const isSignedIn = readSignedIn;
