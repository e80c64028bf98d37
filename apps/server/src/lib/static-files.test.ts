import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helper.ts';
import { CACHE_IMMUTABLE, CACHE_REVALIDATE, CACHE_SHORT, cacheControlFor } from './static-files.ts';

describe('cacheControlFor (issue 11 item 1)', () => {
  it("makes Vite's hashed assets immutable, HTML revalidated, the rest short-lived", () => {
    expect(cacheControlFor('assets/index-CjmhxNEW.js')).toBe(CACHE_IMMUTABLE);
    expect(cacheControlFor('assets/EllipsisOutlined-B65nVbu-.js')).toBe(CACHE_IMMUTABLE);
    expect(cacheControlFor('assets/index-WeJtlTE2.css')).toBe(CACHE_IMMUTABLE);
    expect(CACHE_IMMUTABLE).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('index.html')).toBe('no-cache');
    expect(cacheControlFor('robots.txt')).toBe(CACHE_SHORT);
    expect(cacheControlFor('favicon.svg')).toBe(CACHE_SHORT);
    // not hashed, or not under assets/: never immutable
    expect(cacheControlFor('assets/logo.svg')).toBe(CACHE_SHORT);
    expect(cacheControlFor('index-CjmhxNEW.js')).toBe(CACHE_SHORT);
  });
});

describe('the built console: precompressed twins by Accept-Encoding, caching (issue 11 item 1)', () => {
  let dist: string;
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  const js = Buffer.from('export const invoice = "开票台";\n'.repeat(400));
  const html = Buffer.from(`<!doctype html><div id="root"></div>${'<!-- padding -->'.repeat(100)}`);
  const br = (b: Buffer) => zlib.brotliCompressSync(b);
  const gz = (b: Buffer) => zlib.gzipSync(b, { level: 9 });

  beforeAll(async () => {
    // a stand-in for apps/web/dist as the web build writes it (apps/web/build/precompress.ts)
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'kp-dist-'));
    await fs.mkdir(path.join(dist, 'assets'));
    const write = (rel: string, data: Buffer | string) => fs.writeFile(path.join(dist, rel), data);
    await write('index.html', html);
    await write('index.html.br', br(html));
    await write('index.html.gz', gz(html));
    await write('assets/index-AbCd1234.js', js);
    await write('assets/index-AbCd1234.js.br', br(js));
    await write('assets/index-AbCd1234.js.gz', gz(js));
    await write('assets/small-XyZ_9876.css', 'body{margin:0}'); // under 1 KB: no twins
    await write('robots.txt', 'User-agent: *\n');
    t = await buildTestApp({ webDist: dist });
  });
  afterAll(async () => {
    await fs.rm(dist, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  it('answers the .br bytes to a client that accepts br and gzip, with Vary: Accept-Encoding', async () => {
    for (const accept of ['br, gzip', 'gzip, deflate, br, zstd']) {
      const res = await get('/assets/index-AbCd1234.js', accept);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');
      expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
      expect(res.rawPayload.equals(await fs.readFile(path.join(dist, 'assets/index-AbCd1234.js.br')))).toBe(
        true,
      );
      expect(zlib.brotliDecompressSync(res.rawPayload).equals(js)).toBe(true);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  it('answers gzip to a gzip-only client, and to one that refuses br', async () => {
    for (const accept of ['gzip', 'br;q=0, gzip']) {
      const res = await get('/assets/index-AbCd1234.js', accept);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');
      expect(zlib.gunzipSync(res.rawPayload).equals(js)).toBe(true);
      expect(res.headers['cache-control']).toBe(CACHE_IMMUTABLE);
    }
  });

  it('answers the file itself without Accept-Encoding (or with identity only), still with Vary', async () => {
    for (const accept of [undefined, 'identity']) {
      const res = await get('/assets/index-AbCd1234.js', accept);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');
      expect(res.rawPayload.equals(js)).toBe(true);
      expect(res.headers['cache-control']).toBe(CACHE_IMMUTABLE);
    }
  });

  it('answers a file without twins as it is, whatever the client accepts', async () => {
    const res = await get('/assets/small-XyZ_9876.css', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe('body{margin:0}');
    expect(res.headers['cache-control']).toBe(CACHE_IMMUTABLE);
    const robots = await get('/robots.txt', 'br, gzip');
    expect(robots.headers['cache-control']).toBe(CACHE_SHORT);
  });

  it('revalidates index.html and every client-side route (no-cache), compressed too', async () => {
    for (const url of ['/index.html', '/user/login', '/query/invoice']) {
      const res = await get(url, 'gzip, deflate, br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe(CACHE_REVALIDATE);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(String(res.headers.vary).toLowerCase(), url).toContain('accept-encoding');
      expect(zlib.brotliDecompressSync(res.rawPayload).equals(html), url).toBe(true);
    }
    const plain = await get('/home/index');
    expect(plain.headers['cache-control']).toBe(CACHE_REVALIDATE);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(html)).toBe(true);
  });

  it('does not serve the twins under their own names', async () => {
    expect((await get('/assets/index-AbCd1234.js.br')).statusCode).toBe(404);
    expect((await get('/assets/index-AbCd1234.js.gz', 'gzip')).statusCode).toBe(404);
  });
});
