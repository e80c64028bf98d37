/**
 * Benchmark (issue 3): the issue API (POST /v3/online-invoicing/blue, unique serial per request,
 * sandbox channel latency 0) against a bare Fastify route that parses the same JSON body and does
 * one INSERT into the same database, measured in the same run. Prints requests/s and the ratio
 * (target ≥ 40%). Run with `npm run bench` (or `npx tsx bench/issue-api.ts`); DATABASE_URL points
 * it at an existing PostgreSQL server (it creates and drops its own database there).
 *
 * Requests/s is each route's capacity: every target is loaded at each concurrency of
 * BENCH_CONNECTIONS (default 10 and 64) in every round and its best is taken. The bare route is
 * saturated at 10 connections already (its event loop is busy ~85% of the time); the issue route
 * is not — at 10 connections half its requests wait in the group commit of one device while the
 * other half is in PostgreSQL, and node idles a third of the time — so 10 alone measures its
 * latency, not its throughput. The 10-connection ratio is printed too.
 *
 * The servers share this process; the load comes from autocannon in a child process that replaces
 * `[<id>]` in the body by a fresh id, so every request carries a new serial number.
 *
 * Issue 11 item 6: a SaaS console's real load is many businesses issuing a little each. The last
 * issue target seeds BENCH_BUSINESSES (default 200) businesses in the demo group, each with one
 * store and one 数电 account bound to it, gives the demo clerk a scope over each store, and sends
 * request i to business i mod that number (the URL's client_id/sid and the body's device): every device
 * has about one invoice in flight at a time. Target ≥ 40% of the bare route, at 10 connections and
 * at the best concurrency.
 *
 * BENCH_TARGETS (default `one,spread,many`) picks the issue targets loaded, e.g. `many` alone to
 * profile it (`node --cpu-prof --import tsx bench/issue-api.ts`); the bare route always runs.
 */

import { execFile } from 'node:child_process';
import { constants, publicEncrypt } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { computeLine } from '@kaipiao/shared';
import Fastify from 'fastify';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadEnv } from '../apps/server/src/config/env.ts';
import { connectDb, runMigrations } from '../apps/server/src/db/client.ts';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded.ts';
import { DEMO, seedDemo } from '../apps/server/src/seed/demo.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
/** concurrency levels; each target's best is its capacity */
const LEVELS = (process.env.BENCH_CONNECTIONS ?? '10,64').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DB_NAME = 'kaipiao_bench_issue';
const TARGET = 0.4;
/** a second issue target spreads the load over this many 数电 accounts of the store (1 = skip it) */
const SPREAD = Number(process.env.BENCH_SPREAD_DEVICES ?? 8);
/** the many-business target: this many businesses, one store and one 数电 account each (0 = skip it) */
const BUSINESSES = Number(process.env.BENCH_BUSINESSES ?? 200);
/** which issue targets to load (comma-separated: one, spread, many; default all) — e.g. `many` to profile it */
const ONLY = new Set((process.env.BENCH_TARGETS ?? 'one,spread,many').split(',').map((s) => s.trim()));
const run = promisify(execFile);

type Target = {
  name: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  devices: number[];
  /** when set, request i goes to paths[i mod n] with devices[i mod n] (same length as devices) */
  paths?: string[];
};
type Result = {
  name: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** the share of the time this process's event loop was busy */
  elu: number;
  /**
   * CPU time per answered request, this process and the embedded PostgreSQL together (ms): what a
   * request costs, steadier than requests/s on a machine others load (the load generator excluded)
   */
  cpuMs: number;
  /** of which this process (node) */
  nodeMs: number;
};

