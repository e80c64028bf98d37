import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { STORAGE_KEYS } from '../lib/storage-keys.ts';

// spec §2: the sidebar's collapsed state is remembered; refresh re-mounts the current page.
type LayoutState = {
  collapsed: boolean;
  /** per-path counter; bumping it re-mounts that page */
  reloads: Record<string, number>;
  toggleCollapsed: () => void;
  reload: (path: string) => void;
};

export const useLayoutStore = create<LayoutState>()(
  persist(
    (set, get) => ({
      collapsed: false,
      reloads: {},
      toggleCollapsed: () => set({ collapsed: !get().collapsed }),
      reload: (path) => set({ reloads: { ...get().reloads, [path]: (get().reloads[path] ?? 0) + 1 } }),
    }),
    {
      name: STORAGE_KEYS.layout,
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({ collapsed: s.collapsed }),
    },
  ),
);
