import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMPRESSIBLE, MIN_BYTES, precompressDir } from './precompress.ts';

describe('precompressDir (issue 11 item 1)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kp-precompress-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  const text = (n: number) => 'console.log("kaipiao", 42);\n'.repeat(Math.ceil(n / 30)).slice(0, n);

  it('writes .br and .gz twins that decompress to the file, for text files of 1 KB or more', async () => {
    await fs.mkdir(path.join(dir, 'assets'));
    const js = Buffer.from(text(20_000));
    await fs.writeFile(path.join(dir, 'assets', 'index-AbCd1234.js'), js);
    await fs.writeFile(path.join(dir, 'index.html'), `<!doctype html>${'<p>x</p>'.repeat(200)}`);
    await fs.writeFile(path.join(dir, 'small.js'), text(MIN_BYTES - 1));
    await fs.writeFile(path.join(dir, 'logo.png'), Buffer.alloc(4096, 1));
    await fs.writeFile(path.join(dir, 'font.woff2'), Buffer.alloc(4096, 1));

    const done = await precompressDir(dir);

    expect(done.map((d) => path.relative(dir, d.file))).toEqual(['assets/index-AbCd1234.js', 'index.html']);
    const br = await fs.readFile(path.join(dir, 'assets', 'index-AbCd1234.js.br'));
    const gz = await fs.readFile(path.join(dir, 'assets', 'index-AbCd1234.js.gz'));
    expect(zlib.brotliDecompressSync(br).equals(js)).toBe(true);
    expect(zlib.gunzipSync(gz).equals(js)).toBe(true);
    expect(br.length).toBeLessThan(gz.length);
    const files = (await fs.readdir(dir, { recursive: true })).map(String).sort();
    expect(files).toEqual([
      'assets',
      'assets/index-AbCd1234.js',
      'assets/index-AbCd1234.js.br',
      'assets/index-AbCd1234.js.gz',
      'font.woff2',
      'index.html',
      'index.html.br',
      'index.html.gz',
      'logo.png',
      'small.js',
    ]);
  });

  it('uses the strongest settings: brotli quality 11, gzip level 9', async () => {
    const js = Buffer.from(text(50_000));
    await fs.writeFile(path.join(dir, 'a.js'), js);
    await precompressDir(dir);
    const q11 = zlib.brotliCompressSync(js, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } });
    expect((await fs.readFile(path.join(dir, 'a.js.br'))).length).toBeLessThanOrEqual(q11.length);
    expect((await fs.readFile(path.join(dir, 'a.js.gz'))).length).toBe(
      zlib.gzipSync(js, { level: 9 }).length,
    );
  });

  it('compresses text formats only', () => {
    for (const f of ['a.js', 'a.mjs', 'a.css', 'a.html', 'a.svg', 'a.json', 'a.txt', 'a.js.map']) {
      expect(COMPRESSIBLE.test(f), f).toBe(true);
    }
    for (const f of ['a.png', 'a.jpg', 'a.webp', 'a.woff2', 'a.woff', 'a.gz', 'a.br', 'a.zip']) {
      expect(COMPRESSIBLE.test(f), f).toBe(false);
    }
  });
});
