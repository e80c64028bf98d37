/**
 * Bad request values generated from a route's zod schema (issue 11 item 4), for the walk of every
 * route in test/chinese-messages.test.ts. From the schema's definition (`_zod.def`) it builds:
 * - a baseline: the smallest value the schema takes where it can find one (each string leaf the
 *   first of a few plausible strings its own checks accept, numbers in range, the first enum
 *   value, required keys only), so a mutation of one field meets that field's check;
 * - for every field, at any depth (objects, list items, optional fields included), the baseline with
 *   that field made bad, by what the field is: missing (when required), null, the wrong type, a list
 *   for an object and an object for a list, a string over its max, under its min and of 100k
 *   characters, a pattern it refuses, NaN, ±Infinity, negative, fractional and out-of-range numbers,
 *   a value outside the enum, a list over its max items, deep nesting.
 * Bodies keep JSON types (Infinity goes out as the literal 1e309, which JSON.parse reads as Infinity);
 * query strings send every value as text.
 */

type Def = { type: string; [k: string]: unknown };
type Schema = { _zod: { def: Def; optin?: string }; safeParse: (v: unknown) => { success: boolean } };
type Key = string | number;

export const MISSING = Symbol('missing');
export type Case = {
  field: string;
  kind: string;
  value: unknown;
  /** the body's text as sent (not JSON of `value`): truncated JSON, an empty body */
  raw?: string;
  /** the body's content type when not JSON */
  type?: string;
};

const defOf = (s: unknown): Def | undefined => (s as Schema | undefined)?._zod?.def;
const accepts = (s: unknown, v: unknown) => (s as Schema).safeParse(v).success;
const isOptional = (s: unknown) => {
  const optin = (s as Schema)._zod.optin;
  return optin === 'optional' || optin === 'defaulted' || accepts(s, undefined);
};

/** The schema under optional/nullable/default/pipe wrappers: what a present value is checked against. */
export function core(schema: unknown): { schema: unknown; nullable: boolean } {
  let s = schema;
  let nullable = false;
  for (let i = 0; i < 20; i++) {
    const def = defOf(s);
    if (!def) break;
    if (def.type === 'nullable') nullable = true;
    if (
      ['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional'].includes(def.type)
    ) {
      s = def.innerType;
    } else if (def.type === 'pipe') {
      // z.preprocess(fn, x) checks x; x.transform(fn) checks x
      s = defOf(def.in)?.type === 'transform' ? def.out : def.in;
    } else if (def.type === 'lazy') {
      s = (def.getter as () => unknown)();
    } else break;
  }
  return { schema: s, nullable };
}

type Bounds = { min?: number; max?: number };
/** Length bounds of a string or list, value bounds of a number (from the checks). */
function bounds(schema: unknown): Bounds & { int: boolean; patterned: boolean } {
  const def = defOf(schema)!;
  const checks = [
    def,
    ...((def.checks as { _zod: { def: Record<string, unknown> } }[] | undefined) ?? []).map(
      (c) => c._zod.def,
    ),
  ];
  const b: Bounds & { int: boolean; patterned: boolean } = { int: false, patterned: false };
  for (const c of checks) {
    if (c.check === 'min_length') b.min = Math.max(b.min ?? 0, c.minimum as number);
    if (c.check === 'max_length') b.max = Math.min(b.max ?? Infinity, c.maximum as number);
    if (c.check === 'length_equals') {
      b.min = c.length as number;
      b.max = c.length as number;
    }
    if (c.check === 'greater_than') b.min = Math.max(b.min ?? -Infinity, Number(c.value));
    if (c.check === 'less_than') b.max = Math.min(b.max ?? Infinity, Number(c.value));
    if (c.check === 'number_format' && String(c.format).includes('int')) b.int = true;
    if (c.check === 'string_format') b.patterned = true;
  }
  return b;
}

const STRING_TRIES = [
  'abc12345',
  '1',
  '13800000001',
  '2024-01-15',
  '2024-01',
  '2024-01-15 10:00:00',
  '91330106MA27XXXX1X',
  'test@example.com',
  '1234',
  '123456',
  '004',
  '01',
  'GP900000',
  '测试名称',
  '0000000000000000',
  '1010101000000000000',
  '0.13',
];

