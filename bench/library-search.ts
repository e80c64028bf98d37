/**
 * Benchmark (issue 3): invoice-library search over 1,000,000 invoices. Seeds the invoices with one
 * generate_series INSERT per chunk, then measures, in the same run and interleaved, the p95 of
 *   - the library API: POST /v3/invoice-record/list (buyer name contains + date range, page 1), over
 *     HTTP with the session, scope and menu checks, validation and serialisation, and
 *   - the raw SQL of the same query: the two statements the route runs (the page and the capped
 *     count, concurrently), sent straight to PostgreSQL with node-postgres;
 * target: API p95 ≤ 2 × SQL p95. It prints EXPLAIN (ANALYZE) of both statements and checks that no
 * plan reads the invoices table with a sequential scan.
 *
 * Run: `npx tsx bench/library-search.ts` (an embedded PostgreSQL in .tmp/bench-lib-pg), or with
 * BENCH_DATABASE_URL (or DATABASE_URL, as the other benches) = postgres://…/postgres to use a running server (database kp_bench_lib is
 * dropped and re-created). BENCH_INVOICES (default 1000000), BENCH_SAMPLES (default 300) tune it.
 */
import { constants, publicEncrypt, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beijingDay, invoiceListRequestSchema, LIBRARY_COUNT_CAP } from '@kaipiao/shared';
import { eq, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadEnv } from '../apps/server/src/config/env.ts';
import { connectDb, runMigrations } from '../apps/server/src/db/client.ts';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded.ts';
import { clientStores, clients, users } from '../apps/server/src/db/schema/index.ts';
import { sha256 } from '../apps/server/src/lib/crypto.ts';
import { trustDevice } from '../apps/server/src/modules/auth/repo.ts';
import { countSql, libraryConditions, listPageSql } from '../apps/server/src/modules/query/library-sql.ts';
import { DEMO, seedDemo } from '../apps/server/src/seed/demo.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const TOTAL = Number(process.env.BENCH_INVOICES ?? 1_000_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const WARMUP = 40;
const CHUNK = 100_000;
const DB_NAME = 'kp_bench_lib';
const MIGRATION_0004 = path.join(ROOT, 'apps/server/drizzle/0004_library_search.sql');

