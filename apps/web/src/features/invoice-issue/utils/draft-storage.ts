import { readJson, STORAGE_KEYS } from '../../../lib/storage-keys.ts';
import type { Draft } from './types.ts';

// architecture.md §5: one serial number per form, kept with the draft in sessionStorage until the
// invoice is issued. A reload, a retry or a duplicated tab (which copies sessionStorage) sends the
// same serial, and the server answers with the one invoice it made for it.

/** A serial number: 8–40 of [A-Za-z0-9_-] (the contract's pattern), unguessable. */
export function newSerial(): string {
  const c = globalThis.crypto;
  const hex =
    typeof c.randomUUID === 'function'
      ? c.randomUUID().replace(/-/g, '')
      : Array.from(c.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
  return `WEB${hex}`;
}

/**
 * What is known about the last request sent with the serial:
 * - pending: sent, no answer yet (a reload in this state asks the server first)
 * - unknown: timed out / lost / the channel said "unknown" — the invoice may exist
 * - failed: the server answered with a definitive failure — no invoice was made
 */
export type Attempt = { fingerprint: string; state: 'pending' | 'unknown' | 'failed' };

export type StoredDraft = { draft: Draft; serial: string; attempt: Attempt | null };

export type DraftScope = { variant: 'general' | 'hotel'; userId: number; clientId: number; storeId: number };

export function draftKey(s: DraftScope): string {
  return `${STORAGE_KEYS.invoiceDraft}:${s.variant}:${s.userId}:${s.clientId}:${s.storeId}`;
}

export function loadDraft(key: string): StoredDraft | null {
  const stored = readJson<StoredDraft>(sessionStorage, key);
  if (!stored?.draft || typeof stored.serial !== 'string' || !Array.isArray(stored.draft.lines)) return null;
  return stored;
}

export function saveDraft(key: string, stored: StoredDraft) {
  try {
    sessionStorage.setItem(key, JSON.stringify(stored));
  } catch {
    // storage full or disabled: the form keeps working, only reload safety is lost
  }
}

export function clearDraft(key: string) {
  sessionStorage.removeItem(key);
}