/** the embedded cluster's data directory, when the bench started one (its processes are counted) */
let clusterDir: string | null = null;
const readProc = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null; // the process ended meanwhile
  }
};
/** pid → user + system CPU in ms (/proc ticks are 10 ms) of the postmaster and its children */
function clusterCpu(): Map<number, number> {
  const out = new Map<number, number>();
  if (!clusterDir) return out;
  const stats = new Map<string, string[]>();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    const st = readProc(`/proc/${pid}/stat`);
    if (st) stats.set(pid, st.slice(st.lastIndexOf(')') + 2).split(' '));
  }
  const master = [...stats.keys()].find((pid) => readProc(`/proc/${pid}/cmdline`)?.includes(clusterDir!));
  if (!master) return out;
  for (const [pid, f] of stats) {
    if (pid === master || f[1] === master) out.set(Number(pid), (Number(f[11]) + Number(f[12])) * 10);
  }
  return out;
}
type CpuMark = { own: NodeJS.CpuUsage; cluster: Map<number, number> };
const cpuMark = (): CpuMark => ({ own: process.cpuUsage(), cluster: clusterCpu() });
/**
 * CPU spent since `m` in ms: this process, and each cluster process by its own difference (one that
 * started meanwhile counts whole; one that ended meanwhile is lost, which backends of a pool rarely do)
 */
function cpuSinceMs(m: CpuMark): number {
  const own = process.cpuUsage(m.own);
  let ms = (own.user + own.system) / 1000;
  for (const [pid, now] of clusterCpu()) ms += now - (m.cluster.get(pid) ?? 0);
  return ms;
}

/**
 * The load generator, run in a child process: autocannon's API with a `setupRequest` that gives
 * every request a fresh serial (its CLI `-I` assumes fixed-length ids and miscounts Content-Length),
 * the next device round-robin and, for a target with `paths`, that device's business and store.
 */
const LOADER = `
const autocannon = require(process.argv[1]);
const opts = JSON.parse(process.argv[2]);
let n = 0;
const prefix = Date.now().toString(36) + Math.random().toString(36).slice(2, 6);
autocannon({
  url: opts.url, connections: opts.connections, duration: opts.duration,
  requests: [{ method: 'POST', headers: opts.headers,
    setupRequest: (req) => {
      const i = n++;
      const k = i % opts.devices.length;
      const body = opts.body.replace('[<id>]', prefix + i.toString(36))
        .replace('"[<device>]"', String(opts.devices[k]));
      return opts.paths ? { ...req, path: opts.paths[k], body } : { ...req, body };
    } }],
}, (err, r) => {
  if (err) { console.error(err); process.exit(1); }
  process.stdout.write(JSON.stringify(r));
});
`;