/** A value the schema accepts, where a few plausible tries find one (undefined: none needed). */
export function baseline(schema: unknown, depth = 0): unknown {
  if (depth > 12) return undefined;
  const def = defOf(schema);
  if (!def) return undefined;
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'prefault':
    case 'catch':
      return undefined;
    case 'nullable':
    case 'readonly':
    case 'nonoptional':
      return baseline(def.innerType, depth + 1);
    case 'pipe':
      return present(schema, depth);
    case 'lazy':
      return baseline((def.getter as () => unknown)(), depth + 1);
    case 'string': {
      const { min = 0, max = Infinity } = bounds(schema);
      const tries = [...STRING_TRIES, 'a'.repeat(Math.max(min, 1)), '1'.repeat(Math.max(min, 1))];
      return tries.find((v) => v.length <= max && accepts(schema, v)) ?? 'a'.repeat(Math.max(min, 1));
    }
    case 'number': {
      const { min, max } = bounds(schema);
      const tries = [1, min, (min ?? 0) + 1, 0, 2, 10, 100, max, 0.5].filter(
        (n) => n !== undefined && Number.isFinite(n),
      );
      return tries.find((n) => accepts(schema, n)) ?? 1;
    }
    case 'bigint':
      return 1;
    case 'boolean':
      return true;
    case 'date':
      return '2024-01-15';
    case 'enum':
      return Object.values(def.entries as Record<string, unknown>)[0];
    case 'literal':
      return (def.values as unknown[])[0];
    case 'null':
      return null;
    case 'object': {
      const shape = Object.entries(def.shape as Record<string, unknown>);
      const required: Record<string, unknown> = {};
      for (const [k, v] of shape) if (!isOptional(v)) required[k] = baseline(v, depth + 1);
      if (accepts(schema, required)) return required;
      // a rule across fields (e-mail or mobile, token or ticket): try an optional field, then all
      const optional = shape.filter(([, v]) => isOptional(v)).map(([k, v]) => [k, present(v, depth + 1)]);
      for (const [k, v] of optional) {
        const one = { ...required, [k as string]: v };
        if (accepts(schema, one)) return one;
      }
      const all = { ...required, ...Object.fromEntries(optional) };
      return accepts(schema, all) ? all : required;
    }
    case 'array': {
      const { min = 0 } = bounds(schema);
      return Array.from({ length: min }, () => baseline(def.element, depth + 1));
    }
    case 'tuple':
      return (def.items as unknown[]).map((s) => baseline(s, depth + 1));
    case 'union': {
      const options = def.options as unknown[];
      for (const o of options) {
        const v = baseline(o, depth + 1);
        if (accepts(o, v)) return v;
      }
      return baseline(options[0], depth + 1);
    }
    case 'intersection': {
      const l = baseline(def.left, depth + 1);
      const r = baseline(def.right, depth + 1);
      return typeof l === 'object' && typeof r === 'object' ? { ...(l as object), ...(r as object) } : l;
    }
    case 'record':
      return {};
    default:
      return undefined;
  }
}

/**
 * A value for a field that is there (an optional one too): the inner type's tries checked against
 * the whole field schema (a transform then a pattern, a default then a refinement).
 */
function present(schema: unknown, depth: number): unknown {
  const inner = core(schema).schema;
  const value = baseline(inner, depth + 1);
  const tries = defOf(inner)?.type === 'string' ? [...STRING_TRIES, value] : [value];
  return tries.find((v) => accepts(schema, v)) ?? value;
}

const nested = (depth: number, leaf: unknown, wrap: (v: unknown) => unknown) => {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = wrap(v);
  return v;
};
export const DEEP_OBJECT = nested(1000, 'x', (v) => ({ a: v }));
/**
 * Deep nesting through the object's own first field (unknown keys are dropped by design, so a deep
 * object under one is no bad input: the request is the same without it).
 */
export function deepFor(schema: unknown): unknown {
  const def = defOf(core(schema).schema);
  const key = def?.type === 'object' ? Object.keys(def.shape as object)[0] : undefined;
  return key ? nested(1000, 'x', (v) => ({ [key]: v })) : DEEP_OBJECT;
}
export const DEEP_ARRAY = nested(1000, 'x', (v) => [v]);
const HUGE = 'x'.repeat(100_000);

