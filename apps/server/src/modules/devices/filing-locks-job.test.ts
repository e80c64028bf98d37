import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helper.ts';
import { FILING_LOCK_JOB } from './filing-locks.ts';

describe('filing lock sweep (pg-boss)', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;

  beforeAll(async () => {
    t = await buildTestApp({ env: { KAIPIAO_JOBS: 'on', KAIPIAO_ROLE: 'all' } });
    await t.app.jobs.started();
  });

  it('is scheduled every ten minutes in a worker, and a run completes', async () => {
    let cron: string | undefined;
    for (let i = 0; i < 40 && !cron; i++) {
      cron = (await t.app.boss.getSchedules()).find((s) => s.name === FILING_LOCK_JOB)?.cron;
      if (!cron) await new Promise((r) => setTimeout(r, 125));
    }
    expect(cron).toBe('*/10 * * * *');
    const id = await t.app.boss.send(FILING_LOCK_JOB, {});
    let state: string | undefined;
    for (let i = 0; i < 40 && state !== 'completed'; i++) {
      await new Promise((r) => setTimeout(r, 250));
      state = (await t.app.boss.getJobById(FILING_LOCK_JOB, id!))?.state;
    }
    expect(state).toBe('completed');
  });
});
