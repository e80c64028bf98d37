import { QueryClient } from '@tanstack/react-query';
import { useSessionStore } from '../stores/session-store.ts';
import { partitionByScope } from './query-scope.ts';

export const queryClient = new QueryClient({
  defaultOptions: {
    // the API client already showed the failure; no silent retry storms
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});

// Signing out drops every cached answer (menu, lists) with the session.
useSessionStore.subscribe((state, prev) => {
  if (prev.signedIn && !state.signedIn) queryClient.clear();
});
// Switching business or store drops every answer of the previous one (lib/query-scope.ts).
partitionByScope(queryClient);