/** The bad values of one field, by its kind (capped at `cap`). */
export function badValues(schema: unknown, cap: number): { kind: string; value: unknown }[] {
  const out: { kind: string; value: unknown }[] = [];
  const add = (kind: string, value: unknown) => out.push({ kind, value });
  if (!isOptional(schema)) add('missing', MISSING);
  const { schema: s, nullable } = core(schema);
  const def = defOf(s);
  if (!nullable) add('null', null);
  switch (def?.type) {
    case 'string': {
      const { min = 0, max } = bounds(s);
      if (max !== undefined) add(`over max ${max}`, 'x'.repeat(max + 1));
      if (min > 0) add(`under min ${min}`, 'x'.repeat(min - 1));
      add('number', 12345);
      add('list', ['x']);
      add('huge', HUGE);
      if (bounds(s).patterned || accepts(s, 'abc12345') === false) add('pattern', '不合格式!@#');
      add('object', { a: 1 });
      add('deep', DEEP_OBJECT);
      break;
    }
    case 'number': {
      const { min, max, int } = bounds(s);
      add('text', 'abc');
      add('NaN', 'NaN');
      add('over int4', 2_147_483_648);
      add('under int4', -2_147_483_649);
      add('Infinity', Infinity);
      if (int) add('fraction', 1.5);
      add('negative', -1);
      if (min !== undefined && Number.isFinite(min)) add(`under min ${min}`, min - 1);
      if (max !== undefined && Number.isFinite(max)) add(`over max ${max}`, max + 1);
      add('-Infinity', -Infinity);
      add('huge', 1e20);
      add('list', [1]);
      add('boolean', true);
      break;
    }
    case 'bigint':
      add('text', 'abc');
      add('fraction', 1.5);
      add('huge', '9'.repeat(40));
      break;
    case 'boolean':
      add('text', 'x');
      add('number', 2);
      add('list', [true]);
      break;
    case 'enum':
    case 'literal':
      add('outside', 'zz_not_in_enum');
      add('number', 98765);
      add('list', [baseline(s)]);
      break;
    case 'date':
      add('text', 'not-a-date');
      add('number', 1e20);
      break;
    case 'object':
    case 'record':
      add('list', [baseline(s)]);
      add('text', 'x');
      add('number', 1);
      add('deep', deepFor(s));
      break;
    case 'array': {
      const { max } = bounds(s);
      add('object', { 0: baseline(def.element) });
      add('text', 'x');
      add('wrong items', [{ a: [] }, 'x', 1e20]);
      if (max !== undefined)
        add(
          `over max ${max} items`,
          Array.from({ length: max + 1 }, () => baseline(def.element)),
        );
      else
        add(
          '10k items',
          Array.from({ length: 10_000 }, () => baseline(def.element)),
        );
      add('deep', DEEP_ARRAY);
      break;
    }
    case 'union':
    case 'intersection':
    case 'tuple':
      add('text', 'x');
      add('number', 1e20);
      add('list', [[]]);
      add('object', { a: {} });
      break;
    default:
      add('deep', DEEP_OBJECT);
  }
  return out.slice(0, cap);
}

type Field = { path: Key[]; schema: unknown };

/** Every field of the schema, at any depth (list items as index 0), with its schema. */
export function fields(schema: unknown, path: Key[] = [], depth = 0): Field[] {
  if (depth > 8) return [];
  const { schema: s } = core(schema);
  const def = defOf(s);
  if (!def) return [];
  if (def.type === 'object') {
    return Object.entries(def.shape as Record<string, unknown>).flatMap(([k, v]) => [
      { path: [...path, k], schema: v },
      ...fields(v, [...path, k], depth + 1),
    ]);
  }
  if (def.type === 'array') return fields(def.element, [...path, 0], depth + 1);
  if (def.type === 'intersection')
    return [...fields(def.left, path, depth + 1), ...fields(def.right, path, depth + 1)];
  if (def.type === 'union') {
    // a discriminated union's options share most keys: walk them all, keep each path once
    const seen = new Set<string>();
    return (def.options as unknown[])
      .flatMap((o) => fields(o, path, depth + 1))
      .filter((f) => {
        const k = f.path.join('.');
        return !seen.has(k) && seen.add(k);
      });
  }
  return [];
}

