import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, insertFixtures } from '../../../test/fixtures/query.ts';
import { buildTestApp, call, DEMO, login } from '../../../test/helper.ts';
import { EXPORT_SWEEP_JOB } from './export-sweep.ts';
import { EXPORT_JOB } from './exports.ts';

/**
 * With jobs on (pg-boss), an export is a queued job (retried once, expiring after an hour) that a
 * worker runs to the end — not a run inside the process that took the request.
 */
describe('exports with jobs on', () => {
  let base: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kp-export-jobs-'));
    base = await buildTestApp({ env: { KAIPIAO_JOBS: 'off', KAIPIAO_DATA_DIR: dataDir } });
    f = await insertFixtures(base.db);
  });
  afterAll(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('a web process (jobs on, not a worker) schedules no sweep', async () => {
    const web = await buildTestApp({
      reuse: base,
      env: { KAIPIAO_DATA_DIR: dataDir, KAIPIAO_JOBS: 'on', KAIPIAO_ROLE: 'web' },
    });
    await web.app.jobs.started();
    await new Promise((r) => setTimeout(r, 1000));
    expect((await web.app.boss.getSchedules()).map((s) => s.name)).not.toContain(EXPORT_SWEEP_JOB);
  });

  it('an export is sent to the queue (one retry, an hour to run) and the worker finishes it', async () => {
    // built in the test: the job's queue options are read while the app is built
    const worker = await buildTestApp({
      reuse: base,
      env: { KAIPIAO_DATA_DIR: dataDir, KAIPIAO_JOBS: 'on', KAIPIAO_ROLE: 'all' },
    });
    await worker.app.jobs.started();
    const admin = await login(worker.app, DEMO.admin.account);
    const q = `client_id=${f.software}&sid=-1`;
    const made = await call(worker.app, 'POST', `/v3/invoice-export/create?${q}`, {
      token: admin,
      body: { kind: 'excel', filters: { buyer_name: '星河' } },
    });
    expect(made.json.code).toBe(0);
    const recordId = made.json.data.record_id;
    const jobs = await base.db.execute<{
      data: { recordId: number };
      retry_limit: number;
      expire_s: number;
    }>(sql`
      select data, retry_limit, extract(epoch from expire_in)::int as expire_s from pgboss.job
      where name = ${EXPORT_JOB}`);
    expect(jobs.rows).toEqual([{ data: { recordId }, retry_limit: 1, expire_s: 3600 }]);
    let status = '';
    for (let i = 0; i < 120 && status !== 'done' && status !== 'failed'; i++) {
      status = (
        await base.db.execute<{ status: string }>(
          sql`select status from export_records where id = ${recordId}`,
        )
      ).rows[0]!.status;
      if (status !== 'done') await new Promise((r) => setTimeout(r, 125));
    }
    expect(status).toBe('done');
  });
});
