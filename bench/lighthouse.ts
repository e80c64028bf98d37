/**
 * Benchmark (issue 11): Lighthouse on the console as `npm start` serves it. Run with `npm run bench`
 * (or `npx tsx bench/lighthouse.ts`).
 *
 * Builds the web app (under NODE_ENV=development, as the README's default shell has it: the build
 * must still be a production one), starts the real server in a child process (embedded PostgreSQL
 * in .tmp/bench-lighthouse, demo tenant with its year of history, fixed picture code), and runs
 * Lighthouse 12 in Debian's Chromium (scripts/ensure-chromium.sh) on:
 *   - /user/login, mobile preset (the default config: slow 4G, 4× CPU), signed out;
 *   - /home/index and /query/invoice, desktop preset, signed in as the clerk through the login page
 *     (the HttpOnly `kp_token` cookie and the app's localStorage/sessionStorage, in the same tab the
 *     audits then use, so the once-per-tab public notice is already closed, as for a user).
 * Lighthouse clears the HTTP cache before each page (its default storage reset keeps cookies and
 * localStorage), so each figure is a cold load. Prints performance, accessibility and best-practices
 * scores, the bytes transferred, the targets (performance ≥ 90, accessibility ≥ 95, best practices
 * 100) as met / not met, and for a missed target the audits Lighthouse holds responsible. The JSON
 * reports are left in .tmp/lighthouse/. Scores on a shared 2-core machine vary by a few points.
 *
 * Options (environment):
 *   LIGHTHOUSE_PAGES=/user/login          only these targets (comma-separated paths of the three);
 *   LIGHTHOUSE_RUNS=6                     each target this many times (one build and one server;
 *                                         the summary lists every run, reports are `<page>-<run>.json`);
 *   LIGHTHOUSE_NO_BUILD=1                 use apps/web/dist as it is (after a build of your own).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import puppeteer, { type Page } from 'puppeteer-core';

const ROOT = path.resolve(import.meta.dirname, '..');
const DATA = path.join(ROOT, '.tmp/bench-lighthouse');
const REPORTS = path.join(ROOT, '.tmp/lighthouse');
const CHROMIUM = '/usr/bin/chromium';
const CLERK = { account: 'kaipiao_clerk', password: 'Kaipiao@2026' };
const CAPTCHA = '1234';

const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
type Category = (typeof CATEGORIES)[number];
const TARGETS: Record<Category, number> = { performance: 90, accessibility: 95, 'best-practices': 100 };

type Target = { path: string; preset: 'mobile' | 'desktop'; signedIn: boolean };
const ALL_PAGES: Target[] = [
  { path: '/user/login', preset: 'mobile', signedIn: false },
  { path: '/home/index', preset: 'desktop', signedIn: true },
  { path: '/query/invoice', preset: 'desktop', signedIn: true },
];
const only = process.env.LIGHTHOUSE_PAGES?.split(',').map((p) => p.trim());
const PAGES = only ? ALL_PAGES.filter((t) => only.includes(t.path)) : ALL_PAGES;
if (only && PAGES.length !== only.length) {
  throw new Error(
    `LIGHTHOUSE_PAGES: one of ${only.join(', ')} is not ${ALL_PAGES.map((t) => t.path).join(', ')}`,
  );
}
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 1);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`LIGHTHOUSE_RUNS=${process.env.LIGHTHOUSE_RUNS}`);

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

function buildWeb() {
  const started = Date.now();
  execFileSync('npm', ['run', '--silent', 'build', '-w', '@kaipiao/web'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'development' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  console.log(`web build (NODE_ENV=development): ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** The real server (apps/server/src/server.ts) as `npm start` runs it, on a free port. */
