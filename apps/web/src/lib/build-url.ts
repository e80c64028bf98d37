type Scalar = string | number | boolean;
export type Params = Record<string, Scalar | readonly Scalar[] | null | undefined>;

/** Query string with arrays repeated (`a=1&a=2`, spec §7); null/undefined dropped. */
export function buildUrl(path: string, params: Params = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) search.append(key, String(v));
  }
  const query = search.toString();
  if (!query) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}
