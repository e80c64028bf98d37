import { isTextSchema } from '@kaipiao/shared';
import type { FastifyInstance, RouteOptions } from 'fastify';

/**
 * Which request strings of a route do not go through the shared `text()` type (issue 21 item 5):
 * the errors plugin records them for every route as it is registered, and a test asserts there
 * are none, so a new route with a bare `z.string()` in its body, query or params fails.
 */

type Def = { type?: string; [k: string]: unknown };
const defOf = (s: unknown): Def | undefined => (s as { _zod?: { def?: Def } } | undefined)?._zod?.def;

/** Dotted paths of string leaves that are not text(), e.g. `buyer.name`, `goods_info[].unit`. */
export function untextedStrings(schema: unknown, path = '', seen = new Set<unknown>()): string[] {
  const def = defOf(schema);
  if (!def || seen.has(schema)) return [];
  seen.add(schema);
  const walk = (s: unknown, p: string) => untextedStrings(s, p, seen);
  switch (def.type) {
    case 'string':
      return isTextSchema(schema) ? [] : [path || '(root)'];
    case 'object': {
      const shape = def.shape as Record<string, unknown>;
      return [
        ...Object.entries(shape).flatMap(([k, v]) => walk(v, path ? `${path}.${k}` : k)),
        ...walk(def.catchall, `${path}.*`),
      ];
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
    case 'success':
      return walk(def.innerType, path);
    case 'pipe':
      return [...walk(def.in, path), ...walk(def.out, path)];
    case 'union':
      return (def.options as unknown[]).flatMap((o) => walk(o, path));
    case 'intersection':
      return [...walk(def.left, path), ...walk(def.right, path)];
    case 'array':
      return walk(def.element, `${path}[]`);
    case 'set':
      return walk(def.valueType, `${path}[]`);
    case 'record':
    case 'map':
      return [...walk(def.keyType, `${path}{key}`), ...walk(def.valueType, `${path}{}`)];
    case 'tuple':
      return [
        ...(def.items as unknown[]).flatMap((s, i) => walk(s, `${path}[${i}]`)),
        ...walk(def.rest, `${path}[]`),
      ];
    case 'lazy':
      return walk((def.getter as () => unknown)(), path);
    default:
      return [];
  }
}

const PARTS = ['body', 'querystring', 'params', 'headers'] as const;
const gaps = new WeakMap<object, string[]>();

/** Records the route's request strings that bypass text() (called from an onRoute hook). */
export function recordTextGaps(app: FastifyInstance, route: RouteOptions): void {
  const schema = route.schema as Record<string, unknown> | undefined;
  if (!schema) return;
  const list = gaps.get(app) ?? [];
  gaps.set(app, list);
  const methods = Array.isArray(route.method) ? route.method.join(',') : route.method;
  for (const part of PARTS) {
    for (const p of untextedStrings(schema[part])) list.push(`${methods} ${route.url} ${part}: ${p}`);
  }
}

/** Every request string of the app's routes that is not text() (`METHOD url part: path`). */
export function textGaps(app: FastifyInstance): string[] {
  return [...new Set(gaps.get(app) ?? [])];
}
