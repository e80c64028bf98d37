import type { Column, Table } from 'drizzle-orm';

/**
 * Raw row types (issue 19 item 4): the row `db.execute(sql…)` hands back for a table, derived from
 * its Drizzle schema instead of written by hand.
 *
 * The schema keys are camelCase (`lineNo`) and the database columns snake_case (`line_no`,
 * `casing: 'snake_case'` in client.ts); a raw select returns the database's names. Its values are
 * what the pg driver parses under Drizzle's node-postgres session, which is not always what
 * `$inferSelect` says (rows.test.ts reads real rows and checks each kind below):
 * - timestamp, date and interval stay text (the session keeps pg's own text: `2026-05-01 10:00:00+08`),
 *   where `$inferSelect` says `Date`;
 * - numeric stays a decimal string;
 * - int8 (bigint, bigserial) is a number (client.ts sets that parser), but an int8 **array** keeps
 *   its elements as strings (that parser is for the scalar type only);
 * - numeric, timestamp, date and interval arrays stay one unparsed literal (`{1.00,2.00}`);
 * - jsonb, boolean, int2/int4, text and their arrays, bytea: as `$inferSelect`.
 *
 * Use `Pick<RawRow<typeof invoiceLines>, 'line_no' | 'amount'>` for a select of plain columns, and
 * `& { store_name: string }` for what a select computes or renames.
 */

/** `amountWithTax` → `amount_with_tax` (as Drizzle's snake_case casing, for keys without acronyms). */
export type SnakeCase<S extends string> = S extends `${infer H}${infer T}`
  ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${SnakeCase<T>}`
  : S;

/** The runtime form of `snakeCase` at the type level, for the schema check in rows.test.ts. */
export function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

type ColumnType<C extends Column> = C['_']['columnType'];

type TextKept = 'PgTimestamp' | 'PgTimestampString' | 'PgDate' | 'PgDateString' | 'PgInterval';
type NumericKinds = 'PgNumeric' | 'PgNumericNumber' | 'PgNumericBigInt';
type Int8Kinds = 'PgBigInt53' | 'PgBigInt64' | 'PgBigSerial53' | 'PgBigSerial64';

/** What one array column comes back as, by its element's column type. */
type RawArray<C extends Column> = C['_']['baseColumn'] extends Column
  ? ColumnType<C['_']['baseColumn']> extends TextKept | NumericKinds
    ? string
    : ColumnType<C['_']['baseColumn']> extends Int8Kinds
      ? string[]
      : C['_']['data']
  : C['_']['data'];

/** What one column comes back as from a raw execute, null aside. */
export type RawValue<C extends Column> =
  ColumnType<C> extends TextKept | NumericKinds
    ? string
    : ColumnType<C> extends Int8Kinds
      ? number
      : ColumnType<C> extends 'PgArray'
        ? RawArray<C>
        : C['_']['data'];

/** A column's raw value, with `null` unless the column is `not null`. */
type RawCell<C extends Column> = C['_']['notNull'] extends true ? RawValue<C> : RawValue<C> | null;

/** A whole row of `T` as `db.execute(sql\`select * from t\`)` returns it. */
export type RawRow<T extends Table> = {
  [K in keyof T['_']['columns'] & string as SnakeCase<K>]: RawCell<T['_']['columns'][K]>;
};

/** Columns selected under a prefix (`b.status as b_status`): `Prefixed<'b_', Pick<…, 'status'>>`. */
export type Prefixed<P extends string, R> = { [K in keyof R & string as `${P}${K}`]: R[K] };

/** Columns of a left-joined table: each may be null when no row joins. */
export type LeftJoined<R> = { [K in keyof R]: R[K] | null };
