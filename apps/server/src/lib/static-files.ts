import path from 'node:path';
import type { FastifyStaticOptions } from '@fastify/static';

/**
 * How the built console (apps/web/dist) is served (issue 11 item 1). The web build writes a Brotli
 * (`.br`) and a gzip (`.gz`) twin next to every compressible file of 1 KB or more
 * (apps/web/build/precompress.ts); @fastify/static's `preCompressed` sends the twin the request's
 * Accept-Encoding allows (br before gzip at equal quality), else the file itself.
 */

/** Vite's content-hashed output: `assets/<name>-<hash>.<ext>` (build.assetsDir, `[name]-[hash]`). */
const HASHED_ASSET = /^assets\/(?:[^/]+\/)*[^/]+-[\w-]{8,}\.\w+$/;

export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html (and the SPA fallback that sends it): always revalidated, so a deploy shows at once */
export const CACHE_REVALIDATE = 'no-cache';
/** anything else in dist (files Vite copies from public/): a short lifetime */
export const CACHE_SHORT = 'public, max-age=3600';

/** The Cache-Control of a file, by its path relative to the dist root (`/` separators). */
export function cacheControlFor(relPath: string): string {
  if (HASHED_ASSET.test(relPath)) return CACHE_IMMUTABLE;
  if (relPath.endsWith('.html')) return CACHE_REVALIDATE;
  return CACHE_SHORT;
}

type HeaderTarget = { setHeader(name: string, value: string): unknown };

/**
 * @fastify/static's `setHeaders` for a dist root: the file's Cache-Control (by the name it was
 * asked for, not its `.br`/`.gz` twin) and `Vary: Accept-Encoding` on every file, since the same
 * URL answers different bytes by Accept-Encoding (@fastify/static does not set Vary itself).
 */
export function staticHeaders(root: string) {
  return (res: HeaderTarget, filePath: string) => {
    const rel = path
      .relative(root, filePath)
      .split(path.sep)
      .join('/')
      .replace(/\.(?:br|gz)$/, '');
    res.setHeader('cache-control', cacheControlFor(rel));
    res.setHeader('vary', 'Accept-Encoding');
  };
}

/** Options for @fastify/static over a dist root. */
export function staticOptions(root: string): FastifyStaticOptions {
  return {
    root,
    wildcard: false,
    index: false,
    preCompressed: true,
    // the twins are no routes of their own: preCompressed finds them on disk
    globIgnore: ['**/*.br', '**/*.gz'],
    // @fastify/send's `public, max-age=0` would override the per-file header set below
    cacheControl: false,
    setHeaders: staticHeaders(root),
  };
}
