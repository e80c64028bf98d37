export type ApiErrorKind = 'code' | 'http' | 'network' | 'timeout' | 'aborted';

/** A failed call. `code` is the envelope code for kind 'code'; components branch on it, never on text. */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly code?: number;
  readonly status?: number;
  readonly data?: unknown;

  constructor(
    kind: ApiErrorKind,
    message: string,
    extra: { code?: number; status?: number; data?: unknown; cause?: unknown } = {},
  ) {
    super(message, { cause: extra.cause });
    this.name = 'ApiError';
    this.kind = kind;
    this.code = extra.code;
    this.status = extra.status;
    this.data = extra.data;
  }
}

export function isApiError(error: unknown, code?: number): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}
