/**
 * Benchmark (issue 4): Excel export of 100,000 invoices through the real export path — an
 * `export_records` row run by `runExport` (apps/server/src/modules/query/export-runner.ts: keyset
 * batches, row mapping, styles, the lines sheet, progress updates, rename) — against a bare exceljs
 * streaming WorkbookWriter writing the same rows from the same queries (the runner's keyset batch
 * SQL and its lines query) with no mapping, styles or progress, in the same run.
 * Target: export rows/s ≥ 50% of the bare writer's. Peak RSS and heap are sampled every 20 ms.
 *
 *   npm run bench   (or: npx tsx bench/export-excel.ts; BENCH_EXPORT_INVOICES, BENCH_ROUNDS)
 *
 * Each measured run is a child process of its own (`--run real|bare`), so the peak memory of one
 * is not inflated by the other; runs alternate real / bare, and the best round of each is reported.
 * Uses an embedded PostgreSQL in .tmp/bench-export-pg, or BENCH_DATABASE_URL / DATABASE_URL.
 */
import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { connectDb, runMigrations } from '../apps/server/src/db/client.ts';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded.ts';
import { exportConditions } from '../apps/server/src/modules/query/export-repo.ts';
import { runExport } from '../apps/server/src/modules/query/export-runner.ts';
import { keysetBatchSql } from '../apps/server/src/modules/query/library-sql.ts';
import { DEMO, seedDemo } from '../apps/server/src/seed/demo.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const TOTAL = Number(process.env.BENCH_EXPORT_INVOICES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const DB_NAME = 'kp_bench_export';
const OUT_DIR = path.join(ROOT, '.tmp/bench-export');
const BATCH = 500;
const run = promisify(execFile);

type Result = {
  mode: 'real' | 'bare';
  rows: number;
  lines: number;
  ms: number;
  rssMb: number;
  heapMb: number;
  bytes: number;
};

/** Peak RSS / heap while `fn` runs. */
async function withPeak<T>(fn: () => Promise<T>): Promise<{ value: T; rss: number; heap: number }> {
  let rss = 0;
  let heap = 0;
  const sample = () => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  };
  sample();
  const timer = setInterval(sample, 20);
  try {
    const value = await fn();
    sample();
    return { value, rss, heap };
  } finally {
    clearInterval(timer);
  }
}

// ------------------------------------------------------------------ child: one measured run

