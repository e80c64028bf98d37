import { messageFor } from '@kaipiao/shared';

/** A handled failure: becomes HTTP 200 `{ code, message, data }` (architecture.md §3). */
export class AppError extends Error {
  constructor(
    readonly code: number,
    message?: string,
    readonly data: unknown = null,
  ) {
    super(message ?? messageFor(code));
    this.name = 'AppError';
  }
}
