import { DEVICE_CODE } from '@kaipiao/shared';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import type { Scope } from '../../lib/scope.ts';
import { iso, listDevices, loadDevice } from './common.ts';
import { filesMonthly, filingClock, filingFlags, filingRefusal, isLiable } from './filing.ts';
import * as repo from './repo.ts';

/**
 * Monthly filing of tax-control discs (spec §7 抄税 / 清卡): the rules are filing.ts's (the window,
 * liability, refusals), this file reads and records them.
 */

type App = FastifyInstance;

/** a device without a filing row for the period has neither copied nor cleared it */
const filingState = (f: repo.FilingRow) => ({
  copiedAt: f.copied_at ? new Date(f.copied_at) : null,
  clearedAt: f.cleared_at ? new Date(f.cleared_at) : null,
});

export async function listFilings(app: App, scope: Scope, deviceId?: number) {
  const clock = filingClock(new Date());
  const devices = (await listDevices(app, scope)).filter(
    (d) =>
      filesMonthly(d.kind) && d.status === 'active' && (deviceId === undefined || d.device_id === deviceId),
  );
  if (devices.length === 0) return [];
  const ids = devices.map((d) => d.device_id);
  const filings = await repo.selectFilings(app.db, scope.clientId, ids, clock.period);
  const totals = await repo.selectPeriodTotals(app.db, scope.clientId, ids, clock.from, clock.to);
  return devices.map((d) => {
    const f = filings.find((x) => x.device_id === d.device_id)!;
    const t = totals.find((x) => x.device_id === d.device_id);
    const flags = filingFlags(clock, filingState(f), isLiable(new Date(f.created_at), clock));
    return {
      device_id: d.device_id,
      device_name: d.name,
      kind: d.kind_name,
      period: clock.period,
      in_window: clock.inWindow,
      window_end: clock.windowEnd,
      copied_at: iso(f.copied_at),
      cleared_at: iso(f.cleared_at),
      copy_due: flags.copyDue,
      lock_due: flags.lockDue,
      locked: d.locked,
      invoice_count: t?.n ?? 0,
      total_amount: t?.amount ?? '0.00',
      total_tax: t?.tax ?? '0.00',
      upload_no: f.upload_no ?? '',
    };
  });
}

const REFUSALS = {
  out_of_window: DEVICE_CODE.FILING_OUT_OF_WINDOW,
  already_copied: DEVICE_CODE.FILING_ALREADY_COPIED,
  not_copied: DEVICE_CODE.FILING_NOT_COPIED,
  already_cleared: DEVICE_CODE.FILING_ALREADY_CLEARED,
} as const;

/**
 * 抄税 (summary upload to the sandbox bureau) or 清卡, which also lifts the filing lock. After the 15th
 * only a device whose lock is due may file (逾期抄报 of the overdue period).
 */
export async function fileDevice(
  app: App,
  scope: Scope,
  action: 'copy' | 'clear',
  deviceId: number,
  now = new Date(),
) {
  const clock = filingClock(now);
  return app.db.transaction(async (tx) => {
    const d = await loadDevice(tx, scope, deviceId, true);
    if (!filesMonthly(d.kind)) throw new AppError(DEVICE_CODE.FILING_NOT_APPLICABLE);
    const f = await repo.lockFiling(tx, deviceId, clock.period);
    const refusal = filingRefusal(action, clock, filingState(f), isLiable(new Date(f.created_at), clock));
    if (refusal) throw new AppError(REFUSALS[refusal]);
    if (action === 'copy') {
      await repo.recordCopy(tx, {
        clientId: scope.clientId,
        deviceId,
        period: clock.period,
        from: clock.from,
        to: clock.to,
        uploadNo: `SB${clock.period.replace('-', '')}${String(deviceId).padStart(6, '0')}`,
        userId: scope.userId,
      });
    } else {
      await repo.recordClear(tx, deviceId, clock.period);
    }
  });
}
