import type { UserInfo } from '@kaipiao/shared';
import Cookies from 'js-cookie';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { readJson, STORAGE_KEYS } from '../lib/storage-keys.ts';

// spec §3 session storage: token in a cookie (~2 h); the rest in sessionStorage, seeded from the
// last selection in localStorage when a new tab starts with an empty sessionStorage.

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
  token: string;
  expires_in?: number;
  user?: UserInfo;
  source?: string;
  platform?: string;
};

type SessionData = {
  token: string | undefined;
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
  /** logout / 401: token, user, business, store and login source cleared */
  reset: () => void;
};

const readToken = () => Cookies.get(STORAGE_KEYS.token) || undefined;
const lastSelection = () => readJson<LastSelection>(localStorage, STORAGE_KEYS.lastSelection);

const empty: Omit<SessionData, 'token'> = {
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
      token: readToken(),
      business: lastSelection()?.business ?? null,
      store: lastSelection()?.store ?? null,
      signIn: ({ token, expires_in, user, source, platform }) => {
        const days = (expires_in ?? 7200) / 86_400;
        Cookies.set(STORAGE_KEYS.token, token, { expires: days, sameSite: 'lax' });
        const last = lastSelection();
        const keep = user && last?.user_id === user.user_id;
        set({
          token,
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
        Cookies.remove(STORAGE_KEYS.token);
        localStorage.removeItem(STORAGE_KEYS.lastSelection);
        set({ ...empty, token: undefined });
      },
    }),
    {
      name: STORAGE_KEYS.session,
      storage: createJSONStorage(() => sessionStorage),
      partialize: ({ token: _token, ...data }) => ({
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

/** The token as the cookie has it now (it may have expired since the store was read). */
export const currentToken = readToken;
