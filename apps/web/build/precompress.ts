import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

/**
 * Brotli and gzip made once, at build time (issue 11 item 1): next to every compressible file of
 * the output a `<file>.br` (quality 11) and a `<file>.gz` (level 9), which the server sends by
 * Accept-Encoding (@fastify/static `preCompressed`, apps/server/src/lib/static-files.ts). Images and
 * fonts are compressed already; files under 1 KB gain less than the headers cost.
 */
export const COMPRESSIBLE = /\.(?:m?js|css|html|svg|json|txt|map|xml|webmanifest|wasm)$/i;
export const MIN_BYTES = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export type Compressed = { file: string; raw: number; br: number; gz: number };

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

/** Writes the `.br` and `.gz` twins of one file; a twin no smaller than the file is not written. */
async function compressFile(file: string): Promise<Compressed | null> {
  const raw = await fs.readFile(file);
  if (raw.length < MIN_BYTES) return null;
  const [br, gz] = await Promise.all([
    brotli(raw, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    }),
    gzip(raw, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  if (br.length < raw.length) await fs.writeFile(`${file}.br`, br);
  if (gz.length < raw.length) await fs.writeFile(`${file}.gz`, gz);
  return { file, raw: raw.length, br: br.length, gz: gz.length };
}

/** Compresses every eligible file under `dir` (a few at a time: zlib runs in libuv's pool). */
export async function precompressDir(dir: string, concurrency = 4): Promise<Compressed[]> {
  const files: string[] = [];
  for await (const file of walk(dir)) if (COMPRESSIBLE.test(file)) files.push(file);
  const done: Compressed[] = [];
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const result = await compressFile(files[next++]!);
      if (result) done.push(result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));
  return done.sort((a, b) => a.file.localeCompare(b.file));
}

/** The Vite plugin: after the bundle (and public/) is written, compress the output directory. */
export function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'kaipiao:precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        if (config.build.write === false) return;
        const outDir = path.resolve(config.root, config.build.outDir);
        const done = await precompressDir(outDir);
        const sum = (key: 'raw' | 'br' | 'gz') => done.reduce((n, c) => n + c[key], 0);
        const kb = (n: number) => `${(n / 1024).toFixed(0)} kB`;
        config.logger.info(
          `precompressed ${done.length} files: ${kb(sum('raw'))} → br ${kb(sum('br'))}, gzip ${kb(sum('gz'))}`,
        );
      },
    },
  };
}
