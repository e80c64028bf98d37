import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../lib/storage-keys.ts';
import { isSignedIn, useSessionStore } from './session-store.ts';

// issue 21 M2: the session token is the server's HttpOnly cookie; no script of ours writes or reads it.
describe('session store', () => {
  afterEach(() => {
    useSessionStore.getState().reset();
    vi.useRealTimers();
  });

  it('signs in without writing the token anywhere a script can read it', () => {
    useSessionStore.getState().signIn({ expires_in: 7200 });
    expect(document.cookie).toBe('');
    expect(JSON.stringify({ ...localStorage })).not.toContain('tok-secret');
    expect(useSessionStore.getState().signedIn).toBe(true);
    expect(isSignedIn()).toBe(true);
  });

  it('keeps nothing of the token a sign-in answer carried', () => {
    const answer = { token: 'tok-secret', expires_in: 7200 };
    useSessionStore.getState().signIn(answer);
    expect(document.cookie).not.toContain('tok-secret');
    expect(JSON.stringify({ ...localStorage, ...sessionStorage })).not.toContain('tok-secret');
    expect(JSON.stringify(useSessionStore.getState())).not.toContain('tok-secret');
  });

  it('ends with the lifetime the server gave, and on reset', () => {
    vi.useFakeTimers();
    useSessionStore.getState().signIn({ expires_in: 60 });
    expect(Number(localStorage.getItem(STORAGE_KEYS.signedInUntil))).toBe(Date.now() + 60_000);
    vi.advanceTimersByTime(61_000);
    expect(isSignedIn()).toBe(false);
    useSessionStore.getState().signIn({ expires_in: 60 });
    useSessionStore.getState().reset();
    expect(useSessionStore.getState().signedIn).toBe(false);
    expect(localStorage.getItem(STORAGE_KEYS.signedInUntil)).toBeNull();
    expect(isSignedIn()).toBe(false);
  });
});
