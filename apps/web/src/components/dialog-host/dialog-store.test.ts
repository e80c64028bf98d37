import { beforeEach, describe, expect, it } from 'vitest';
import { closeDialog, openDialog, queuePrompt, useDialogStore } from './dialog-store.ts';

describe('dialog store', () => {
  beforeEach(() => useDialogStore.setState({ entries: {}, seq: 0 }));

  it('hides the showing dialog when another kind opens', () => {
    openDialog('contact-us', {});
    openDialog('change-password', { forced: false });
    const { entries } = useDialogStore.getState();
    expect(entries['contact-us']?.open).toBe(false);
    expect(entries['change-password']?.open).toBe(true);
  });

  it('keeps one instance per kind, replacing its props', () => {
    openDialog('public-notice', { id: 1, title: 'a', content: 'x' });
    openDialog('public-notice', { id: 2, title: 'b', content: 'y' });
    const { entries } = useDialogStore.getState();
    expect(Object.keys(entries)).toEqual(['public-notice']);
    expect(entries['public-notice']?.props).toEqual({ id: 2, title: 'b', content: 'y' });
  });

  it('removes a kind only after it has been closed', () => {
    openDialog('contact-us', {});
    useDialogStore.getState().remove('contact-us');
    expect(useDialogStore.getState().entries['contact-us']).toBeDefined();
    closeDialog('contact-us');
    useDialogStore.getState().remove('contact-us');
    expect(useDialogStore.getState().entries['contact-us']).toBeUndefined();
  });
});

describe('prompt queue (issue 24 item 9)', () => {
  beforeEach(() => useDialogStore.setState({ entries: {}, seq: 0, prompts: [], entryPending: false }));
  const openKinds = () =>
    Object.entries(useDialogStore.getState().entries)
      .filter(([, e]) => e?.open)
      .map(([k]) => k);
  const idle = () => {
    const s = useDialogStore.getState();
    return !s.entryPending && s.prompts.length === 0 && !Object.values(s.entries).some((e) => e?.open);
  };

  it('opens queued prompts one at a time, in order, the next when the previous closes', () => {
    queuePrompt({ kind: 'change-password', props: {} });
    queuePrompt({ kind: 'summary-guide', props: {} });
    queuePrompt({ kind: 'public-notice', props: { id: 1, title: 'a', content: 'x' } }, { first: true });
    expect(openKinds()).toEqual(['change-password']);
    closeDialog('change-password');
    expect(openKinds()).toEqual(['public-notice']);
    closeDialog('public-notice');
    expect(openKinds()).toEqual(['summary-guide']);
    expect(idle()).toBe(false);
    closeDialog('summary-guide');
    expect(openKinds()).toEqual([]);
    expect(idle()).toBe(true);
  });

  it('a prompt waits while a dialog the user opened shows', () => {
    openDialog('contact-us', {});
    queuePrompt({ kind: 'summary-guide', props: {} });
    expect(openKinds()).toEqual(['contact-us']);
    expect(idle()).toBe(false);
    closeDialog('contact-us');
    expect(openKinds()).toEqual(['summary-guide']);
  });

  it('is not idle while the entry prompts are being decided', () => {
    useDialogStore.getState().setEntryPending(true);
    expect(idle()).toBe(false);
    useDialogStore.getState().setEntryPending(false);
    expect(idle()).toBe(true);
  });
});