/** The baseline with the value at `path` replaced (MISSING deletes it); containers made as needed. */
export function withValue(base: unknown, schema: unknown, path: Key[], value: unknown): unknown {
  const root = structuredClone(base ?? {}) as Record<Key, unknown>;
  let node: Record<Key, unknown> = root;
  let s: unknown = schema;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    s = childSchema(s, key);
    const next = node[key];
    if (next === null || typeof next !== 'object') {
      const made = baseline(core(s).schema);
      node[key] =
        made !== null && typeof made === 'object' ? made : typeof path[i + 1] === 'number' ? [] : {};
    }
    node = node[key] as Record<Key, unknown>;
  }
  const last = path.at(-1)!;
  if (value === MISSING) delete node[last];
  else node[last] = value;
  return root;
}

function childSchema(schema: unknown, key: Key): unknown {
  const { schema: s } = core(schema);
  const def = defOf(s);
  if (!def) return undefined;
  if (def.type === 'object') return (def.shape as Record<string, unknown>)[key as string];
  if (def.type === 'array') return def.element;
  if (def.type === 'intersection') return childSchema(def.left, key) ?? childSchema(def.right, key);
  if (def.type === 'union') {
    for (const o of def.options as unknown[]) {
      const c = childSchema(o, key);
      if (c) return c;
    }
  }
  return undefined;
}

/** Every bad request of a body or query schema: the baseline with one field made bad at a time. */
export function badCases(schema: unknown, capPerField: number): Case[] {
  const base = baseline(schema);
  const out: Case[] = [];
  for (const f of fields(schema)) {
    const field = f.path.join('.');
    for (const b of badValues(f.schema, capPerField)) {
      out.push({ field, kind: b.kind, value: withValue(base, schema, f.path, b.value) });
    }
  }
  return out;
}

/** Bad values for the whole body, whatever its schema (deep nesting through its first field). */
export const rootBodies = (schema: unknown): Omit<Case, 'field'>[] => [
  ...ROOT_BODIES,
  { kind: 'deep object', value: deepFor(schema) },
];
const ROOT_BODIES: Omit<Case, 'field'>[] = [
  { kind: 'empty', value: undefined, raw: '' },
  { kind: 'truncated JSON', value: undefined, raw: '{"page": [1, ' },
  { kind: 'text/plain', value: undefined, raw: 'page=1', type: 'text/plain' },
  { kind: 'xml', value: undefined, raw: '<page>1</page>', type: 'application/xml' },
  {
    kind: 'over the body limit',
    value: undefined,
    raw: JSON.stringify({ name: 'x'.repeat(3 * 1024 * 1024) }),
  },
  { kind: 'list', value: [] },
  { kind: 'list of objects', value: [{ id: 1 }] },
  { kind: 'text', value: 'just a string' },
  { kind: 'number', value: 1e20 },
  { kind: 'null', value: null },
  { kind: 'deep list', value: DEEP_ARRAY },
];

/** JSON text of a body: ±Infinity as ±1e309 (JSON.parse reads them back as ±Infinity). */
export function bodyText(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    v === Infinity ? '__INF__' : v === -Infinity ? '__-INF__' : v,
  ).replace(/"__(-?)INF__"/g, '$11e309');
}

/** A query string of an object value: lists repeat the key, objects go as JSON, all values text. */
export function queryText(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return `value=${encodeURIComponent(typeof value === 'string' ? value : bodyText(value))}`;
  }
  const parts: string[] = [];
  const one = (k: string, v: unknown) => {
    const text =
      typeof v === 'string'
        ? v
        : v === Infinity
          ? '1e309'
          : v === -Infinity
            ? '-1e309'
            : v === null
              ? ''
              : typeof v === 'object'
                ? JSON.stringify(v)
                : String(v);
    parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(text)}`);
  };
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v.slice(0, 50)) one(k, item);
    else one(k, v);
  }
  return parts.join('&');
}