/** One autocannon run in a child process; the summary's mean requests/s. */
async function load(target: Target, seconds: number, connections: number): Promise<Result> {
  const opts = {
    devices: target.devices,
    paths: target.paths,
    url: target.url,
    connections,
    duration: seconds,
    headers: target.headers,
    body: target.body,
  };
  const elu0 = performance.eventLoopUtilization();
  const cpu0 = cpuMark();
  const { stdout } = await run(
    process.execPath,
    ['-e', LOADER, path.join(ROOT, 'node_modules/autocannon'), JSON.stringify(opts)],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const cpu = cpuSinceMs(cpu0);
  const own = process.cpuUsage(cpu0.own);
  const r = JSON.parse(stdout);
  return {
    name: target.name,
    connections,
    elu: performance.eventLoopUtilization(elu0).utilization,
    cpuMs: cpu / Math.max(1, r.requests.total),
    nodeMs: (own.user + own.system) / 1000 / Math.max(1, r.requests.total),
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

/**
 * One request by hand: HTTP 200 and envelope code 0, or the run is meaningless. `k` picks the
 * device (and, for a target with `paths`, its business and store).
 */
async function checkOnce(target: Target, k = 0) {
  const url = target.paths ? new URL(target.paths[k]!, target.url).href : target.url;
  const res = await fetch(url, {
    method: 'POST',
    headers: target.headers,
    body: target.body
      .replace('[<id>]', `check${Date.now()}-${k}`)
      .replace('"[<device>]"', String(target.devices[k])),
  });
  const body = (await res.json()) as { code: number; message: string };
  if (res.status !== 200 || body.code !== 0) {
    throw new Error(
      `${target.name} (#${k}): expected code 0, got HTTP ${res.status} ${JSON.stringify(body)}`,
    );
  }
}

/**
 * The many-business target (issue 11 item 6): BUSINESSES businesses in the demo group, each a copy
 * of the demo software company with one store and one 数电 account copied from the demo one (the
 * caller has raised its quota), and the demo clerk's scope over each store, so her one session
 * issues for all of them. Request i goes to business i mod BUSINESSES.
 */
async function seedBusinesses(
  pool: pg.Pool,
  like: Target,
  from: { clientId: number; deviceId: number },
): Promise<Target> {
  // one statement: all of it or nothing
  const made = await pool.query<{ client_id: number; store_id: number; device_id: number }>(
    `with src as (select * from clients where id = $1),
     biz as (
       insert into clients (org_id, name, tax_code, industry, taxpayer_type, address, phone, bank_name,
         bank_account, has_white_listed_tax_account)
       select org_id, name || '（压测' || g || '）', '91330100BENCH' || lpad(g::text, 5, '0'), industry,
         taxpayer_type, address, phone, bank_name, bank_account, has_white_listed_tax_account
       from src, generate_series(1, $3::int) g
       returning id
     ),
     store as (
       insert into client_stores (client_id, name, code) select id, '压测门店', 'HQ' from biz
       returning id, client_id
     ),
     dev as (
       insert into tax_devices (client_id, kind, channel, name, device_no, area_code, invoice_types,
         per_invoice_limit, monthly_quota)
       select biz.id, d.kind, d.channel, d.name, d.device_no || '-B' || biz.id, d.area_code, d.invoice_types,
         d.per_invoice_limit, d.monthly_quota
       from tax_devices d, biz where d.id = $2
       returning id, client_id
     ),
     bound as (
       insert into device_stores (device_id, store_id, client_id)
       select dev.id, store.id, client_id from dev join store using (client_id)
     ),
     scope as (
       insert into employee_scopes (employee_id, client_id, store_id)
       select e.id, store.client_id, store.id
       from store, employees e join users u on u.id = e.user_id
       where u.account = $4 and e.org_id = (select org_id from src)
     )
     select store.client_id, store.id as store_id, dev.id as device_id
     from store join dev using (client_id) order by store.client_id`,
    [from.clientId, from.deviceId, BUSINESSES, DEMO.clerk.account],
  );
  const paths = made.rows.map((r) => `/v3/online-invoicing/blue?client_id=${r.client_id}&sid=${r.store_id}`);
  return {
    ...like,
    name: `${BUSINESSES} businesses, one 数电 account each`,
    url: new URL(paths[0]!, like.url).href,
    devices: made.rows.map((r) => r.device_id),
    paths,
  };
}

async function prepareDatabase(): Promise<{ url: string; stop: () => Promise<void> }> {
  let adminUrl = process.env.DATABASE_URL?.replace(/\/[^/]*$/, '/postgres');
  let stop = async () => {};
  if (!adminUrl) {
    clusterDir = path.join(ROOT, '.tmp/bench-pg');
    const { cluster } = await startEmbeddedPostgres(clusterDir, {
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
  const url = adminUrl.replace(/\/[^/]*$/, `/${DB_NAME}`);
  return {
    url,
    stop: async () => {
      const a = new pg.Client(adminUrl);
      await a.connect();
      await a.query(`drop database if exists ${DB_NAME} with (force)`);
      await a.end();
      await stop();
    },
  };
}

async function main() {
  const database = await prepareDatabase();
  const dbHandle = connectDb(database.url);
  await runMigrations(dbHandle);
  await seedDemo(dbHandle.db);
  // 按需开票: the bench issues far more than a month's demo quota
  await dbHandle.pool.query(`update tax_devices set monthly_quota = 9999999999999999 where kind = 'digital'`);
  const env = loadEnv({
    ...process.env,
    NODE_ENV: 'test',
    KAIPIAO_FIXED_CAPTCHA: '1234',
    LOG_LEVEL: 'silent',
  });
  const app = await buildApp({ env, dbHandle, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const appUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

  // the baseline: same body parsing, one INSERT on a pool of the same size, same database
  const barePool = new pg.Pool({ connectionString: database.url, max: 20 });
  await barePool.query(
    'create table bench_bare_inserts (id bigserial primary key, serial_no text not null, total numeric(18,2) not null, created_at timestamptz not null default now())',
  );
  const bare = Fastify({ logger: false });
  bare.post('/bare', async (req) => {
    const body = req.body as { serial_no: string; invoice_info: { total_price_with_tax: string } };
    const r = await barePool.query<{ id: string }>(
      'insert into bench_bare_inserts (serial_no, total) values ($1, $2) returning id',
      [body.serial_no, body.invoice_info.total_price_with_tax],
    );
    return { code: 0, message: 'ok', data: { id: Number(r.rows[0]!.id) } };
  });
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;

  // log in once through the real endpoints (the clerk, at her store)
  const getJson = async (url: string, headers: Record<string, string> = {}) =>
    ((await (await fetch(url, { headers })).json()) as any).data;
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
  const token = login.data.token as string;
  const clients = (await postJson(`${appUrl}/v3/user/client-list`, {}, { 'access-token': token }))
    .data as Array<{
    client_id: number;
    tax_code: string;
  }>;
  const clientId = clients.find((c) => c.tax_code === DEMO.software.taxCode)!.client_id;
  const stores = (await getJson(`${appUrl}/v3/user/store-list?client_id=${clientId}`, {
    'access-token': token,
  })) as Array<{ client_store_id: number }>;
  const sid = stores[0]!.client_store_id;
  const devices = (await getJson(
    `${appUrl}/v3/client-store/get-tax-equipment?client_id=${clientId}&sid=${sid}&invoice_mode=1`,
    { 'access-token': token },
  )) as Array<{ device_id: number }>;
  const deviceId = devices[0]!.device_id;

  // a two-line 数电 普票, computed like the form computes it
  const mk = (withTax: string, qty: string | null) => {
    const c = computeLine({ priceIncludesTax: true, taxRate: '0.06', amount: withTax, quantity: qty });
    return {
      tax_class_code: '3040201010000000000',
      short_name: '信息技术服务',
      name: '软件开发服务',
      quantity: c.quantity,
      price: c.unitPriceWithTax,
      amount: c.amount,
      tax_amount: c.taxAmount,
      amount_with_tax: c.amountWithTax,
      tax_rate: '0.06',
    };
  };
  const lines = [mk('1060.00', '2'), mk('318.00', null)];
  const body = JSON.stringify({
    serial_no: 'B[<id>]',
    device_id: '[<device>]',
    invoice_type: '82',
    buyer: { title_type: 2, name: '杭州西溪数据服务有限公司', tax_code: '91330100MA2B3C4D5N' },
    goods_info: lines,
    invoice_info: {
      price_includes_tax: true,
      total_amount: '1300.00',
      total_tax: '78.00',
      total_price_with_tax: '1378.00',
    },
    send_email: false,
  });
  const json = { 'content-type': 'application/json' };
  const bareTarget: Target = {
    name: 'bare Fastify route (1 INSERT)',
    url: `${bareUrl}/bare`,
    headers: json,
    body,
    devices: [deviceId],
  };
  const issueTarget: Target = {
    name: 'POST /v3/online-invoicing/blue',
    url: `${appUrl}/v3/online-invoicing/blue?client_id=${clientId}&sid=${sid}`,
    headers: { ...json, 'access-token': token },
    body,
    devices: [deviceId],
  };
  // more 数电 accounts at the same store, like the one above: numbers are serialised per device only
  const extra = await dbHandle.pool.query<{ id: number }>(
    `insert into tax_devices (client_id, kind, channel, name, device_no, area_code, invoice_types,
       per_invoice_limit, monthly_quota)
     select client_id, kind, channel, name || '-' || g, device_no || '-' || g, area_code, invoice_types,
       per_invoice_limit, monthly_quota
     from tax_devices, generate_series(2, $2::int) g where id = $1
     returning id`,
    [deviceId, SPREAD],
  );
  for (const d of extra.rows) {
    await dbHandle.pool.query(
      'insert into device_stores (device_id, store_id, client_id) values ($1, $2, $3)',
      [d.id, sid, clientId],
    );
  }
  const spreadTarget: Target = {
    ...issueTarget,
    name: `same, over ${SPREAD} 数电 accounts`,
    devices: [deviceId, ...extra.rows.map((d) => d.id)],
  };
  for (const t of [bareTarget, issueTarget, ...(SPREAD > 1 ? [spreadTarget] : [])]) await checkOnce(t);
  const withOne = ONLY.has('one');
  const withSpread = SPREAD > 1 && ONLY.has('spread');

  // many businesses of the demo group, one 数电 account each (issue 11 item 6; quotas raised above)
  const manyTarget =
    BUSINESSES > 0 && ONLY.has('many')
      ? await seedBusinesses(dbHandle.pool, issueTarget, { clientId, deviceId })
      : null;
  // one invoice per business before loading: each business, store, device and scope answers code 0
  if (manyTarget) for (let k = 0; k < manyTarget.devices.length; k++) await checkOnce(manyTarget, k);

  console.log(
    `issue-api bench: ${ROUNDS} rounds of [bare${withOne ? ', issue' : ''}${withSpread ? `, issue over ${SPREAD} devices` : ''}` +
      `${manyTarget ? `, issue over ${BUSINESSES} businesses` : ''}], each at ` +
      `${LEVELS.join(' and ')} connections; autocannon -d ${DURATION_S} after a 1 s warm-up; clerk session, ` +
      `client_id=${clientId}, sid=${sid}, device ${deviceId} (数电, latency 0); node ${process.version}`,
  );
  /** one target at every level: its best (capacity) and each level's result */
  type Measured = { best: Result; byLevel: Result[] };
  const measure = async (t: Target): Promise<Measured> => {
    const byLevel: Result[] = [];
    for (const c of LEVELS) {
      await load(t, 1, c);
      byLevel.push(await load(t, DURATION_S, c));
    }
    return { best: byLevel.reduce((a, b) => (b.rps > a.rps ? b : a)), byLevel };
  };
  const rounds: Array<{ bare: Measured; issue?: Measured; spread?: Measured; many?: Measured }> = [];
  for (let i = 0; i < ROUNDS; i++) {
    const b = await measure(bareTarget);
    const s = withOne ? await measure(issueTarget) : undefined;
    const sp = withSpread ? await measure(spreadTarget) : undefined;
    const m = manyTarget ? await measure(manyTarget) : undefined;
    rounds.push({ bare: b, issue: s, spread: sp, many: m });
  }

  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = Math.floor(s.length / 2);
    return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
  };
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const level0 = LEVELS[0]!;
  const row = (name: string, runs: Measured[]) => {
    const ratios = runs.map((r, i) => r.best.rps / rounds[i]!.bare.best.rps);
    const at0 = runs.map((r, i) => r.byLevel[0]!.rps / rounds[i]!.bare.byLevel[0]!.rps);
    return {
      target: name,
      'req/s (median of best)': Math.round(median(runs.map((r) => r.best.rps))),
      'best per round (at c)': runs
        .map((r) => `${Math.round(r.best.rps)} (${r.best.connections})`)
        .join(' / '),
      'vs bare': `${pct(median(ratios))} (${ratios.map(pct).join(' / ')})`,
      [`vs bare at c=${level0}`]: pct(median(at0)),
      'node busy': LEVELS.map((_, k) => pct(median(runs.map((r) => r.byLevel[k]!.elu)))).join(' / '),
      // node + PostgreSQL
      'CPU ms/req': LEVELS.map((_, k) => {
        const node = median(runs.map((r) => r.byLevel[k]!.nodeMs));
        const all = median(runs.map((r) => r.byLevel[k]!.cpuMs));
        return `${node.toFixed(2)}+${(all - node).toFixed(2)}`;
      }).join(' / '),
      'p99 ms': Math.max(...runs.map((r) => r.best.p99)),
    };
  };
  console.table([
    {
      ...row(
        bareTarget.name,
        rounds.map((r) => r.bare),
      ),
      'vs bare': '100%',
      [`vs bare at c=${level0}`]: '100%',
    },
    ...(withOne
      ? [
          row(
            issueTarget.name,
            rounds.map((r) => r.issue!),
          ),
        ]
      : []),
    ...(withSpread
      ? [
          row(
            spreadTarget.name,
            rounds.map((r) => r.spread!),
          ),
        ]
      : []),
    ...(manyTarget
      ? [
          row(
            manyTarget.name,
            rounds.map((r) => r.many!),
          ),
        ]
      : []),
  ]);
  console.log(
    `node busy: the share of time the server process's event loop ran, at ${LEVELS.join(' / ')} connections; ` +
      'CPU ms/req: node + PostgreSQL per answered request (the load generator excluded)',
  );

  // every request must have made an issued invoice, and each device's numbers must be gapless
  const counts = await dbHandle.pool.query<{ status: string; n: number; numbers: number }>(
    `select status, count(*)::int as n, count(distinct (device_id, invoice_no))::int as numbers from invoices
     where serial_no like 'B%' group by status`,
  );
  const gaps = await dbHandle.pool.query<{ devices: number; gapless: number }>(
    `select count(*)::int as devices, count(*) filter (where span = n)::int as gapless from (
       select device_id, max(right(invoice_no, 15)::bigint) - min(right(invoice_no, 15)::bigint) + 1 as span,
         count(*) as n
       from invoices where status = 'issued' and serial_no like 'B%' group by device_id) d`,
  );
  console.log(
    `bench invoices by status: ${counts.rows.map((r) => `${r.status} ${r.n} (${r.numbers} distinct device+number)`).join(', ')}; ` +
      `devices with gapless numbers: ${gaps.rows[0]!.gapless} of ${gaps.rows[0]!.devices}`,
  );
  if (withOne) {
    const ratio = median(rounds.map((r) => r.issue!.best.rps / r.bare.best.rps));
    const ratio0 = median(rounds.map((r) => r.issue!.byLevel[0]!.rps / r.bare.byLevel[0]!.rps));
    console.log(
      `issue API (one device): ${pct(ratio)} of the bare INSERT route, each at its best concurrency ` +
        `(target ≥ ${pct(TARGET)}: ${ratio >= TARGET ? 'met' : 'NOT met'}); at ${level0} connections both: ${pct(ratio0)}`,
    );
  }
  if (withSpread) {
    const r2 = median(rounds.map((r) => r.spread!.best.rps / r.bare.best.rps));
    console.log(`issue API (${SPREAD} devices): ${pct(r2)} of the bare INSERT route`);
  }
  if (manyTarget) {
    const best = median(rounds.map((r) => r.many!.best.rps / r.bare.best.rps));
    const at0 = median(rounds.map((r) => r.many!.byLevel[0]!.rps / r.bare.byLevel[0]!.rps));
    const rps = Math.round(median(rounds.map((r) => r.many!.best.rps)));
    const rps0 = Math.round(median(rounds.map((r) => r.many!.byLevel[0]!.rps)));
    const mark = (x: number) => `target ≥ ${pct(TARGET)}: ${x >= TARGET ? 'met' : 'NOT met'}`;
    console.log(
      `issue API (${BUSINESSES} businesses, one 数电 account each, load spread): ${rps} req/s, ${pct(best)} of the ` +
        `bare INSERT route, each at its best concurrency (${mark(best)}); at ${level0} connections both: ` +
        `${rps0} req/s, ${pct(at0)} (${mark(at0)})`,
    );
  }
  const all = rounds
    .flatMap((r) => [
      r.bare,
      ...(r.issue ? [r.issue] : []),
      ...(r.spread ? [r.spread] : []),
      ...(r.many ? [r.many] : []),
    ])
    .flatMap((m) => m.byLevel);
  if (all.some((x) => x.non2xx + x.errors > 0)) {
    console.log('warning: some requests failed or answered non-2xx; the figures above are not comparable');
  }

  await bare.close();
  await barePool.end();
  await app.close();
  await dbHandle.close();
  await new Promise((r) => setTimeout(r, 500));
  await database.stop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