async function child(mode: 'real' | 'bare', url: string, clientId: number): Promise<void> {
  const dbHandle = connectDb(url);
  const db = dbHandle.db;
  await fs.mkdir(OUT_DIR, { recursive: true });
  const where = exportConditions({ clientId, storeIds: null, filters: {}, invoiceIds: null, pdfOnly: false });
  let bytes = 0;
  let lines = 0;
  const t0 = performance.now();
  const peak = await withPeak(async () => {
    if (mode === 'real') {
      const [rec] = (
        await db.execute<{ id: number }>(sql`
          insert into export_records (client_id, kind, filters, store_ids, created_by, expires_at)
          values (${clientId}, 'excel', '{}'::jsonb, null, (select min(id) from users), now() + interval '1 day') returning id`)
      ).rows;
      await runExport(
        {
          db,
          dataDir: OUT_DIR,
          pdfFor: async () => {
            throw new Error('no PDFs in an Excel export');
          },
          log: { error: (o) => console.error(o) },
        },
        rec!.id,
      );
      const [done] = (
        await db.execute<{
          status: string;
          error: string | null;
          file_size: number;
          row_count: number;
          file_path: string;
        }>(
          sql`select status, error, file_size, row_count, file_path from export_records where id = ${rec!.id}`,
        )
      ).rows;
      if (done?.status !== 'done') throw new Error(`export failed: ${JSON.stringify(done)}`);
      bytes = Number(done.file_size);
      await fs.rm(path.join(OUT_DIR, done.file_path), { force: true });
      return Number(done.row_count);
    }
    // the bare writer: same SQL, raw values, no styles, no progress
    const file = path.join(OUT_DIR, `bare-${process.pid}.xlsx`);
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: createWriteStream(file),
      useStyles: false,
      useSharedStrings: false,
    });
    type Row = Record<string, unknown> & { id: number; sort_time: string; invoice_no: string | null };
    const batches = async function* (): AsyncGenerator<Row[]> {
      let after: { time: string; id: number } | null = null;
      for (;;) {
        const res: { rows: Row[] } = await db.execute<Row>(keysetBatchSql(where, after, BATCH));
        if (res.rows.length === 0) return;
        yield res.rows;
        const last: Row = res.rows[res.rows.length - 1]!;
        after = { time: last.sort_time, id: Number(last.id) };
        if (res.rows.length < BATCH) return;
      }
    };
    let n = 0;
    const inv = wb.addWorksheet('发票列表');
    for await (const rows of batches()) {
      for (const r of rows) {
        inv
          .addRow([
            r.invoice_code,
            r.invoice_no,
            r.invoice_type,
            r.direction,
            r.status,
            r.issued_at,
            r.buyer_name,
            r.buyer_tax_code,
            r.total_amount,
            r.total_tax,
            r.total_with_tax,
            r.store_name,
            r.serial_no,
          ])
          .commit();
      }
      n += rows.length;
    }
    inv.commit();
    const ls = wb.addWorksheet('商品明细');
    for await (const rows of batches()) {
      const ids = rows.map((r) => Number(r.id));
      const res = await db.execute<
        Record<string, unknown>
      >(sql`select invoice_id, line_no, full_name, spec, unit, quantity,
          unit_price, amount, tax_rate, tax_amount, amount_with_tax, tax_class_code, zero_rate_flag, preferential_code
        from invoice_lines
        where client_id = ${clientId} and invoice_id = any(${`{${ids.join(',')}}`}::bigint[])
        order by invoice_id desc, line_no`);
      for (const l of res.rows) {
        ls.addRow([
          l.invoice_id,
          l.line_no,
          l.full_name,
          l.spec,
          l.unit,
          l.quantity,
          l.unit_price,
          l.amount,
          l.tax_rate,
          l.tax_amount,
          l.amount_with_tax,
          l.tax_class_code,
        ]).commit();
        lines++;
      }
    }
    ls.commit();
    await wb.commit();
    bytes = (await fs.stat(file)).size;
    await fs.rm(file, { force: true });
    return n;
  });
  const ms = performance.now() - t0;
  if (mode === 'real') {
    const counted = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from invoice_lines where client_id = ${clientId}`,
    );
    lines = Number(counted.rows[0]!.n);
  }
  const out: Result = {
    mode,
    rows: peak.value,
    lines,
    ms,
    rssMb: peak.rss / 2 ** 20,
    heapMb: peak.heap / 2 ** 20,
    bytes,
  };
  console.log(`RESULT ${JSON.stringify(out)}`);
  await dbHandle.pool.end();
}

// ------------------------------------------------------------------ parent: data and rounds

async function prepareDatabase(): Promise<{ url: string; stop: () => Promise<void> }> {
  let adminUrl = (process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL)?.replace(
    /\/[^/]*$/,
    '/postgres',
  );
  let stop = async () => {};
  if (!adminUrl) {
    const { cluster } = await startEmbeddedPostgres(path.join(ROOT, '.tmp/bench-export-pg'), {
      port: 55436,
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

/** TOTAL issued invoices over the software business's stores, 1–3 lines each, in one statement per 25,000. */
async function seedInvoices(pool: pg.Pool, clientId: number): Promise<void> {
  const stores = (
    await pool.query('select id from client_stores where client_id = $1 order by id', [clientId])
  ).rows.map((r) => r.id as number);
  const device = (
    await pool.query(`select id from tax_devices where client_id = $1 and kind = 'digital'`, [clientId])
  ).rows[0].id as number;
  for (let start = 1; start <= TOTAL; start += 25_000) {
    const end = Math.min(TOTAL, start + 24_999);
    await pool.query(
      `with inv as (
        insert into invoices (client_id, store_id, device_id, serial_no, request_hash, source, invoice_type, direction,
          status, invoice_no, issued_at, buyer_name, buyer_tax_code, seller_name, seller_tax_code,
          total_amount, total_tax, total_with_tax)
        select $1, ($2::int[])[1 + g % array_length($2::int[], 1)], $3, 'BX' || g, 'bench', 'online',
          case when g % 4 = 0 then '81' else '82' end, 'blue', 'issued', '2633' || lpad(g::text, 16, '0'),
          now() - (g || ' seconds')::interval,
          '杭州' || (array['数澜','云帆','智联','星桥','易达'])[1 + g % 5] || '网络科技有限公司',
          '91330100MA2B' || lpad(g::text, 6, '0'), $4, $5,
          (g % 100000) / 10.0 + 100, round(((g % 100000) / 10.0 + 100) * 0.06, 2),
          (g % 100000) / 10.0 + 100 + round(((g % 100000) / 10.0 + 100) * 0.06, 2)
        from generate_series($6::int, $7::int) g
        returning id, total_amount, total_tax)
      insert into invoice_lines (invoice_id, line_no, client_id, tax_class_code, short_name, item_name, full_name,
        unit, quantity, unit_price, unit_price_with_tax, amount, tax_rate, tax_amount, amount_with_tax)
      select inv.id, n, $1, '3040201010000000000', '信息技术服务', '软件开发服务', '*信息技术服务*软件开发服务',
        '项', 1, inv.total_amount / k, inv.total_amount / k * 1.06, round(inv.total_amount / k, 2), 0.06,
        round(inv.total_tax / k, 2), round(inv.total_amount / k, 2) + round(inv.total_tax / k, 2)
      from inv, lateral (select 1 + inv.id % 3 as k) kk, generate_series(1, kk.k) n`,
      [clientId, `{${stores.join(',')}}`, device, DEMO.software.name, DEMO.software.taxCode, start, end],
    );
  }
  await pool.query('analyze invoices; analyze invoice_lines');
}

async function main() {
  const database = await prepareDatabase();
  const dbHandle = connectDb(database.url);
  try {
    await runMigrations(dbHandle);
    process.env.NODE_ENV = 'test'; // no demo history: the bench's own invoices only
    await seedDemo(dbHandle.db);
    const clientId = (
      await dbHandle.pool.query('select id from clients where tax_code = $1', [DEMO.software.taxCode])
    ).rows[0].id as number;
    const t = performance.now();
    await seedInvoices(dbHandle.pool, clientId);
    console.log(
      `seeded ${TOTAL.toLocaleString()} invoices with their lines in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );

    const results: Result[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const mode of ['real', 'bare'] as const) {
        const { stdout } = await run(
          process.execPath,
          [
            '--import',
            'tsx',
            path.join(ROOT, 'bench/export-excel.ts'),
            '--run',
            mode,
            database.url,
            String(clientId),
          ],
          { cwd: ROOT, maxBuffer: 16 * 2 ** 20, env: { ...process.env, NODE_ENV: 'production' } },
        );
        const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
        if (!line) throw new Error(`no result from the ${mode} run:\n${stdout}`);
        const r = JSON.parse(line.slice(7)) as Result;
        results.push(r);
        console.log(
          `  round ${round} ${mode === 'real' ? 'export runner' : 'bare writer  '}: ${r.rows.toLocaleString()} invoices + ${r.lines.toLocaleString()} lines in ${(r.ms / 1000).toFixed(2)} s = ${Math.round((r.rows * 1000) / r.ms).toLocaleString()} invoices/s; peak RSS ${r.rssMb.toFixed(0)} MB, peak heap ${r.heapMb.toFixed(0)} MB; file ${(r.bytes / 2 ** 20).toFixed(1)} MB`,
        );
      }
    }
    const best = (mode: 'real' | 'bare') =>
      results.filter((r) => r.mode === mode).reduce((a, b) => (b.ms < a.ms ? b : a));
    const real = best('real');
    const bare = best('bare');
    const rate = (r: Result) => (r.rows * 1000) / r.ms;
    const ratio = rate(real) / rate(bare);
    console.log('');
    console.log(
      `export runner (best of ${ROUNDS}): ${Math.round(rate(real)).toLocaleString()} invoices/s, peak RSS ${real.rssMb.toFixed(0)} MB, heap ${real.heapMb.toFixed(0)} MB`,
    );
    console.log(
      `bare exceljs  (best of ${ROUNDS}): ${Math.round(rate(bare)).toLocaleString()} invoices/s, peak RSS ${bare.rssMb.toFixed(0)} MB, heap ${bare.heapMb.toFixed(0)} MB`,
    );
    console.log(
      `ratio export/bare = ${(ratio * 100).toFixed(0)}% (target ≥ 50%) ${ratio >= 0.5 ? 'OK' : 'BELOW TARGET'}`,
    );
  } finally {
    await dbHandle.pool.end();
    await database.stop();
  }
}

const argv = process.argv.slice(2);
if (argv[0] === '--run') {
  await child(argv[1] as 'real' | 'bare', argv[2]!, Number(argv[3]));
} else {
  await main();
}
