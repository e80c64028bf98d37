import { create } from 'zustand';

// spec §2: one instance per global dialog kind; opening one hides the one that was showing.

export type PhoneVerifyProps =
  /** mfa_ticket: from account-login's 11007 answer (the password is never sent again) */
  | { mode: 'login'; account: string; mfa_ticket: string /** the bound mobile, masked */; mobile?: string }
  | { mode: 'secure-id'; mobile?: string; token?: string; ticket?: string; app_id?: string };

export type DialogPropsMap = {
  'phone-verify': PhoneVerifyProps;
  'change-password': { forced?: boolean };
  'public-notice': { id: number; title: string; content: string };
  'contact-us': Record<string, never>;
  'summary-guide': Record<string, never>;
  /** spec §1 tax notice on home for small-scale taxpayers (features/home) */
  'small-scale-notice': {
    monthSales: string;
    quarterSales: string;
    monthThreshold: string;
    quarterThreshold: string;
    onAnswered?: () => void;
  };
  /** spec §2 real-name dialog for a 数电 device (features/real-name) */
  'real-name': { device_id: number; isInitiative?: boolean };
};
export type DialogKind = keyof DialogPropsMap;

type Entry = { props: unknown; open: boolean; seq: number };

type DialogState = {
  entries: Partial<Record<DialogKind, Entry>>;
  seq: number;
  open: <K extends DialogKind>(kind: K, props: DialogPropsMap[K]) => void;
  /** starts the closing animation */
  close: (kind: DialogKind) => void;
  /** unmounts after the closing animation */
  remove: (kind: DialogKind) => void;
};

export const useDialogStore = create<DialogState>()((set, get) => ({
  entries: {},
  seq: 0,
  open: (kind, props) => {
    const seq = get().seq + 1;
    const entries: DialogState['entries'] = {};
    for (const [k, e] of Object.entries(get().entries) as [DialogKind, Entry][])
      entries[k] = { ...e, open: false };
    entries[kind] = { props, open: true, seq };
    set({ entries, seq });
  },
  close: (kind) => {
    const entry = get().entries[kind];
    if (entry) set({ entries: { ...get().entries, [kind]: { ...entry, open: false } } });
  },
  remove: (kind) => {
    const entry = get().entries[kind];
    if (!entry || entry.open) return;
    const { [kind]: _gone, ...rest } = get().entries;
    set({ entries: rest });
  },
}));

export const openDialog = <K extends DialogKind>(kind: K, props: DialogPropsMap[K]) =>
  useDialogStore.getState().open(kind, props);
export const closeDialog = (kind: DialogKind) => useDialogStore.getState().close(kind);
export const isDialogOpen = (kind: DialogKind) => useDialogStore.getState().entries[kind]?.open === true;
