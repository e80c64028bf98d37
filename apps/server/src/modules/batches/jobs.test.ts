import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fillTemplate, invoiceRow, lineRow } from '../../../test/fixtures/batches.ts';
import { invoicingFixture } from '../../../test/fixtures/invoices.ts';
import { buildTestApp, call } from '../../../test/helper.ts';
import { download, upload } from '../../../test/xlsx-helpers.ts';
import { BATCH_JOB } from './index.ts';

describe('batch issuing across processes (KAIPIAO_ROLE web + worker, pg-boss)', () => {
  it('a web process hands the started batch to a worker through the pg-boss queue', async () => {
    const web = await buildTestApp({ env: { KAIPIAO_ROLE: 'web', KAIPIAO_JOBS: 'on' } });
    const worker = await buildTestApp({ reuse: web, env: { KAIPIAO_ROLE: 'worker', KAIPIAO_JOBS: 'on' } });
    expect(web.app.batchRunner).toBeNull();
    await web.app.jobs.started();
    await worker.app.jobs.started();
    const f = await invoicingFixture(web.app, web.db);
    const scope = f.scope(f.ids.software, f.ids.hq);
    const template = (await download(web.app, `/v3/batch-invoice/template?${scope}`, f.admin)).body;
    const file = await fillTemplate(
      template,
      [invoiceRow('J1'), invoiceRow('J2')],
      [lineRow('J1'), lineRow('J2')],
    );
    const up = await upload(
      web.app,
      `/v3/batch-invoice/upload?${scope}&device_id=${f.ids.digital}&invoice_type=82`,
      f.admin,
      { filename: 'jobs.xlsx', content: file },
    );
    expect(up.json.code).toBe(0);
    const id = up.json.data.batch_id;
    await call(web.app, 'POST', `/v3/batch-invoice/start?${scope}`, {
      token: f.admin,
      body: { batch_id: id },
    });

    let progress: { status: string; issued: number } | null = null;
    for (let i = 0; i < 100; i++) {
      progress = (
        await call(web.app, 'GET', `/v3/batch-invoice/progress?${scope}&batch_id=${id}`, { token: f.admin })
      ).json.data;
      if (progress?.status === 'done') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(progress).toMatchObject({ status: 'done', issued: 2 });
    const jobs = await web.db.execute<{ state: string; data: { batchId: number } }>(
      sql`select state, data from pgboss.job where name = ${BATCH_JOB}`,
    );
    expect(jobs.rows.map((j) => j.data.batchId)).toContain(id);
  }, 60_000);
});
