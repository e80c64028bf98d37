import { useSessionStore } from '../stores/session-store.ts';
import { useTabsStore } from '../stores/tabs-store.ts';
import { alertError, toastError } from './antd/feedback.ts';
import { type ApiDeps, createApiClient } from './api-client.ts';

// The app's API client. Navigation starts as a page load and is replaced by the router once it
// exists (app/router.tsx); dialogs are antd's, loaded on first use.

/** Local sign-out: session (token, user, business, source) and page tabs cleared. */
export function signOutLocally() {
  useSessionStore.getState().reset();
  useTabsStore.getState().clear();
}

const deps: ApiDeps = {
  getScope: () => {
    const { business, store } = useSessionStore.getState();
    return { client_id: business?.client_id, sid: store?.client_store_id };
  },
  navigate: (to) => window.location.assign(to),
  alert: alertError,
  toast: toastError,
  signOut: signOutLocally,
  currentPath: () => `${window.location.pathname}${window.location.search}`,
};

export function configureApi(overrides: Partial<ApiDeps>) {
  Object.assign(deps, overrides);
}

export const api = createApiClient(() => deps);
