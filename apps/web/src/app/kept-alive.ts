// The pages the console keeps mounted (hidden) while their tab is open (layouts/console/
// keep-alive-outlet.tsx writes it). Going back to one shows it as it was, so nothing is prefetched
// for it (app/prefetch.ts). A module of its own, free of antd: the router imports it.

const mounted = new Set<string>();

export function setKeptAlive(paths: Iterable<string>): void {
  mounted.clear();
  for (const p of paths) mounted.add(p);
}

export function isKeptAlive(path: string): boolean {
  return mounted.has(path);
}
