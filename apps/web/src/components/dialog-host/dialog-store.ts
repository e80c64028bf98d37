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

/** A dialog the console raises by itself (not a click): it waits for its turn (issue 24 item 9). */
export type Prompt = { [K in DialogKind]: { kind: K; props: DialogPropsMap[K] } }[DialogKind];

type DialogState = {
  entries: Partial<Record<DialogKind, Entry>>;
  seq: number;
  open: <K extends DialogKind>(kind: K, props: DialogPropsMap[K]) => void;
  /** starts the closing animation */
  close: (kind: DialogKind) => void;
  /** unmounts after the closing animation */
  remove: (kind: DialogKind) => void;
  /**
   * Prompts waiting for their turn: one shows when no dialog is open, the next after it closes.
   * Page notices (banners) wait for the queue too (`usePromptsIdle`): one interruption at a time.
   */
  prompts: Prompt[];
  /** the console's entry prompts (notice, password, guide) are still being decided */
  entryPending: boolean;
  queue: (prompt: Prompt, opts?: { first?: boolean }) => void;
  setEntryPending: (pending: boolean) => void;
};

const anyOpen = (entries: DialogState['entries']) => Object.values(entries).some((e) => e?.open);

export const useDialogStore = create<DialogState>()((set, get) => {
  /** opens the next prompt when nothing is open */
  const pump = () => {
    const { entries, prompts, open } = get();
    if (prompts.length === 0 || anyOpen(entries)) return;
    const [next, ...rest] = prompts;
    set({ prompts: rest });
    open(next.kind, next.props as never);
  };
  return {
    entries: {},
    seq: 0,
    prompts: [],
    entryPending: true,
    queue: (prompt, opts = {}) => {
      set({ prompts: opts.first ? [prompt, ...get().prompts] : [...get().prompts, prompt] });
      pump();
    },
    setEntryPending: (entryPending) => set({ entryPending }),
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
      pump();
    },
    remove: (kind) => {
      const entry = get().entries[kind];
      if (!entry || entry.open) return;
      const { [kind]: _gone, ...rest } = get().entries;
      set({ entries: rest });
    },
  };
});

export const openDialog = <K extends DialogKind>(kind: K, props: DialogPropsMap[K]) =>
  useDialogStore.getState().open(kind, props);
export const closeDialog = (kind: DialogKind) => useDialogStore.getState().close(kind);
/** Raises a prompt: it opens when no dialog is open, after the prompts queued before it. */
export const queuePrompt = (prompt: Prompt, opts?: { first?: boolean }) =>
  useDialogStore.getState().queue(prompt, opts);
/** No dialog open, none waiting and the entry prompts decided: a page notice may show now. */
export const usePromptsIdle = () =>
  useDialogStore((s) => !s.entryPending && s.prompts.length === 0 && !anyOpen(s.entries));
export const isDialogOpen = (kind: DialogKind) => useDialogStore.getState().entries[kind]?.open === true;