async function startServer(port: number): Promise<{ child: ChildProcess; stop: () => Promise<void> }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    KAIPIAO_DATA_DIR: DATA,
    KAIPIAO_FIXED_CAPTCHA: CAPTCHA,
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (b: Buffer) => {
    output += b.toString();
  });
  child.stderr!.on('data', (b: Buffer) => {
    output += b.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let exit: number | null | undefined;
  void exited.then((code) => {
    exit = code;
  });
  // the first start seeds the demo tenant and its year of history
  const until = Date.now() + 300_000;
  for (;;) {
    if (exit !== undefined) throw new Error(`the server exited (${exit}):\n${output}`);
    if (Date.now() > until) throw new Error(`the server did not answer within 300 s:\n${output}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/v3/user/picture-code`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    child,
    stop: async () => {
      if (exit === undefined) child.kill('SIGINT'); // stops the embedded database cleanly
      await exited;
    },
  };
}

/** Signs the clerk in through the login page (fixed picture code) and closes the public notice. */
async function signIn(page: Page, base: string) {
  await page.setViewport({ width: 1350, height: 940 });
  await page.goto(`${base}/user/login`, { waitUntil: 'networkidle2' });
  await page.locator('input[placeholder="账号"]').fill(CLERK.account);
  await page.locator('input[placeholder="密码"]').fill(CLERK.password);
  await page.locator('input[placeholder="验证码"]').fill(CAPTCHA);
  const notice = page.waitForResponse((r) => r.url().includes('/v3/system/public-notice'), {
    timeout: 30_000,
  });
  await page.locator('button[type="submit"]').click();
  const answer = (await (await notice).json()) as { data: { title: string } | null };
  if (answer.data) await page.locator('button ::-p-text(我知道了)').click();
  await page.waitForFunction("!location.pathname.startsWith('/user/')", { timeout: 30_000 });
  console.log(`signed in as ${CLERK.account}, landed on ${new URL(page.url()).pathname}`);
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const score = (lhr: Lhr, c: Category) => Math.round((lhr.categories[c]?.score ?? 0) * 100);

/** What Lighthouse names as the causes of a missed category: its failing audits, worst first. */
function causes(lhr: Lhr, c: Category): string[] {
  const refs = lhr.categories[c]?.auditRefs ?? [];
  const lines: string[] = [];
  if (c === 'performance') {
    for (const ref of refs.filter((r) => r.weight > 0)) {
      const a = lhr.audits[ref.id]!;
      lines.push(`${a.title}: ${a.displayValue ?? ''} (score ${Math.round((a.score ?? 0) * 100)})`);
    }
  }
  const failing = refs
    .filter((r) => (c !== 'performance' || r.weight === 0) && r.group !== 'metrics')
    .map((r) => ({ ref: r, audit: lhr.audits[r.id]! }))
    .filter(
      ({ audit }) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== 'informative',
    )
    .filter(({ audit }) => audit.scoreDisplayMode !== 'notApplicable' && audit.scoreDisplayMode !== 'manual')
    .sort((x, y) => (x.audit.score ?? 0) - (y.audit.score ?? 0) || y.ref.weight - x.ref.weight);
  for (const { audit } of failing.slice(0, 8)) {
    const items = (audit.details as { items?: unknown[] } | undefined)?.items?.length;
    lines.push(
      `${audit.title}${audit.displayValue ? `: ${audit.displayValue}` : ''}` +
        `${items ? ` [${items} item${items > 1 ? 's' : ''}]` : ''} (score ${Math.round((audit.score ?? 0) * 100)})`,
    );
  }
  return lines;
}

function report(target: Target, lhr: Lhr, run: number) {
  const requests =
    (
      lhr.audits['network-requests']?.details as {
        items?: { transferSize?: number; resourceSize?: number }[];
      }
    )?.items ?? [];
  const resource = requests.reduce((n, r) => n + (r.resourceSize ?? 0), 0);
  const transferred = lhr.audits['total-byte-weight']?.numericValue ?? 0;
  const runOf = RUNS > 1 ? `, run ${run}/${RUNS}` : '';
  console.log(`\n${target.path} (${target.preset}${target.signedIn ? ', signed in' : ''}${runOf})`);
  console.log(
    `  transferred ${kb(transferred)} in ${requests.length} requests (${kb(resource)} uncompressed)` +
      `; FCP ${lhr.audits['first-contentful-paint']?.displayValue}, LCP ${lhr.audits['largest-contentful-paint']?.displayValue}` +
      `, TBT ${lhr.audits['total-blocking-time']?.displayValue}, CLS ${lhr.audits['cumulative-layout-shift']?.displayValue}`,
  );
  const missed: Category[] = [];
  for (const c of CATEGORIES) {
    const s = score(lhr, c);
    const met = s >= TARGETS[c];
    if (!met) missed.push(c);
    console.log(
      `  ${c.padEnd(15)} ${String(s).padStart(3)}  target ≥ ${TARGETS[c]}: ${met ? 'met' : 'NOT met'}`,
    );
  }
  for (const c of missed) {
    console.log(`  ${c}, what Lighthouse names:`);
    for (const line of causes(lhr, c)) console.log(`    - ${line}`);
  }
  const ms = (id: string) => Math.round(lhr.audits[id]?.numericValue ?? 0);
  return {
    path: target.path,
    run,
    metrics: `FCP ${ms('first-contentful-paint')} LCP ${ms('largest-contentful-paint')} TBT ${ms('total-blocking-time')} ms`,
    transferred,
    scores: Object.fromEntries(CATEGORIES.map((c) => [c, score(lhr, c)])),
  };
}

async function main() {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run bash scripts/ensure-chromium.sh`);
  if (process.env.LIGHTHOUSE_NO_BUILD === '1') console.log('web build: skipped (LIGHTHOUSE_NO_BUILD=1)');
  else buildWeb();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await startServer(port);
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
  await fs.mkdir(REPORTS, { recursive: true });
  const results = [];
  try {
    let signedInPage: Page | null = null;
    for (let run = 1; run <= RUNS; run++) {
      for (const target of PAGES) {
        let page: Page;
        if (target.signedIn) {
          if (!signedInPage) {
            signedInPage = await browser.newPage();
            await signIn(signedInPage, base);
          }
          page = signedInPage;
        } else {
          page = await browser.newPage();
        }
        let result: Awaited<ReturnType<typeof lighthouse>>;
        for (let attempt = 1; ; attempt++) {
          result = await lighthouse(
            `${base}${target.path}`,
            { output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] },
            target.preset === 'desktop' ? desktopConfig : undefined,
            page,
          );
          // a lost trace (NO_NAVSTART, NO_FCP…) says "run Lighthouse again": once more, at most twice
          const error = result?.lhr.runtimeError;
          if (!error || attempt === 3) break;
          console.log(`${target.path}: ${error.code}, running again`);
        }
        if (!result) throw new Error(`Lighthouse gave no result for ${target.path}`);
        if (result.lhr.runtimeError) throw new Error(`${target.path}: ${result.lhr.runtimeError.message}`);
        const finalPath = new URL(result.lhr.finalDisplayedUrl).pathname;
        if (finalPath !== target.path) throw new Error(`${target.path} ended on ${finalPath} (signed out?)`);
        const name = `${target.path.slice(1).replaceAll('/', '-')}${RUNS > 1 ? `-${run}` : ''}.json`;
        await fs.writeFile(path.join(REPORTS, name), JSON.stringify(result.lhr, null, 1));
        results.push(report(target, result.lhr, run));
        if (!target.signedIn) await page.close();
      }
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  console.log('\nsummary');
  for (const r of results) {
    const s = r.scores;
    console.log(
      `  ${r.path.padEnd(15)}${RUNS > 1 ? ` run ${r.run}` : ''} perf ${s.performance}  a11y ${s.accessibility}  best-practices ${s['best-practices']}  ${kb(r.transferred)}  ${r.metrics}`,
    );
  }
  console.log(`reports: ${path.relative(ROOT, REPORTS)}/*.json`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
