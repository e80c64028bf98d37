import type { QueryClient } from '@tanstack/react-query';
import { useSessionStore } from '../stores/session-store.ts';

/**
 * Every cached answer that belongs to a business lives under the business and store it was asked
 * for (issue 19 item 3): its query key starts with ['scope', client_id, sid], the same values the
 * API client sends with the call. Switching business or store drops every such answer, so no page
 * can show the previous taxpayer's rates, devices or lists, even for a moment. Answers that belong
 * to the user (user info, orgs, the business list) are not scoped.
 */

export const SCOPE = 'scope';

/** ['scope', client_id, sid] of the current selection (0 while none is selected). */
export function scopeOf(): readonly [typeof SCOPE, number, number] {
  const { business, store } = useSessionStore.getState();
  return [SCOPE, business?.client_id ?? 0, store?.client_store_id ?? 0];
}

/** A query key inside the current business and store: scopedKey('devices', id). */
export function scopedKey<const T extends readonly unknown[]>(
  ...parts: T
): readonly [typeof SCOPE, number, number, ...T] {
  return [...scopeOf(), ...parts];
}

/** Drops every business-scoped answer when the business or the store changes (and on sign-out). */
export function partitionByScope(client: QueryClient): () => void {
  return useSessionStore.subscribe((state, prev) => {
    if (
      state.business?.client_id !== prev.business?.client_id ||
      state.store?.client_store_id !== prev.store?.client_store_id
    ) {
      client.removeQueries({ queryKey: [SCOPE] });
    }
  });
}
