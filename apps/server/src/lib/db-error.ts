/**
 * PostgreSQL failures as the log may show them: drizzle wraps a driver error as
 * "Failed query: <sql>\nparams: <values>" with `query` and `params`, and the driver's own error
 * may carry a `detail` quoting row values. None of that belongs in a log (issue 21, L2).
 */

type PgError = Error & {
  code: string;
  severity?: string;
  constraint?: string;
  table?: string;
  column?: string;
  routine?: string;
};

/** The PostgreSQL error behind `err` (itself or a cause), if any. */
export function pgErrorOf(err: unknown): PgError | undefined {
  let e: unknown = err;
  for (let depth = 0; e && depth < 5; depth++) {
    const c = e as Partial<PgError> & { cause?: unknown };
    if (typeof c.code === 'string' && /^[0-9A-Z]{5}$/.test(c.code) && typeof c.severity === 'string') {
      return c as PgError;
    }
    e = c.cause;
  }
  return undefined;
}

/** Encoding errors no schema should let through: they mean a bad request, not a crash. */
export const PG_BAD_TEXT_CODES = new Set([
  '22021', // character_not_in_repertoire: "invalid byte sequence for encoding UTF8: 0x00"
  '22P05', // untranslatable_character: "\u0000 cannot be converted to text" (jsonb)
]);

/** What may be logged of an error: no SQL text, no parameters, no row values. */
export function loggableError(err: unknown): Record<string, unknown> {
  const e = err as Error & { code?: unknown; statusCode?: unknown; query?: unknown };
  const pg = pgErrorOf(err);
  if (!pg) {
    // a drizzle wrapper without a driver error still names the SQL in its message
    const message =
      typeof e?.query === 'string' || /^Failed query:/.test(String(e?.message))
        ? 'Failed query (SQL and parameters withheld)'
        : e?.message;
    return { type: e?.name, message, code: e?.code, statusCode: e?.statusCode, stack: stackOnly(e) };
  }
  return {
    type: e?.name,
    message: pg.message,
    code: pg.code,
    severity: pg.severity,
    constraint: pg.constraint,
    table: pg.table,
    column: pg.column,
    routine: pg.routine,
    stack: stackOnly(e),
  };
}

// the frames without the first line (which repeats the message, SQL included)
function stackOnly(e: Error | undefined): string | undefined {
  return e?.stack
    ?.split('\n')
    .filter((l) => /^\s+at /.test(l))
    .join('\n');
}

type LoggerOption = boolean | object | undefined;

/**
 * The app's logger options with `err` serialized by loggableError, so every `log.error({ err })`
 * (jobs, hooks, the batch runner) leaves SQL, parameters and row values out, not only the errors
 * plugin's. A logger given as an instance keeps its own serializers.
 */
export function withSafeErrors<T extends LoggerOption>(logger: T): T {
  if (!logger) return logger;
  const opts = logger === true ? {} : logger;
  const serializers = (opts as { serializers?: Record<string, unknown> }).serializers;
  return { ...opts, serializers: { ...serializers, err: loggableError } } as T;
}
