/**
 * Benchmark (issue 4): a 10,000-invoice batch — upload and validation, then issuing — in rows/s,
 * against the single-invoice API (POST /v3/online-invoicing/blue) measured in the same run on the
 * same device. Target: batch ≥ 1× the single-invoice rate (a batch is never slower per invoice).
 *
 *   npm run bench   (or: npx tsx bench/batch-issue.ts; BENCH_BATCH_ROWS, BENCH_DURATION, BENCH_CONNECTIONS)
 *
 * The app runs in this process with jobs off (no PDF rendering for either path). The single-invoice
 * load comes from a child process (CONNECTIONS concurrent loops), each request with a fresh serial; its rate is the
 * number of invoices that reached `issued` in the database divided by the run time. The batch rate
 * is counted the same way, from the moment the upload is sent to the last row issued.
 */
import { execFile } from 'node:child_process';
import { constants, publicEncrypt } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { computeLine } from '@kaipiao/shared';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadEnv } from '../apps/server/src/config/env.ts';
import { connectDb, runMigrations } from '../apps/server/src/db/client.ts';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded.ts';
import { DEMO, seedDemo } from '../apps/server/src/seed/demo.ts';
import { BUYER_TAX_CODE, bigBatchFile } from '../apps/server/test/fixtures/batches.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const ROWS = Number(process.env.BENCH_BATCH_ROWS ?? 10_000);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const DB_NAME = 'kaipiao_bench_batch';
const run = promisify(execFile);

/**
 * The load generator (a child process, so it does not share the server's thread): `connections`
 * loops posting the invoice with a fresh serial each time, for `seconds`. (autocannon's `-I` id
 * replacement miscounts Content-Length for url-safe ids, so it cannot drive this endpoint.)
 */
const LOAD_SCRIPT = `
const { LOAD_URL, LOAD_TOKEN, LOAD_BODY, LOAD_CONNECTIONS, LOAD_SECONDS } = process.env;
const end = Date.now() + Number(LOAD_SECONDS) * 1000;
let sent = 0, ok = 0, failed = 0, n = 0;
const lat = [];
async function loop(c) {
  while (Date.now() < end) {
    const body = LOAD_BODY.replace('[<id>]', process.pid + 'x' + c + 'x' + (n++));
    const t = performance.now();
    sent++;
    try {
      const res = await fetch(LOAD_URL, { method: 'POST', headers: { 'access-token': LOAD_TOKEN, 'content-type': 'application/json' }, body });
      const j = await res.json();
      if (j.code === 0) ok++; else failed++;
    } catch { failed++; }
    lat.push(performance.now() - t);
  }
}
await Promise.all(Array.from({ length: Number(LOAD_CONNECTIONS) }, (_, c) => loop(c)));
lat.sort((a, b) => a - b);
console.log(JSON.stringify({ sent, ok, failed, p99: Math.round(lat[Math.floor(lat.length * 0.99)] ?? 0) }));
`;

