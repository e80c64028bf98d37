import type { QueryClient } from '@tanstack/react-query';
import { useSessionStore } from '../stores/session-store.ts';
import { queryClient } from './query-client.ts';

type Selection = { clientId: number; sid: number | undefined };

/**
 * Starts a page's first requests before the page mounts (issue 24 item 6; app/prefetch.ts calls a
 * page module's `prefetch` from its route loader and on a menu hover). Nothing happens without a
 * selected business: the guards send that visit elsewhere. The page's own `useQuery` with the
 * same options then finds the answer in flight or cached; a failed prefetch leaves the page to ask
 * again and show the error itself.
 */
export function prefetchQueries(start: (selection: Selection, client: QueryClient) => void): void {
  const { business, store } = useSessionStore.getState();
  if (!business) return;
  start({ clientId: business.client_id, sid: store?.client_store_id }, queryClient);
}

/** How long a request started ahead waits to be taken by its page. */
export const EARLY_REQUEST_TTL_MS = 10_000;

type Early = { key: string; answer: Promise<unknown>; at: number };
const early = new Map<string, Early>();
const requestKey = (body: unknown) => {
  const { business, store } = useSessionStore.getState();
  return JSON.stringify([business?.client_id, store?.client_store_id, body]);
};

/**
 * Starts, ahead of the page, a request the page makes each time it is shown (the library's search,
 * the list pages' queries with staleTime 0, whose queryFn asks through `takeRequest`), which hands
 * it over. Asked again for the same body while the first is fresh, it starts nothing. `send` should
 * not show errors: a failed early request is simply asked again by the page, which shows the error then.
 */
export function prefetchRequest(name: string, body: unknown, send: () => Promise<unknown>): void {
  if (!useSessionStore.getState().business) return;
  const key = requestKey(body);
  const pending = early.get(name);
  // the hover started it and the click's route loader asks again: one request
  if (pending && pending.key === key && Date.now() - pending.at < EARLY_REQUEST_TTL_MS) return;
  const answer = send();
  answer.catch(() => undefined);
  early.set(name, { key, answer, at: Date.now() });
}

/**
 * The page's request: the early one when it asked for the same body in the same business and
 * store within `EARLY_REQUEST_TTL_MS` (and did not fail), otherwise `send()`. An early request is
 * handed over once.
 */
export function takeRequest<T>(name: string, body: unknown, send: () => Promise<T>): Promise<T> {
  const e = early.get(name);
  early.delete(name);
  if (e && e.key === requestKey(body) && Date.now() - e.at < EARLY_REQUEST_TTL_MS) {
    return (e.answer as Promise<T>).catch(() => send());
  }
  return send();
}
