/**
 * Benchmark (issue 2): the login page's initial JS + CSS (gzip) against a minimal antd page
 * (React + antd Button, Form, Input) built in the same run with the same Vite and plugin-react.
 * Prints both sizes and the ratio (target ≤ 1.3×). Run with `npm run bench`.
 *
 * Counted, for each page, from Vite's build manifest (checked against the built index.html):
 *   1. what index.html loads: the entry script, its <link rel="modulepreload"> chunks (the entry's
 *      static-import closure) and their stylesheets;
 *   2. for the console only, the login route: the lazy chunk(s) the router imports for
 *      /user/login and their static-import closure, minus what step 1 already counted.
 * Each file is gzipped on its own (level 9). A headless Chromium visit of /user/login (when
 * /usr/bin/chromium exists) cross-checks the count with what the browser actually fetched.
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from '@playwright/test';
import react from '@vitejs/plugin-react';
import { build } from 'vite';

const ROOT = path.resolve(import.meta.dirname, '..');
const WEB = path.join(ROOT, 'apps/web');
const OUT = path.join(ROOT, '.tmp/bench-login');
const MIN = path.join(ROOT, '.tmp/bench-min-antd');
// the source module(s) of the login route (style.md: app/routes mirrors the spec's URLs)
const LOGIN_ROUTE = /(^|\/)routes\/user\/login(\/index)?\.tsx?$|(^|\/)features\/auth\/.*login-page\.tsx?$/;

type Chunk = {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
};
type Manifest = Record<string, Chunk>;
type Counted = { files: string[]; gzip: number; raw: number };

const gzipSize = async (file: string) => {
  const buf = await fs.readFile(file);
  return { raw: buf.length, gzip: zlib.gzipSync(buf, { level: 9 }).length };
};

/** The files a chunk pulls in eagerly: itself, its static imports (transitively) and their CSS. */
function closure(manifest: Manifest, key: string, seen = new Set<string>(), files = new Set<string>()) {
  if (seen.has(key)) return files;
  seen.add(key);
  const chunk = manifest[key]!;
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const imp of chunk.imports ?? []) closure(manifest, imp, seen, files);
  return files;
}

async function sizeOf(dir: string, files: Iterable<string>): Promise<Counted> {
  const list = [...files].filter((f) => /\.(m?js|css)$/.test(f)).sort();
  let gzip = 0;
  let raw = 0;
  for (const f of list) {
    const s = await gzipSize(path.join(dir, f));
    gzip += s.gzip;
    raw += s.raw;
  }
  return { files: list, gzip, raw };
}

/** What the built index.html references: module script, modulepreloads, stylesheets. */
async function htmlAssets(dir: string): Promise<Set<string>> {
  const html = await fs.readFile(path.join(dir, 'index.html'), 'utf8');
  const out = new Set<string>();
  for (const m of html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="\/?([^"]+\.(?:m?js|css))"[^>]*>/g)) {
    out.add(m[1]!);
  }
  return out;
}

async function readManifest(dir: string): Promise<Manifest> {
  return JSON.parse(await fs.readFile(path.join(dir, '.vite/manifest.json'), 'utf8'));
}

function entryKey(manifest: Manifest): string {
  const key = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!key) throw new Error('no entry chunk in the manifest');
  return key;
}

async function buildConsole(): Promise<{
  dir: string;
  initial: Counted;
  login: Counted;
  loginKeys: string[];
}> {
  const dir = path.join(OUT, 'web');
  await build({
    root: WEB,
    configFile: path.join(WEB, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: dir, emptyOutDir: true, manifest: true },
  });
  const manifest = await readManifest(dir);
  const entry = entryKey(manifest);
  const initialFiles = closure(manifest, entry);
  await assertSameAsHtml(dir, initialFiles);
  const loginKeys = Object.keys(manifest).filter(
    (k) => LOGIN_ROUTE.test(k) || LOGIN_ROUTE.test(manifest[k]!.src ?? ''),
  );
  const loginFiles = new Set<string>();
  for (const k of loginKeys)
    for (const f of closure(manifest, k)) if (!initialFiles.has(f)) loginFiles.add(f);
  return { dir, initial: await sizeOf(dir, initialFiles), login: await sizeOf(dir, loginFiles), loginKeys };
}

async function assertSameAsHtml(dir: string, files: Set<string>) {
  const html = await htmlAssets(dir);
  const missing = [...files].filter((f) => /\.(m?js|css)$/.test(f) && !html.has(f));
  const extra = [...html].filter((f) => !files.has(f));
  if (missing.length || extra.length) {
    console.log(
      `note: index.html and the manifest differ: not in html ${missing.join(', ')}; only in html ${extra.join(', ')}`,
    );
  }
}

const MIN_MAIN = `import { Button, Form, Input } from 'antd';
import { createRoot } from 'react-dom/client';

function App() {
  return (
    <Form layout="vertical" style={{ width: 320, margin: '64px auto' }} onFinish={(v) => console.log(v)}>
      <Form.Item name="account" label="账号" rules={[{ required: true, message: '请输入账号' }]}>
        <Input placeholder="账号" />
      </Form.Item>
      <Form.Item>
        <Button type="primary" htmlType="submit" block>
          登录
        </Button>
      </Form.Item>
    </Form>
  );
}

createRoot(document.getElementById('root')!).render(<App />);
`;
const MIN_HTML = `<!doctype html>
<html lang="zh-CN">
  <head><meta charset="UTF-8" /><title>minimal antd</title></head>
  <body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body>
</html>
`;

