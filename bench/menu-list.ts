/**
 * Benchmark (issue 2): authenticated API routes of the real app against a bare Fastify route, in
 * the same process, measured in the same run. Prints requests/s and the ratio to the bare route
 * (target ≥ 60%). Run with `npm run bench` (or `npx tsx bench/menu-list.ts`).
 *
 * The servers (the real app and a plain Fastify instance) share this process; the load comes from
 * autocannon in a child process, so the load generator does not compete for the servers' thread.
 */
import { execFile } from 'node:child_process';
import { constants, publicEncrypt } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadEnv } from '../apps/server/src/config/env.ts';
import { connectDb, runMigrations } from '../apps/server/src/db/client.ts';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded.ts';
import { ok } from '../apps/server/src/lib/envelope.ts';
import { DEMO, seedDemo } from '../apps/server/src/seed/demo.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DB_NAME = 'kaipiao_bench';
const run = promisify(execFile);

type Target = { name: string; url: string; headers?: Record<string, string> };
type Result = { name: string; rps: number; p50: number; p99: number; non2xx: number; errors: number };

/** One autocannon run in a child process; the JSON summary's mean requests/s. */
async function load(target: Target, seconds: number): Promise<Result> {
  const args = ['-c', String(CONNECTIONS), '-d', String(seconds), '-j'];
  for (const [k, v] of Object.entries(target.headers ?? {})) args.push('-H', `${k}=${v}`);
  args.push(target.url);
  const { stdout } = await run(path.join(ROOT, 'node_modules/.bin/autocannon'), args, {
    maxBuffer: 64 * 1024 * 1024,
  });
  const r = JSON.parse(stdout);
  return {
    name: target.name,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

async function checkEnvelope(target: Target) {
  const res = await fetch(target.url, { headers: target.headers });
  const body = (await res.json()) as { code: number; message: string };
  if (res.status !== 200 || body.code !== 0) {
    throw new Error(`${target.name}: expected code 0, got HTTP ${res.status} ${JSON.stringify(body)}`);
  }
}

async function prepareDatabase(): Promise<{ url: string; stop: () => Promise<void> }> {
  let adminUrl = process.env.DATABASE_URL?.replace(/\/[^/]*$/, '/postgres');
  let stop = async () => {};
  if (!adminUrl) {
    const { cluster } = await startEmbeddedPostgres(path.join(ROOT, '.tmp/bench-pg'), {
      port: 55433,
      quiet: true,
    });
    adminUrl = cluster.url('postgres');
    stop = cluster.stop;
  }
  const admin = new pg.Client(adminUrl);
  await admin.connect();
  await admin.query(`drop database if exists ${DB_NAME} with (force)`);
  await admin.query(`create database ${DB_NAME}`);
  await admin.end();
  return { url: adminUrl.replace(/\/[^/]*$/, `/${DB_NAME}`), stop };
}

async function main() {
  const database = await prepareDatabase();
  const dbHandle = connectDb(database.url);
  await runMigrations(dbHandle);
  await seedDemo(dbHandle.db);
  const env = loadEnv({
    ...process.env,
    NODE_ENV: 'test',
    KAIPIAO_FIXED_CAPTCHA: '1234',
    LOG_LEVEL: 'silent',
  });
  const app = await buildApp({ env, dbHandle, logger: false });
  // a true no-op behind the same session and business/store checks as every API route (the app
  // has no such route of its own: GET /v3/user/info builds its answer from the cached user row)
  app.get('/bench/noop', async () => ok(null));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const appUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

  const bare = Fastify({ logger: false });
  bare.get('/bare', async () => ({ code: 0, message: 'ok', data: null }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;

  // log in once through the real endpoints
  const getJson = async (url: string) => ((await (await fetch(url)).json()) as any).data;
  const postJson = async (url: string, body: unknown, headers: Record<string, string> = {}) =>
    (await (
      await fetch(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json()) as any;
  const key = await getJson(`${appUrl}/v3/user/public-key`);
  const cipher = publicEncrypt(
    { key: key.public_key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(DEMO.password),
  );
  const login = await postJson(`${appUrl}/v3/user/account-login`, {
    account: DEMO.clerk.account,
    password: `${key.key_id}.${cipher.toString('base64')}`,
    picture_code: '1234',
    unique_code: (await getJson(`${appUrl}/v3/user/picture-code`)).unique_code,
  });
  if (login.code !== 0) throw new Error(`login failed: ${JSON.stringify(login)}`);
  const headers = { 'access-token': login.data.token as string };
  const clients = (await postJson(`${appUrl}/v3/user/client-list`, {}, headers)).data as Array<{
    client_id: number;
    tax_code: string;
  }>;
  const clientId = clients.find((c) => c.tax_code === DEMO.software.taxCode)!.client_id;
  const scope = `client_id=${clientId}&sid=-1`;
  // the first screen of a store: the clerk's own store selected, as the console sends it
  const storeList = (
    (await (await fetch(`${appUrl}/v3/user/store-list?client_id=${clientId}`, { headers })).json()) as {
      data: Array<{ client_store_id: number }>;
    }
  ).data;
  const store = `client_id=${clientId}&sid=${storeList[0]!.client_store_id}`;

  const bareTarget: Target = { name: 'bare Fastify route (constant)', url: `${bareUrl}/bare` };
  const targets: Target[] = [
    { name: 'GET /v3/authority/menu-list', url: `${appUrl}/v3/authority/menu-list?${scope}`, headers },
    { name: 'authenticated no-op (GET /bench/noop)', url: `${appUrl}/bench/noop?${scope}`, headers },
    { name: 'GET /v3/user/info', url: `${appUrl}/v3/user/info?${scope}`, headers },
    // the rest of the first screen (issue 11 item 6: each ≥ 30% of the bare route)
    { name: 'GET /v3/system/public-notice', url: `${appUrl}/v3/system/public-notice?${store}`, headers },
    { name: 'GET /v3/equipment/check-tax', url: `${appUrl}/v3/equipment/check-tax?${store}`, headers },
    {
      name: 'GET /v3/client-store/get-tax-equipment',
      url: `${appUrl}/v3/client-store/get-tax-equipment?${store}`,
      headers,
    },
    { name: 'GET /v3/home/invoice-overview', url: `${appUrl}/v3/home/invoice-overview?${store}`, headers },
  ];
  /** menu-list and the no-op keep issue 2's 60%; the first screen's other reads issue 11's 30% */
  const targetOf = (t: Target) => (/menu-list|noop/.test(t.name) ? 0.6 : 0.3);
  for (const t of [bareTarget, ...targets]) await checkEnvelope(t);

  console.log(
    `menu-list bench: ${ROUNDS} rounds of [bare, ${targets.map((t) => t.name).join(', ')}]; ` +
      `autocannon -c ${CONNECTIONS} -d ${DURATION_S} each after a 1 s warm-up; ` +
      `clerk session, client_id=${clientId}, sid=-1; node ${process.version}`,
  );
  // rounds interleave the targets so that a busy machine slows them alike; each target's ratio is
  // taken against the bare route of its own round, and the median over the rounds is reported
  const measure = async (t: Target) => {
    await load(t, 1);
    return load(t, DURATION_S);
  };
  const rounds: Array<{ bare: Result; results: Result[] }> = [];
  for (let i = 0; i < ROUNDS; i++) {
    const bareResult = await measure(bareTarget);
    const results: Result[] = [];
    for (const t of targets) results.push(await measure(t));
    rounds.push({ bare: bareResult, results });
  }

  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = Math.floor(s.length / 2);
    return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
  };
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const rows = [
    {
      target: bareTarget.name,
      'req/s (median)': Math.round(median(rounds.map((r) => r.bare.rps))),
      'req/s per round': rounds.map((r) => Math.round(r.bare.rps)).join(' / '),
      'vs bare (median)': '100%',
      'vs bare per round': '',
      'p99 ms': Math.max(...rounds.map((r) => r.bare.p99)),
    },
    ...targets.map((t, i) => {
      const runs = rounds.map((r) => r.results[i]!);
      const ratios = rounds.map((r) => r.results[i]!.rps / r.bare.rps);
      return {
        target: t.name,
        'req/s (median)': Math.round(median(runs.map((r) => r.rps))),
        'req/s per round': runs.map((r) => Math.round(r.rps)).join(' / '),
        'vs bare (median)': pct(median(ratios)),
        'vs bare per round': ratios.map(pct).join(' / '),
        'p99 ms': Math.max(...runs.map((r) => r.p99)),
      };
    }),
  ];
  console.table(rows);
  for (const [i, t] of targets.entries()) {
    const ratio = median(rounds.map((r) => r.results[i]!.rps / r.bare.rps));
    const target = targetOf(t);
    console.log(
      `${t.name}: ${pct(ratio)} of bare (target ≥ ${pct(target)}: ${ratio >= target ? 'met' : 'NOT met'})`,
    );
  }
  const all = rounds.flatMap((r) => [r.bare, ...r.results]);
  if (all.some((r) => r.non2xx > 0 || r.errors > 0)) {
    console.log('warning: some requests failed or answered non-2xx; the figures above are not comparable');
  }

  await bare.close();
  await app.close();
  await dbHandle.close();
  // pg-pool's end() resolves before its sockets have closed: let them go before the server stops
  await new Promise((r) => setTimeout(r, 500));
  await database.stop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
