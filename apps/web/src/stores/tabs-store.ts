import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { STORAGE_KEYS } from '../lib/storage-keys.ts';

// spec §2 page tabs: one per visited titled route, closable; kept for the browser session.
export type PageTab = { path: string; name: string };

export function addTab(tabs: readonly PageTab[], tab: PageTab): PageTab[] {
  const at = tabs.findIndex((t) => t.path === tab.path);
  if (at === -1) return [...tabs, tab];
  if (tabs[at].name === tab.name) return tabs as PageTab[];
  return tabs.map((t, i) => (i === at ? tab : t));
}

/** Removes a tab; `next` is where to go when the active tab closed (right neighbour, else left). */
export function removeTab(
  tabs: readonly PageTab[],
  path: string,
  activePath: string,
): { tabs: PageTab[]; next: string | null } {
  const at = tabs.findIndex((t) => t.path === path);
  if (at === -1) return { tabs: tabs as PageTab[], next: null };
  const rest = tabs.filter((_, i) => i !== at);
  if (path !== activePath) return { tabs: rest, next: null };
  const neighbour = rest[at] ?? rest[at - 1];
  return { tabs: rest, next: neighbour?.path ?? null };
}

type TabsState = {
  tabs: PageTab[];
  open: (tab: PageTab) => void;
  /** closes `path`; returns the path to show next when it was the active one */
  close: (path: string, activePath: string) => string | null;
  closeOthers: (path: string) => void;
  clear: () => void;
};

export const useTabsStore = create<TabsState>()(
  persist(
    (set, get) => ({
      tabs: [],
      open: (tab) => set({ tabs: addTab(get().tabs, tab) }),
      close: (path, activePath) => {
        const { tabs, next } = removeTab(get().tabs, path, activePath);
        set({ tabs });
        return next;
      },
      closeOthers: (path) => set({ tabs: get().tabs.filter((t) => t.path === path) }),
      clear: () => set({ tabs: [] }),
    }),
    { name: STORAGE_KEYS.tabs, storage: createJSONStorage(() => sessionStorage) },
  ),
);
