/**
 * Makes commits durable that were made with `synchronous_commit = off`, shared between callers:
 * committing a transaction that has an id flushes the WAL up to its commit record, which covers
 * every commit made before it began. Each call resolves after a flush that *started* after the
 * call, so concurrent callers share one flush instead of queueing one each (group commit on our
 * side of the connection).
 */
export function createWalFlusher(runFlush: () => Promise<unknown>): () => Promise<void> {
  /** the flush in flight, if any: it may have begun before the caller's commit */
  let current: Promise<void> | null = null;
  /** the flush that begins when `current` ends, shared by everyone who asked meanwhile */
  let next: Promise<void> | null = null;

  const start = (): Promise<void> => {
    const p = runFlush().then(() => undefined);
    current = p;
    p.then(
      () => {
        if (current === p) current = null;
      },
      () => {
        if (current === p) current = null;
      },
    );
    return p;
  };

  return () => {
    if (!current) return start();
    if (!next) {
      next = current
        .catch(() => undefined)
        .then(() => {
          next = null;
          return start();
        });
    }
    return next;
  };
}