async function buildMinimal(): Promise<{ dir: string; initial: Counted }> {
  await fs.rm(MIN, { recursive: true, force: true });
  await fs.mkdir(path.join(MIN, 'src'), { recursive: true });
  await fs.writeFile(path.join(MIN, 'index.html'), MIN_HTML);
  await fs.writeFile(path.join(MIN, 'src/main.tsx'), MIN_MAIN);
  const dir = path.join(MIN, 'dist');
  await build({
    root: MIN,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    resolve: { dedupe: ['react', 'react-dom'] },
    // one big chunk is the point of this page
    build: { outDir: dir, emptyOutDir: true, manifest: true, chunkSizeWarningLimit: 4096 },
  });
  const manifest = await readManifest(dir);
  const files = closure(manifest, entryKey(manifest));
  await assertSameAsHtml(dir, files);
  return { dir, initial: await sizeOf(dir, files) };
}

/** Serves a build with the SPA fallback; API calls answer 404 (the login page still renders). */
async function serve(dir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const file = path.join(dir, decodeURIComponent(url.pathname));
    if (url.pathname.startsWith('/v3/')) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"code":404,"message":"bench","data":null}');
      return;
    }
    const target =
      file.startsWith(dir) && existsSync(file) && path.extname(file) ? file : path.join(dir, 'index.html');
    const type = target.endsWith('.js')
      ? 'text/javascript'
      : target.endsWith('.css')
        ? 'text/css'
        : 'text/html';
    res.writeHead(200, { 'content-type': type }).end(await fs.readFile(target));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

/** The JS and CSS files Chromium fetched to show `pathname` (until the network is idle). */
async function fetchedByBrowser(dir: string, pathname: string): Promise<Counted | null> {
  if (!existsSync('/usr/bin/chromium')) return null;
  const srv = await serve(dir);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const page = await browser.newPage();
    const files = new Set<string>();
    page.on('request', (r) => {
      const p = new URL(r.url()).pathname.replace(/^\//, '');
      if (/\.(m?js|css)$/.test(p)) files.add(p);
    });
    await page.goto(`${srv.url}${pathname}`, { waitUntil: 'networkidle' });
    await page.waitForTimeout(500);
    return await sizeOf(dir, files);
  } finally {
    await browser.close();
    await srv.close();
  }
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

async function main() {
  const t0 = Date.now();
  const consoleBuild = await buildConsole();
  const minimal = await buildMinimal();
  const loginTotal = consoleBuild.initial.gzip + consoleBuild.login.gzip;
  const loginRaw = consoleBuild.initial.raw + consoleBuild.login.raw;

  console.log(
    `login-bundle bench: two production Vite builds in this run (${((Date.now() - t0) / 1000).toFixed(1)} s)`,
  );
  console.log('\nconsole /user/login — counted from the manifest:');
  console.log(
    `  index.html (entry + modulepreload + css): ${kb(consoleBuild.initial.gzip)} gzip  ${consoleBuild.initial.files.join(', ')}`,
  );
  if (consoleBuild.loginKeys.length === 0) {
    console.log(
      '  login route chunk: none found by name (LOGIN_ROUTE); if the login page is not lazy it is in the entry above',
    );
  } else {
    console.log(
      `  login route ${consoleBuild.loginKeys.join(', ')} (lazy) + its static imports not already counted: ${kb(consoleBuild.login.gzip)} gzip  ${consoleBuild.login.files.join(', ') || '(nothing new)'}`,
    );
  }
  console.log(`  total: ${kb(loginTotal)} gzip (${kb(loginRaw)} raw)`);
  console.log(
    '\nminimal antd page (React + antd Button/Form/Input) — index.html entry + modulepreload + css:',
  );
  console.log(
    `  total: ${kb(minimal.initial.gzip)} gzip (${kb(minimal.initial.raw)} raw)  ${minimal.initial.files.join(', ')}`,
  );

  const ratio = loginTotal / minimal.initial.gzip;
  console.log(
    `\nratio login / minimal: ${ratio.toFixed(2)}× (target ≤ 1.3×: ${ratio <= 1.3 ? 'met' : 'NOT met'})`,
  );

  const seen = await fetchedByBrowser(consoleBuild.dir, '/user/login');
  const seenMin = await fetchedByBrowser(minimal.dir, '/');
  if (seen && seenMin) {
    const counted = new Set([...consoleBuild.initial.files, ...consoleBuild.login.files]);
    const extra = seen.files.filter((f) => !counted.has(f));
    const unused = [...counted].filter((f) => !seen.files.includes(f));
    console.log(
      '\ncross-check, headless Chromium (no API behind it; JS/CSS fetched until the network is idle):',
    );
    console.log(
      `  /user/login fetched ${seen.files.length} files, ${kb(seen.gzip)} gzip; minimal page ${kb(seenMin.gzip)} gzip; ratio ${(seen.gzip / seenMin.gzip).toFixed(2)}×`,
    );
    if (extra.length) console.log(`  fetched but not counted above: ${extra.join(', ')}`);
    if (unused.length) console.log(`  counted above but not fetched: ${unused.join(', ')}`);
    if (!extra.length && !unused.length) console.log('  the browser fetched exactly the files counted above');
  } else {
    console.log('\ncross-check skipped: /usr/bin/chromium is missing');
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
