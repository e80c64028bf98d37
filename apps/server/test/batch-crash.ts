/**
 * Crash test of batch issuing (issue 4): the real server as a child process on a database of its
 * own; a 2,000-invoice batch; the server killed with SIGKILL at 5 random points and restarted each
 * time; then every row must be issued exactly once and the device's invoice numbers contiguous.
 *
 *   npm run test:batch-crash            (TEST_DATABASE_URL / DATABASE_URL = a PostgreSQL server to
 *                                        create the database on; else an embedded one in .tmp/)
 *   BATCH_CRASH_ROWS=500 BATCH_CRASH_KILLS=3 npx tsx apps/server/test/batch-crash.ts
 *
 * Exits non-zero when an assertion fails. `test/batch-crash.test.ts` runs it within the server tests.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { constants, publicEncrypt, randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { DEMO } from '../src/seed/demo.ts';
import { bigBatchFile } from './fixtures/batches.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const ROWS = Number(process.env.BATCH_CRASH_ROWS ?? 2000);
const KILLS = Number(process.env.BATCH_CRASH_KILLS ?? 5);
/** sandbox latency per issue (ms): widens the window between "invoice row written" and "channel answered" */
const LATENCY = Number(process.env.BATCH_CRASH_LATENCY ?? 3);

const log = (...a: unknown[]) => console.log(`[crash ${new Date().toISOString().slice(11, 23)}]`, ...a);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function check(ok: boolean, what: string) {
  if (!ok) throw new Error(`FAILED: ${what}`);
  log(`ok  ${what}`);
}

type Server = { child: ChildProcess; url: string; exited: Promise<number | null> };

/** Starts `tsx apps/server/src/server.ts` and waits for its banner with the port. */
async function startServer(dbUrl: string, n: number): Promise<Server> {
  // node itself with tsx as a loader: the child IS the server (the tsx CLI would run it as a
  // grandchild, which a SIGKILL of the CLI leaves running)
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: dbUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      NODE_ENV: 'development',
      KAIPIAO_FIXED_CAPTCHA: '1234',
      KAIPIAO_ROLE: 'all',
      // documents are rendered by pg-boss jobs; off here so the run measures issuing, not PDFs
      KAIPIAO_JOBS: 'off',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server ${n} did not start:\n${out}`)), 120_000);
    const onData = (b: Buffer) => {
      out += b.toString();
      // the banner shows the bound host (127.0.0.1 by default, localhost for 0.0.0.0)
      const m = /is running: http:\/\/(?:localhost|127\.0\.0\.1):(\d+)\//.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${m[1]}`);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (b: Buffer) => {
      out += b.toString();
    });
    void exited.then((code) => reject(new Error(`server ${n} exited (${code}) before it started:\n${out}`)));
  });
  // keep draining the pipes so the child never blocks on a full one
  child.stdout!.resume();
  child.stderr!.on('data', (b: Buffer) => {
    const s = b.toString();
    if (/error/i.test(s)) process.stderr.write(`[server ${n}] ${s}`);
  });
  return { child, url, exited };
}