async function prepareDatabase(): Promise<{ url: string; stop: () => Promise<void> }> {
  let adminUrl = (process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL)?.replace(
    /\/[^/]*$/,
    '/postgres',
  );
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
    KAIPIAO_JOBS: 'off',
    KAIPIAO_ROLE: 'all',
    LOG_LEVEL: 'silent',
  });
  const app = await buildApp({ env, dbHandle, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const pool = dbHandle.pool;
  // knobs to explore the runner: lanes per batch, rows per claim
  if (app.batchRunner) {
    const opts = app.batchRunner.opts as { lanes: number; claim?: number };
    if (process.env.BENCH_LANES) opts.lanes = Number(process.env.BENCH_LANES);
    if (process.env.BENCH_CLAIM) opts.claim = Number(process.env.BENCH_CLAIM);
  }

  const getJson = async (p: string) => ((await (await fetch(`${url}${p}`)).json()) as any).data;
  const postJson = async (p: string, body: unknown, headers: Record<string, string> = {}) =>
    (await (
      await fetch(`${url}${p}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json()) as any;
  const key = await getJson('/v3/user/public-key');
  const cipher = publicEncrypt(
    { key: key.public_key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(DEMO.password),
  );
  const login = await postJson('/v3/user/account-login', {
    account: DEMO.clerk.account,
    password: `${key.key_id}.${cipher.toString('base64')}`,
    picture_code: '1234',
    unique_code: (await getJson('/v3/user/picture-code')).unique_code,
  });
  if (login.code !== 0) throw new Error(`login failed: ${JSON.stringify(login)}`);
  const token = login.data.token as string;
  const ids = (
    await pool.query(
      `select c.id as client_id, s.id as store_id, d.id as device_id
       from clients c join client_stores s on s.client_id = c.id and s.code = 'HQ'
       join tax_devices d on d.client_id = c.id and d.kind = 'digital' where c.tax_code = $1`,
      [DEMO.software.taxCode],
    )
  ).rows[0] as { client_id: number; store_id: number; device_id: number };
  const scope = `client_id=${ids.client_id}&sid=${ids.store_id}`;
  // no monthly quota in the way of 10,000 + invoices
  await postJson('/v3/dev/channel/device', { device_id: ids.device_id, monthly_quota: null });

  const issuedLike = async (like: string) =>
    Number(
      (
        await pool.query(
          `select count(*)::int as n from invoices where status = 'issued' and serial_no like $1`,
          [like],
        )
      ).rows[0].n,
    );

  // --- single-invoice API: the same invoice as one batch row (one line, 1,060.00 incl. 6%) -------
  const c = computeLine({ priceIncludesTax: true, taxRate: '0.06', quantity: '2', price: '530' });
  const body = JSON.stringify({
    serial_no: 'BENCH[<id>]',
    device_id: ids.device_id,
    invoice_type: '82',
    buyer: {
      title_type: 2,
      name: '杭州测试客户有限公司',
      tax_code: BUYER_TAX_CODE,
      email: 'finance@example.com',
    },
    goods_info: [
      {
        line_kind: 0,
        goods_id: null,
        tax_class_code: '3040201010000000000',
        short_name: '信息技术服务',
        name: '软件开发服务',
        spec: '',
        unit: '项',
        quantity: c.quantity,
        price: c.unitPriceWithTax,
        amount: c.amount,
        tax_amount: c.taxAmount,
        amount_with_tax: c.amountWithTax,
        tax_rate: '0.06',
        preferential_code: '',
        zero_rate_flag: '',
      },
    ],
    invoice_info: {
      price_includes_tax: true,
      total_amount: c.amount,
      total_tax: c.taxAmount,
      total_price_with_tax: c.amountWithTax,
      remark: '',
    },
    send_email: false,
  });
  const probe = await postJson(
    `/v3/online-invoicing/blue?${scope}`,
    JSON.parse(body.replace('[<id>]', 'probe00001')),
    { 'access-token': token },
  );
  if (probe.code !== 0) throw new Error(`single issue failed: ${JSON.stringify(probe)}`);

  console.log(
    `batch-issue bench: single API = ${CONNECTIONS} concurrent clients for ${DURATION_S} s, POST /v3/online-invoicing/blue ` +
      `(fresh serial per request); batch = ${ROWS} invoices × 1 line uploaded and issued by the runner ` +
      `(${app.batchRunner?.opts.lanes} lanes); same device (数电, sandbox latency 0); node ${process.version}`,
  );
  const beforeSingle = await issuedLike('BENCH%');
  const t1 = Date.now();
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', LOAD_SCRIPT], {
    env: {
      ...process.env,
      LOAD_URL: `${url}/v3/online-invoicing/blue?${scope}`,
      LOAD_TOKEN: token,
      LOAD_BODY: body,
      LOAD_CONNECTIONS: String(CONNECTIONS),
      LOAD_SECONDS: String(DURATION_S),
    },
    maxBuffer: 16 * 1024 * 1024,
  });
  const singleSeconds = (Date.now() - t1) / 1000;
  const ac = JSON.parse(stdout) as { sent: number; ok: number; failed: number; p99: number };
  const singleIssued = (await issuedLike('BENCH%')) - beforeSingle;
  const singleRate = singleIssued / singleSeconds;

  // --- batch: upload + validation, then issuing --------------------------------------------------
  const file = await bigBatchFile({ invoices: ROWS, serialPrefix: 'BB' });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), 'bench.xlsx');
  const mem0 = process.memoryUsage().rss;
  const t2 = Date.now();
  const up = (await (
    await fetch(`${url}/v3/batch-invoice/upload?${scope}&device_id=${ids.device_id}&invoice_type=82`, {
      method: 'POST',
      headers: { 'access-token': token },
      body: form,
    })
  ).json()) as any;
  const validateSeconds = (Date.now() - t2) / 1000;
  const rssAfterUpload = process.memoryUsage().rss;
  if (up.code !== 0) throw new Error(`upload failed: ${JSON.stringify(up).slice(0, 400)}`);
  const batchId = up.data.batch_id as number;
  const t3 = Date.now();
  const started = await postJson(
    `/v3/batch-invoice/start?${scope}`,
    { batch_id: batchId },
    { 'access-token': token },
  );
  if (started.code !== 0) throw new Error(`start failed: ${JSON.stringify(started)}`);
  for (;;) {
    const s = (await pool.query(`select status from batches where id = $1`, [batchId])).rows[0].status;
    if (s !== 'running') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const issueSeconds = (Date.now() - t3) / 1000;
  const batchIssued = await issuedLike(`B${String(batchId).padStart(6, '0')}-%`);
  if (batchIssued !== ROWS) throw new Error(`batch issued ${batchIssued} of ${ROWS}`);

  const validateRate = ROWS / validateSeconds;
  const issueRate = ROWS / issueSeconds;
  const endToEnd = ROWS / (validateSeconds + issueSeconds);
  const f = (x: number) => x.toFixed(1);
  console.table([
    {
      path: `single API (${CONNECTIONS} connections)`,
      invoices: singleIssued,
      seconds: f(singleSeconds),
      'invoices/s': f(singleRate),
      'vs single': '100%',
      note: `${ac.sent} requests, ${ac.failed} not code 0, p99 ${ac.p99} ms`,
    },
    {
      path: 'batch: upload + validation',
      invoices: ROWS,
      seconds: f(validateSeconds),
      'invoices/s': f(validateRate),
      'vs single': '',
      note: `file ${(file.length / 1024).toFixed(0)} KB, rss +${((rssAfterUpload - mem0) / 1048576).toFixed(0)} MB`,
    },
    {
      path: 'batch: issuing',
      invoices: ROWS,
      seconds: f(issueSeconds),
      'invoices/s': f(issueRate),
      'vs single': `${((issueRate / singleRate) * 100).toFixed(0)}%`,
      note: '',
    },
    {
      path: 'batch: validation + issuing',
      invoices: ROWS,
      seconds: f(validateSeconds + issueSeconds),
      'invoices/s': f(endToEnd),
      'vs single': `${((endToEnd / singleRate) * 100).toFixed(0)}%`,
      note: '',
    },
  ]);
  const ratio = endToEnd / singleRate;
  console.log(
    `batch (validation + issuing) ${f(endToEnd)} invoices/s = ${ratio.toFixed(2)}× the single-invoice API ` +
      `(${f(singleRate)}/s) — target ≥ 1×: ${ratio >= 1 ? 'met' : 'NOT met'}`,
  );

  await app.close();
  await dbHandle.close();
  await new Promise((r) => setTimeout(r, 500));
  await database.stop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
