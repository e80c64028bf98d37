import { beforeEach, describe, expect, it } from 'vitest';
import { closeDialog, openDialog, useDialogStore } from './dialog-store.ts';

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