async function api(url: string, token: string | null, method: 'GET' | 'POST', p: string, body?: unknown) {
  const res = await fetch(`${url}${p}`, {
    method,
    headers: {
      ...(token ? { 'access-token': token } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as { code: number; message: string; data: any };
  return json;
}

async function login(url: string): Promise<string> {
  const key = (await api(url, null, 'GET', '/v3/user/public-key')).data;
  const cipher = publicEncrypt(
    { key: key.public_key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(DEMO.password),
  );
  const code = (await api(url, null, 'GET', '/v3/user/picture-code')).data;
  const res = await api(url, null, 'POST', '/v3/user/account-login', {
    account: DEMO.clerk.account,
    password: `${key.key_id}.${cipher.toString('base64')}`,
    picture_code: '1234',
    unique_code: code.unique_code,
  });
  if (res.code !== 0) throw new Error(`login: ${JSON.stringify(res)}`);
  return res.data.token;
}

async function main() {
  const t0 = Date.now();
  let adminUrl = (process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL)?.replace(
    /\/[^/]*$/,
    '/postgres',
  );
  let stopPg = async () => {};
  if (!adminUrl) {
    const { cluster } = await startEmbeddedPostgres(path.join(ROOT, '.tmp/crash-pg'), {
      port: 55435,
      quiet: true,
    });
    adminUrl = cluster.url('postgres');
    stopPg = cluster.stop;
  }
  const dbName = `kp_crash_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client(adminUrl);
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const dbUrl = adminUrl.replace(/\/[^/]*$/, `/${dbName}`);
  const db = new pg.Client(dbUrl);
  let server: Server | null = null;
  // never leave a server behind, whatever ends this process
  process.on('exit', () => server?.child.kill('SIGKILL'));
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      server?.child.kill('SIGKILL');
      process.exit(130);
    });
  }
  try {
    server = await startServer(dbUrl, 0);
    await db.connect();
    log(`server up at ${server.url} (migrated and seeded) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    const token = await login(server.url);
    const ids = (
      await db.query(
        `
        select c.id as client_id, s.id as store_id, d.id as device_id
        from clients c
        join client_stores s on s.client_id = c.id and s.code = 'HQ'
        join tax_devices d on d.client_id = c.id and d.kind = 'digital'
        where c.tax_code = $1`,
        [DEMO.software.taxCode],
      )
    ).rows[0] as { client_id: number; store_id: number; device_id: number };
    const scope = `client_id=${ids.client_id}&sid=${ids.store_id}`;
    await api(server.url, null, 'POST', '/v3/dev/channel/control', {
      device_id: ids.device_id,
      latency_ms: LATENCY,
    });

    const file = await bigBatchFile({ invoices: ROWS, serialPrefix: 'CR' });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file)]), 'crash.xlsx');
    const up = (await (
      await fetch(
        `${server.url}/v3/batch-invoice/upload?${scope}&device_id=${ids.device_id}&invoice_type=82`,
        {
          method: 'POST',
          headers: { 'access-token': token },
          body: form,
        },
      )
    ).json()) as { code: number; data: any };
    if (up.code !== 0) throw new Error(`upload: ${JSON.stringify(up).slice(0, 500)}`);
    const batchId = up.data.batch_id as number;
    check(up.data.invoice_count === ROWS, `uploaded ${ROWS} invoices as batch ${batchId}`);

    // 5 kill points spread over the run, at random
    const points = Array.from({ length: KILLS }, (_, i) => {
      const span = ROWS / (KILLS + 1);
      return Math.floor(span * (i + 0.5) + Math.random() * span);
    });
    log(`kill points (issued rows): ${points.join(', ')}`);
    const issuedCount = async () =>
      Number(
        (
          await db.query(
            `select count(*)::int as n from batch_rows where batch_id = $1 and status = 'issued'`,
            [batchId],
          )
        ).rows[0].n,
      );

    const start = await api(server.url, token, 'POST', `/v3/batch-invoice/start?${scope}`, {
      batch_id: batchId,
    });
    if (start.code !== 0) throw new Error(`start: ${JSON.stringify(start)}`);
    const tIssue = Date.now();
    for (const [k, point] of points.entries()) {
      while ((await issuedCount()) < point) await sleep(5);
      await sleep(Math.random() * 30);
      const inflight = (
        await db.query(
          `select count(*) filter (where status = 'issuing')::int as rows,
             (select count(*)::int from invoices where status = 'issuing' and serial_no like $2) as invoices
           from batch_rows where batch_id = $1`,
          [batchId, `B${String(batchId).padStart(6, '0')}-%`],
        )
      ).rows[0];
      server.child.kill('SIGKILL');
      await server.exited;
      log(
        `kill ${k + 1}/${KILLS}: SIGKILL at ${await issuedCount()} issued (${inflight.rows} rows claimed, ` +
          `${inflight.invoices} invoices mid-issue just before)`,
      );
      server = await startServer(dbUrl, k + 1);
      log(`restarted at ${server.url}`);
    }

    // to the end
    for (;;) {
      const b = (await db.query(`select status from batches where id = $1`, [batchId])).rows[0];
      if (b.status !== 'running') break;
      await sleep(100);
    }
    const issueSeconds = (Date.now() - tIssue) / 1000;

    const serialLike = `B${String(batchId).padStart(6, '0')}-%`;
    const rows = (
      await db.query(
        `select status, count(*)::int as n, max(attempts)::int as max_attempts,
           count(*) filter (where attempts > 1)::int as redriven
         from batch_rows where batch_id = $1 group by status`,
        [batchId],
      )
    ).rows;
    log('batch rows:', JSON.stringify(rows));
    const batch = (await db.query(`select status from batches where id = $1`, [batchId])).rows[0];
    check(batch.status === 'done', `batch finished (status ${batch.status})`);
    check(rows.length === 1 && rows[0].status === 'issued' && rows[0].n === ROWS, `all ${ROWS} rows issued`);

    const inv = (
      await db.query(
        `select count(*)::int as n, count(distinct serial_no)::int as serials,
           count(*) filter (where status = 'issued')::int as issued,
           count(distinct invoice_no)::int as numbers
         from invoices where client_id = $1 and serial_no like $2`,
        [ids.client_id, serialLike],
      )
    ).rows[0];
    check(
      inv.n === ROWS && inv.serials === ROWS && inv.issued === ROWS && inv.numbers === ROWS,
      `exactly one issued invoice per serial (${inv.n} invoices, ${inv.serials} serials, ${inv.numbers} numbers)`,
    );
    const linked = (
      await db.query(
        `select count(*)::int as n from batch_rows r join invoices i on i.id = r.invoice_id
         where r.batch_id = $1 and i.serial_no = r.serial_no and i.invoice_no = r.invoice_no`,
        [batchId],
      )
    ).rows[0];
    check(linked.n === ROWS, 'every row points at the invoice of its serial, with its number');
    const channel = (
      await db.query(
        `select count(*)::int as n, count(distinct serial_no)::int as serials from channel_sandbox_issues
         where client_id = $1 and serial_no like $2`,
        [ids.client_id, serialLike],
      )
    ).rows[0];
    check(
      channel.n === ROWS && channel.serials === ROWS,
      `the channel issued each serial once (${channel.n})`,
    );

    // numbers per device and year: 1 … last_seq, each once (the seeded history included)
    const numbering = (
      await db.query(
        `select c.year, c.last_seq::bigint as last_seq, count(i.*)::int as n,
           count(distinct right(i.invoice_no, 15))::int as distinct_seq,
           min(right(i.invoice_no, 15)::bigint) as min_seq, max(right(i.invoice_no, 15)::bigint) as max_seq
         from channel_number_counters c
         join invoices i on i.device_id = c.device_id and i.invoice_no like (lpad((c.year % 100)::text, 2, '0') || '%')
           and i.invoice_no is not null
         where c.device_id = $1
         group by c.year, c.last_seq`,
        [ids.device_id],
      )
    ).rows;
    for (const y of numbering) {
      check(
        Number(y.min_seq) === 1 &&
          Number(y.max_seq) === Number(y.last_seq) &&
          y.n === Number(y.last_seq) &&
          y.distinct_seq === y.n,
        `device ${ids.device_id}, ${y.year}: numbers 1…${y.last_seq} contiguous, each once (${y.n} invoices)`,
      );
    }
    const batchSeq = (
      await db.query(
        `select min(right(invoice_no, 15)::bigint) as lo, max(right(invoice_no, 15)::bigint) as hi
         from invoices where client_id = $1 and serial_no like $2`,
        [ids.client_id, serialLike],
      )
    ).rows[0];
    check(Number(batchSeq.hi) - Number(batchSeq.lo) + 1 === ROWS, `the batch's ${ROWS} numbers form one run`);
    const reconciled = (
      await db.query(
        `select count(*)::int as n from invoice_events e join invoices i on i.id = e.invoice_id
         where e.kind = 'reconciled' and i.serial_no like $1`,
        [serialLike],
      )
    ).rows[0];
    const redriven = rows[0].redriven;
    log(
      `re-driven rows: ${redriven} (max attempts ${rows[0].max_attempts}); invoices settled by reconciliation: ${reconciled.n}`,
    );
    log(
      `PASS: ${ROWS} rows, ${KILLS} SIGKILLs, issuing ${issueSeconds.toFixed(1)} s incl. restarts, ` +
        `total ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
  } finally {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await Promise.race([server.exited, sleep(10_000)]);
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
    await db.end().catch(() => undefined);
    await admin.query(`drop database if exists ${dbName} with (force)`).catch(() => undefined);
    await admin.end();
    await stopPg();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