async function prepareDatabase(): Promise<{ url: string; stop: () => Promise<void> }> {
  let adminUrl = (process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL)?.replace(
    /\/[^/]*$/,
    '/postgres',
  );
  let stop = async () => {};
  if (!adminUrl) {
    const { cluster } = await startEmbeddedPostgres(path.join(ROOT, '.tmp/bench-lib-pg'), {
      port: 55434,
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

/** Index names created by migration 0004 (dropped for the bulk load, re-created from its SQL). */
function libraryIndexes(sqlText: string): string[] {
  return [...sqlText.matchAll(/CREATE INDEX IF NOT EXISTS "([a-z_]+)"/g)].map((m) => m[1]!);
}

// word lists for buyer names: city + word + trade + suffix, picked by hashes of the row number
const CITIES = [
  '杭州',
  '上海',
  '北京',
  '深圳',
  '南京',
  '宁波',
  '苏州',
  '广州',
  '成都',
  '武汉',
  '合肥',
  '绍兴',
  '厦门',
  '青岛',
  '西安',
  '长沙',
  '天津',
  '重庆',
  '无锡',
  '温州',
];
const WORDS = [
  '数澜',
  '云帆',
  '智联',
  '星桥',
  '易达',
  '恒通',
  '博远',
  '青禾',
  '明途',
  '启辰',
  '汇智',
  '锦程',
  '川流',
  '长风',
  '晨光',
  '新禾',
  '拓普',
  '安迅',
  '天衡',
  '盛源',
  '卓越',
  '鼎力',
  '华信',
  '远景',
  '同舟',
  '优品',
  '星河',
  '蓝海',
  '金桥',
  '银杏',
  '松果',
  '麦田',
  '雪松',
  '海纳',
  '凌云',
  '睿思',
  '融通',
  '宏图',
  '飞鸿',
  '瑞丰',
  '嘉禾',
  '百川',
  '创新',
  '东方',
  '南山',
  '西湖',
  '北辰',
  '中科',
  '万象',
  '紫金',
];
const TRADES = [
  '网络科技',
  '信息技术',
  '软件开发',
  '数据服务',
  '电子商务',
  '物流',
  '贸易',
  '智能制造',
  '文化传媒',
  '医疗器械',
  '教育科技',
  '供应链管理',
  '新能源科技',
  '建筑工程',
  '餐饮管理',
  '酒店管理',
  '咨询服务',
  '广告',
  '环保科技',
  '生物科技',
];
const SUFFIXES = ['有限公司', '股份有限公司', '有限责任公司'];
const arr = (xs: string[]) => `array[${xs.map((x) => `'${x}'`).join(',')}]`;

/** One chunk of invoices for a business: rows start..end of the series. */
function chunkSql(opts: {
  clientId: number;
  storeIds: number[];
  sellerName: string;
  sellerTaxCode: string;
  start: number;
  end: number;
  prefix: string;
  numberDigit: string;
}): string {
  const stores = `array[${opts.storeIds.join(',')}]`;
  const h = (salt: number) => `abs(hashint8(g::bigint * ${salt}))`;
  return `
    insert into invoices (client_id, store_id, device_id, serial_no, request_hash, source, invoice_type, direction,
      status, red_status, invoice_code, invoice_no, issued_at, created_at, updated_at, buyer_title_type, buyer_name,
      buyer_tax_code, seller_name, seller_tax_code, total_amount, total_tax, total_with_tax)
    select ${opts.clientId}, s.store_id, 0, '${opts.prefix}' || g, 'bench', 'online', s.invoice_type, s.direction,
      s.status, s.red_status, '', case when s.status = 'failed' then null else '${opts.numberDigit}' || lpad(g::text, 19, '0') end,
      case when s.status = 'failed' then null else s.t end, s.t, s.t, 2, s.buyer_name,
      '91' || lpad((${h(7)} % 1000000000000000)::text, 16, '0'), '${opts.sellerName}', '${opts.sellerTaxCode}',
      s.amount, round(s.amount * 0.06, 2), s.amount + round(s.amount * 0.06, 2)
    from generate_series(${opts.start}, ${opts.end}) g,
    lateral (select
      (${stores})[1 + ${h(3)} % ${opts.storeIds.length}] as store_id,
      case when ${h(5)} % 4 = 0 then '81' else '82' end as invoice_type,
      case when g % 97 = 0 then 'red' else 'blue' end as direction,
      case when g % 1999 = 0 then 'failed' when g % 4999 = 0 then 'unknown' else 'issued' end as status,
      case when g % 211 = 0 then 'full' when g % 307 = 0 then 'partial' else 'none' end as red_status,
      now() - ((${h(11)} % (365 * 86400))::text || ' seconds')::interval as t,
      (${arr(CITIES)})[1 + ${h(13)} % ${CITIES.length}] || (${arr(WORDS)})[1 + ${h(17)} % ${WORDS.length}]
        || (${arr(TRADES)})[1 + ${h(19)} % ${TRADES.length}] || (${arr(SUFFIXES)})[1 + ${h(23)} % ${SUFFIXES.length}]
        as buyer_name,
      (case when g % 97 = 0 then -1 else 1 end) * round(((${h(29)} % 5000000) / 100.0 + 100)::numeric, 2) as amount
    ) s`;
}

async function seedInvoices(
  pool: pg.Pool,
  ids: { software: number; hotel: number; swStores: number[]; htStores: number[] },
) {
  const migration = readFileSync(MIGRATION_0004, 'utf8');
  const indexes = libraryIndexes(migration);
  const t0 = Date.now();
  for (const name of indexes) await pool.query(`drop index if exists "${name}"`);
  // 95% in the software company (the tenant we search), 5% in the hotel (other-tenant rows to skip)
  const hotelRows = Math.round(TOTAL * 0.05);
  const jobs: {
    clientId: number;
    stores: number[];
    name: string;
    tax: string;
    from: number;
    to: number;
    prefix: string;
  }[] = [];
  for (let s = 1; s <= TOTAL - hotelRows; s += CHUNK) {
    jobs.push({
      clientId: ids.software,
      stores: ids.swStores,
      name: DEMO.software.name,
      tax: DEMO.software.taxCode,
      from: s,
      to: Math.min(s + CHUNK - 1, TOTAL - hotelRows),
      prefix: 'B',
    });
  }
  for (let s = 1; s <= hotelRows; s += CHUNK) {
    jobs.push({
      clientId: ids.hotel,
      stores: ids.htStores,
      name: DEMO.hotel.name,
      tax: DEMO.hotel.taxCode,
      from: s,
      to: Math.min(s + CHUNK - 1, hotelRows),
      prefix: 'H',
    });
  }
  // two chunks at a time
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const j = jobs[next++]!;
      await pool.query(
        chunkSql({
          clientId: j.clientId,
          storeIds: j.stores,
          sellerName: j.name,
          sellerTaxCode: j.tax,
          start: j.from,
          end: j.to,
          prefix: j.prefix,
          numberDigit: j.prefix === 'B' ? '1' : '2',
        }),
      );
      done += j.to - j.from + 1;
      process.stdout.write(`\r  inserted ${done.toLocaleString()} / ${TOTAL.toLocaleString()} invoices`);
    }
  };
  await Promise.all([worker(), worker()]);
  const tLoad = Date.now();
  process.stdout.write(`  (${((tLoad - t0) / 1000).toFixed(1)} s)\n`);
  // the library indexes exactly as the migration defines them
  await pool.query("set maintenance_work_mem = '256MB'");
  for (const stmt of migration.split('--> statement-breakpoint')) {
    if (/CREATE INDEX/.test(stmt)) await pool.query(stmt);
  }
  const tIndex = Date.now();
  await pool.query('vacuum analyze invoices');
  console.log(
    `  ${indexes.length} indexes re-created from 0004_library_search.sql in ${((tIndex - tLoad) / 1000).toFixed(1)} s; ` +
      `vacuum analyze ${((Date.now() - tIndex) / 1000).toFixed(1)} s`,
  );
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

async function main() {
  const database = await prepareDatabase();
  const dbHandle = connectDb(database.url, 10);
  await runMigrations(dbHandle);
  await seedDemo(dbHandle.db, { history: false });
  const [software] = await dbHandle.db
    .select()
    .from(clients)
    .where(eq(clients.taxCode, DEMO.software.taxCode));
  const [hotel] = await dbHandle.db.select().from(clients).where(eq(clients.taxCode, DEMO.hotel.taxCode));
  const stores = await dbHandle.db.select().from(clientStores);
  const ids = {
    software: software!.id,
    hotel: hotel!.id,
    swStores: stores.filter((s) => s.clientId === software!.id).map((s) => s.id),
    htStores: stores.filter((s) => s.clientId === hotel!.id).map((s) => s.id),
  };
  console.log(`library-search bench: seeding ${TOTAL.toLocaleString()} invoices (generate_series)`);
  await seedInvoices(dbHandle.pool, ids);

  const env = loadEnv({
    ...process.env,
    NODE_ENV: 'test',
    KAIPIAO_FIXED_CAPTCHA: '1234',
    LOG_LEVEL: 'silent',
  });
  const app = await buildApp({ env, dbHandle, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

  // the group admin (every store: no store condition, the widest scope) from a trusted device
  const [adminUser] = await dbHandle.db.select().from(users).where(eq(users.account, DEMO.admin.account));
  const secureId = randomBytes(12).toString('hex');
  await trustDevice(dbHandle.db, adminUser!.id, sha256(secureId));
  const key = ((await (await fetch(`${base}/v3/user/public-key`)).json()) as any).data;
  const cipher = publicEncrypt(
    { key: key.public_key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(DEMO.password),
  );
  const unique = ((await (await fetch(`${base}/v3/user/picture-code`)).json()) as any).data.unique_code;
  const login = (await (
    await fetch(`${base}/v3/user/account-login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        account: DEMO.admin.account,
        password: `${key.key_id}.${cipher.toString('base64')}`,
        picture_code: '1234',
        unique_code: unique,
        secure_id: secureId,
      }),
    })
  ).json()) as any;
  if (login.code !== 0) throw new Error(`login failed: ${JSON.stringify(login)}`);
  const token = login.data.token as string;
  const listUrl = `${base}/v3/invoice-record/list?client_id=${ids.software}&sid=-1`;

  // the searches: a name fragment (2–6 characters) and the last three months, page 1 of 10
  const from = beijingDay(Date.now() - 90 * 86_400_000);
  const to = beijingDay();
  const terms = [
    '星河',
    '云帆网络',
    '数据服务',
    '杭州青禾',
    '西湖',
    '汇智供应链',
    '蓝海',
    '北京中科',
    '物流',
    '卓越环保',
    '紫金',
    '深圳星桥网络',
  ];
  const bodies = terms.map((t) => ({ buyer_name: t, date_from: from, date_to: to, page: 1, page_size: 10 }));

  // the raw side runs exactly the route's statements, on its own pool of the same size
  const dialect = new PgDialect({ casing: 'snake_case' });
  const raw = new pg.Pool({ connectionString: database.url, max: 10 });
  const scope = { clientId: ids.software, storeIds: null };
  const statements = bodies.map((b) => {
    const { page, page_size, ...filter } = invoiceListRequestSchema.parse(b);
    const where = libraryConditions(scope, filter);
    const q = (s: SQL) => dialect.sqlToQuery(s);
    return { list: q(listPageSql(where, page, page_size)), count: q(countSql(where)) };
  });
  const viaApi = async (i: number) => {
    const t = performance.now();
    const res = await fetch(listUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'access-token': token },
      body: JSON.stringify(bodies[i % bodies.length]),
    });
    const json = (await res.json()) as { code: number; data: { total: number } };
    if (json.code !== 0) throw new Error(`API answered ${JSON.stringify(json)}`);
    return { ms: performance.now() - t, total: json.data.total };
  };
  const viaSql = async (i: number) => {
    const s = statements[i % statements.length]!;
    const t = performance.now();
    const [, count] = await Promise.all([
      raw.query(s.list.sql, s.list.params as unknown[]),
      raw.query(s.count.sql, s.count.params as unknown[]),
    ]);
    return { ms: performance.now() - t, total: Math.min(Number(count.rows[0].n), LIBRARY_COUNT_CAP) };
  };

  for (let i = 0; i < WARMUP; i++) {
    await viaApi(i);
    await viaSql(i);
  }
  const apiMs: number[] = [];
  const sqlMs: number[] = [];
  const totals = new Map<string, number>();
  for (let i = 0; i < SAMPLES; i++) {
    // alternate which goes first so a busy machine slows both alike
    const a = i % 2 === 0 ? await viaApi(i) : null;
    const s = await viaSql(i);
    const b = a ?? (await viaApi(i));
    apiMs.push(b.ms);
    sqlMs.push(s.ms);
    if (b.total !== s.total)
      throw new Error(`totals differ for ${terms[i % terms.length]}: ${b.total} vs ${s.total}`);
    totals.set(terms[i % terms.length]!, s.total);
  }

  // EXPLAIN of both statements for one search
  const explainOf = async (q: { sql: string; params: unknown[] }) =>
    (await raw.query(`explain (analyze, buffers, costs off) ${q.sql}`, q.params as unknown[])).rows
      .map((r) => r['QUERY PLAN'] as string)
      .join('\n');
  const plans: string[] = [];
  console.log(`\nEXPLAIN ANALYZE for buyer_name '${terms[0]}', ${from} … ${to}, page 1:`);
  for (const [label, q] of [
    ['page', statements[0]!.list],
    ['count', statements[0]!.count],
  ] as const) {
    const plan = await explainOf(q as { sql: string; params: unknown[] });
    plans.push(plan);
    console.log(`-- ${label}\n${plan}\n`);
  }
  // and every other search: no sequential scan on invoices in any of them
  for (const s of statements.slice(1)) {
    plans.push(await explainOf(s.list as { sql: string; params: unknown[] }));
    plans.push(await explainOf(s.count as { sql: string; params: unknown[] }));
  }
  const seq = plans.filter((p) => /Seq Scan on invoices/.test(p)).length;

  const count = (await raw.query('select count(*)::int as n from invoices')).rows[0].n as number;
  console.log(
    `invoices: ${count.toLocaleString()} (${ids.software} = software company, the searched tenant); ` +
      `${SAMPLES} samples per side after ${WARMUP} warm-up, sequential, interleaved; node ${process.version}`,
  );
  console.log(
    `matches per search (capped at ${LIBRARY_COUNT_CAP.toLocaleString()}): ${[...totals].map(([k, v]) => `${k} ${v}`).join(', ')}`,
  );
  const row = (name: string, xs: number[]) => ({
    target: name,
    'p50 ms': percentile(xs, 50).toFixed(2),
    'p95 ms': percentile(xs, 95).toFixed(2),
    'p99 ms': percentile(xs, 99).toFixed(2),
    'max ms': Math.max(...xs).toFixed(2),
  });
  console.table([
    row('API POST /v3/invoice-record/list', apiMs),
    row('raw SQL (page + capped count)', sqlMs),
  ]);
  const ratio = percentile(apiMs, 95) / percentile(sqlMs, 95);
  console.log(`API p95 / SQL p95 = ${ratio.toFixed(2)} (target ≤ 2: ${ratio <= 2 ? 'met' : 'NOT met'})`);
  console.log(
    `plans with "Seq Scan on invoices": ${seq} of ${plans.length} (target 0: ${seq === 0 ? 'met' : 'NOT met'})`,
  );

  await raw.end();
  await app.close();
  await dbHandle.close();
  await new Promise((r) => setTimeout(r, 500));
  await database.stop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
