import type { Draft } from './types.ts';

type WithDraft = { draft: Draft } & Record<string, unknown>;

/**
 * A `memo` comparator for blocks that take the whole draft but read only some of it: they skip
 * re-rendering while those parts (and their other props) keep their identity.
 */
export function sameDraftParts<P extends WithDraft>(keys: readonly (keyof Draft)[]) {
  return (a: P, b: P) =>
    Object.keys(a).every((p) =>
      p === 'draft' ? keys.every((k) => a.draft[k] === b.draft[k]) : a[p] === b[p],
    ) && Object.keys(a).length === Object.keys(b).length;
}

/** The same object while the record holds the same entries (errors recomputed on every keystroke). */
export function sameRecord<T>(
  prev: Record<string, T> | undefined,
  next: Record<string, T>,
): Record<string, T> {
  if (!prev) return next;
  const a = Object.keys(prev);
  const b = Object.keys(next);
  if (a.length !== b.length) return next;
  return b.every((k) => prev[k] === next[k]) ? prev : next;
}
