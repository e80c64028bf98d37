import { DEVICE_CODE } from '@kaipiao/shared';
import type { FastifyInstance } from 'fastify';
import { addNumberRange } from '../../channels/numbers.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Scope } from '../../lib/scope.ts';
import { iso, loadDevice } from './common.ts';
import * as repo from './repo.ts';

/**
 * Invoice stock of tax-control discs (spec §7 领票 / 分发 / 退回): the movements, a grant from the
 * sandbox bureau onto a main disc, and numbers moved between a main disc and its branches.
 */

type App = FastifyInstance;

export async function listMovements(app: App, scope: Scope, deviceId?: number) {
  const rows = await repo.selectMovements(app.db, scope.clientId, deviceId);
  return rows.map((m) => ({
    ...m,
    id: Number(m.id),
    target_device_name: m.target_device_name ?? '',
    created_at: iso(m.created_at)!,
  }));
}

/** 领票: the sandbox bureau grants a new range onto a main disc. */
export async function applyStock(
  app: App,
  scope: Scope,
  body: { device_id: number; invoice_type: string; count: number },
) {
  if (body.count < 1 || body.count > 1000) throw new AppError(DEVICE_CODE.APPLY_LIMIT);
  return app.db.transaction(async (tx) => {
    const d = await loadDevice(tx, scope, body.device_id, true);
    if (d.kind === 'digital') throw new AppError(DEVICE_CODE.NOT_STOCK_DEVICE);
    if (d.status !== 'active') throw new AppError(DEVICE_CODE.DEVICE_DISABLED);
    if (!d.is_main) throw new AppError(DEVICE_CODE.NOT_MAIN_DISC);
    if (!d.invoice_types.includes(body.invoice_type)) throw new AppError(DEVICE_CODE.TYPE_NOT_SUPPORTED);
    await repo.lockStockGrant(tx, body.invoice_type);
    const r = await addNumberRange(tx, {
      deviceId: d.device_id,
      invoiceType: body.invoice_type,
      count: body.count,
    });
    await repo.insertMovement(tx, scope.clientId, {
      kind: 'apply',
      deviceId: d.device_id,
      targetDeviceId: null,
      invoiceType: body.invoice_type,
      count: body.count,
      invoiceCode: r.invoiceCode,
      startNo: r.startNo,
      endNo: r.endNo,
      userId: scope.userId,
    });
    return r;
  });
}

/**
 * 分发 (main → branch) and 退回 (branch → main). The source device's ranges of the kind are locked
 * (`for update`) and the count is checked against what they hold under that lock, so concurrent moves
 * and issuing can never take more than there is. Numbers move from the tails of the newest ranges: a
 * whole untouched range changes device, otherwise its tail is cut off into a new range.
 */
export async function moveStock(
  app: App,
  scope: Scope,
  kind: 'distribute' | 'return',
  body: { device_id: number; target_device_id: number; invoice_type: string; count: number },
) {
  return app.db.transaction(async (tx) => {
    const src = await loadDevice(tx, scope, body.device_id);
    const dst = await loadDevice(tx, scope, body.target_device_id);
    if (src.kind === 'digital' || dst.kind === 'digital') throw new AppError(DEVICE_CODE.NOT_STOCK_DEVICE);
    const main = kind === 'distribute' ? src : dst;
    const branch = kind === 'distribute' ? dst : src;
    if (!main.is_main) throw new AppError(DEVICE_CODE.NOT_MAIN_DISC);
    if (branch.parent_id !== main.device_id) throw new AppError(DEVICE_CODE.NOT_BRANCH_OF);
    if (!src.invoice_types.includes(body.invoice_type) || !dst.invoice_types.includes(body.invoice_type)) {
      throw new AppError(DEVICE_CODE.TYPE_NOT_SUPPORTED);
    }
    const ranges = await repo.lockOpenRanges(tx, src.device_id, body.invoice_type);
    const total = ranges.reduce((s, r) => s + (r.end_no - r.next_no + 1), 0);
    if (total < body.count) throw new AppError(DEVICE_CODE.STOCK_NOT_ENOUGH);
    let need = body.count;
    const moved: Array<{ code: string; start: number; end: number }> = [];
    for (const r of ranges) {
      if (need === 0) break;
      const left = r.end_no - r.next_no + 1;
      const take = Math.min(left, need);
      if (take === left && r.next_no === r.start_no) {
        await repo.moveRange(tx, r.id, dst.device_id);
      } else {
        await repo.cutRangeTail(tx, scope.clientId, r, take, dst.device_id, body.invoice_type);
      }
      moved.push({ code: r.invoice_code, start: r.end_no - take + 1, end: r.end_no });
      need -= take;
    }
    for (const m of moved) {
      await repo.insertMovement(tx, scope.clientId, {
        kind,
        deviceId: src.device_id,
        targetDeviceId: dst.device_id,
        invoiceType: body.invoice_type,
        count: m.end - m.start + 1,
        invoiceCode: m.code,
        startNo: m.start,
        endNo: m.end,
        userId: scope.userId,
      });
    }
    return { moved: body.count };
  });
}
