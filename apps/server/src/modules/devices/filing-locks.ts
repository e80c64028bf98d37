import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { FILING_KINDS, filingClock, filingFlags, isLiable } from './filing.ts';
import { filingLockCandidates, lockDevices } from './filing-locks-repo.ts';

/** Every ten minutes a worker locks the devices whose 锁死期 has come (and once when it starts). */
export const FILING_LOCK_JOB = 'devices.filing-locks';

/**
 * 已到锁死期 (domain.md §7.1): after the 15th, a tax-control device that existed during the previous
 * month and has not cleared it gets `tax_devices.locked`, which issuing refuses (DEVICE_LOCKED) until
 * 清卡 lifts it. Run by the sweep job and, so that no cron precision is needed, wherever the devices
 * module reads device state. Idempotent; `clientId` limits it to one business. Returns how many it locked.
 */
export async function applyFilingLocks(
  db: Db,
  now = new Date(),
  clientId?: number,
  /** the businesses whose devices it locked, when it locked any (to forget their cached answers) */
  onLocked: (clientIds: number[]) => Promise<void> = async () => {},
): Promise<number> {
  const clock = filingClock(now);
  if (clock.inWindow) return 0;
  const candidates = await filingLockCandidates(db, clock.period, FILING_KINDS, clientId);
  const due = candidates
    .filter(
      (r) =>
        filingFlags(
          clock,
          {
            copiedAt: r.copied_at ? new Date(r.copied_at) : null,
            clearedAt: r.cleared_at ? new Date(r.cleared_at) : null,
          },
          isLiable(new Date(r.created_at), clock),
        ).lockDue,
    )
    .map((r) => r.id);
  if (due.length === 0) return 0;
  // a 清卡 committed since the select must not be undone
  const locked = await lockDevices(db, due, clock.period);
  if (locked.length > 0) await onLocked([...new Set(locked)]);
  return locked.length;
}

/** applyFilingLocks for the app: a device locked is forgotten from the read caches of every process. */
export const applyAppFilingLocks = (app: FastifyInstance, now = new Date(), clientId?: number) =>
  applyFilingLocks(app.db, now, clientId, (clients) => app.invalidate({ clients }));

/** Registers the sweep: a pg-boss cron in worker processes (no precision needed: reads apply it too). */
export function defineFilingLockJob(app: FastifyInstance): void {
  app.jobs.define(FILING_LOCK_JOB, async () => {
    const n = await applyAppFilingLocks(app);
    if (n > 0) app.log.info({ locked: n }, 'devices locked: filing period over without 清卡');
  });
  if (!app.jobs.worker) return;
  app.addHook('onReady', async () => {
    app.jobs
      .started()
      .then(() => app.boss.schedule(FILING_LOCK_JOB, '*/10 * * * *'))
      .then(() => app.boss.send(FILING_LOCK_JOB, {}))
      .catch((err: unknown) => app.log.error({ err }, 'filing lock schedule failed'));
  });
}
