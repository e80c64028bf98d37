import { createHash } from 'node:crypto';
import {
  BATCH_CODE,
  BATCH_KIND_LABELS,
  BATCH_SHEETS,
  type BatchDryRun,
  type BatchIssue,
  type BatchReport,
  beijingMonth,
  CODE,
  DEVICE_KINDS,
  type DeviceKind,
  dec,
  hasHiddenChars,
  hiddenCharMessage,
  INVOICE_CODE,
  INVOICE_TYPES,
  MSG,
} from '@kaipiao/shared';
import type { FastifyInstance } from 'fastify';
import { deviceStock, isDigitalType } from '../../channels/numbers.ts';
import { AppError } from '../../lib/app-error.ts';
import type { IssuingActor } from '../../lib/scope.ts';
import { assertDeviceUsable } from '../invoices/issue/eligibility.ts';
import { maxLines } from '../invoices/validate.ts';
import { buildBatch } from './build.ts';
import { INVOICE_COLUMNS, LINE_COLUMNS } from './columns.ts';
import { parseBatchFile } from './parse.ts';
import * as repo from './repo.ts';
import * as uploadRepo from './upload-repo.ts';

/** Problems listed in a report (the count covers them all). */
export const REPORT_CAP = 1000;

/** `B<batch>-<invoice of the file>[-<part>]`: deterministic, so a re-run reuses it (architecture.md §5). */
export function batchSerial(batchId: number, source: number, part: number | null): string {
  const base = `B${String(batchId).padStart(6, '0')}-${String(source).padStart(5, '0')}`;
  return part === null ? base : `${base}-${part}`;
}

function loadDevice(app: FastifyInstance, clientId: number, storeId: number, deviceId: number) {
  return uploadRepo.loadDevice(app.db, { clientId, storeId, deviceId, month: beijingMonth() });
}

/** The device rule's binding stage (invoices/issue/eligibility.ts): found, bound to the store, active. */
function usableDevice(d: uploadRepo.DeviceRow | null): uploadRepo.DeviceRow {
  assertDeviceUsable({
    device_id: d?.id ?? null,
    bound: d?.bound ?? false,
    device_status: d?.status ?? null,
    invoice_types: d?.invoice_types ?? null,
    online: d?.online ?? null,
    locked: d?.locked ?? null,
    per_invoice_limit: d?.per_invoice_limit ?? null,
    monthly_quota: d?.monthly_quota ?? null,
    quota_used: d?.quota_used ?? null,
    stock: 0,
  });
  return d!;
}

const SHEET_ORDER: Record<string, number> = { '': 0, [BATCH_SHEETS.invoices]: 1, [BATCH_SHEETS.lines]: 2 };
const COLUMN_ORDER = new Map<string, number>(
  [...INVOICE_COLUMNS, ...LINE_COLUMNS].map((c, i) => [c.header, i] as [string, number]),
);

function report(issues: BatchIssue[], invoices: number, lines: number): BatchReport {
  const sorted = [...issues].sort(
    (a, b) =>
      (SHEET_ORDER[a.sheet] ?? 9) - (SHEET_ORDER[b.sheet] ?? 9) ||
      a.row - b.row ||
      // Stryker disable next-line UnaryOperator: every issue names a column of the template, so the fallback is never used
      (COLUMN_ORDER.get(a.column) ?? -1) - (COLUMN_ORDER.get(b.column) ?? -1),
  );
  return {
    errors: sorted.slice(0, REPORT_CAP),
    error_count: issues.length,
    invoice_count: invoices,
    line_count: lines,
  };
}

const FATAL_CODE = {
  not_excel: BATCH_CODE.NOT_EXCEL,
  empty: BATCH_CODE.EMPTY,
  bad_header: BATCH_CODE.BAD_HEADER,
  too_many: BATCH_CODE.TOO_MANY,
  too_large: BATCH_CODE.FILE_TOO_LARGE,
} as const;

async function assertBookkeeping(app: FastifyInstance, clientId: number) {
  if (await repo.bookkeepingExpired(app.db, clientId)) throw new AppError(BATCH_CODE.BOOKKEEPING_EXPIRED);
}

/**
 * POST /v3/batch-invoice/upload: reads and validates the whole file; any problem refuses it with
 * the report (code 17003–17007, `data` = BatchReport) and nothing is stored or issued. A clean file
 * becomes a `ready` batch with one row per invoice to issue (after splitting); answers its dry run.
 */
export async function uploadBatch(
  app: FastifyInstance,
  actor: IssuingActor,
  opts: { deviceId: number; invoiceType: string; sendEmail: boolean },
  file: { filename: string; buffer: Buffer },
): Promise<BatchDryRun> {
  await assertBookkeeping(app, actor.clientId);
  const device = usableDevice(await loadDevice(app, actor.clientId, actor.storeId, opts.deviceId));
  if (!device.invoice_types.includes(opts.invoiceType))
    throw new AppError(INVOICE_CODE.DEVICE_TYPE_UNSUPPORTED);

  // the file name is stored and listed: the same rule as every request string
  if (hasHiddenChars(file.filename)) throw new AppError(CODE.VALIDATION, hiddenCharMessage('文件名'));
  const parsed = await parseBatchFile(file.filename, file.buffer);
  if (parsed.fatal) {
    throw new AppError(
      FATAL_CODE[parsed.fatal.code],
      parsed.fatal.issue.message,
      report([parsed.fatal.issue], parsed.invoices.length, parsed.lines.length),
    );
  }

  const codes = [
    // Stryker disable next-line StringLiteral: a missing code and the stand-in both fail the 19-digit test
    ...new Set(parsed.lines.map((l) => l.values.tax_class_code).filter((c) => /^\d{19}$/.test(c ?? ''))),
  ];
  const [classes, seller] = await Promise.all([
    codes.length
      ? uploadRepo.taxClasses(app.db, codes)
      : // Stryker disable next-line ArrayDeclaration: with no well-formed code a stray row matches no line's code
        Promise.resolve([]),
    uploadRepo.sellerOf(app.db, actor.clientId),
  ]);
  const built = buildBatch(parsed, {
    deviceInvoiceTypes: device.invoice_types,
    perInvoiceLimit: device.per_invoice_limit,
    defaultType: opts.invoiceType,
    seller: {
      // Stryker disable next-line OptionalChaining,LogicalOperator,StringLiteral: the session's business always has its row
      taxCode: seller?.tax_code ?? '',
      // Stryker disable next-line OptionalChaining: the session's business always has its row
      taxpayerType: seller?.taxpayer_type === 'small' ? 'small' : 'general',
    },
    taxClasses: new Map(classes.map((c) => [c.code, { shortName: c.short_name, isSummary: c.is_summary }])),
    sendEmail: opts.sendEmail,
    now: app.clock(),
  });
  const issues = [...parsed.issues, ...built.issues];
  if (issues.length > 0) {
    throw new AppError(
      BATCH_CODE.ROWS_INVALID,
      `文件有${issues.length}处错误，未开具任何发票，请按校验报告修改后重新上传`,
      report(issues, parsed.invoices.length, parsed.lines.length),
    );
  }

  let amount = dec(0);
  let tax = dec(0);
  let invoiceCount = 0;
  for (const inv of built.invoices) {
    for (const p of inv.parts) {
      amount = amount.plus(p.invoice_info.total_amount);
      tax = tax.plus(p.invoice_info.total_tax);
      invoiceCount++;
    }
  }
  const batchId = await app.db.transaction(async (tx) => {
    const id = await repo.insertBatch(tx, {
      clientId: actor.clientId,
      storeId: actor.storeId,
      deviceId: device.id,
      invoiceType: opts.invoiceType,
      fileName: file.filename.slice(0, 200),
      fileSha256: createHash('sha256').update(file.buffer).digest('hex'),
      sendEmail: opts.sendEmail,
      sourceCount: built.invoices.length,
      invoiceCount,
      lineCount: parsed.lines.length,
      splitSources: built.invoices.filter((i) => i.parts.length > 1).length,
      totalAmount: amount.toFixed(2),
      totalTax: tax.toFixed(2),
      totalWithTax: amount.plus(tax).toFixed(2),
      createdBy: actor.userId,
    });
    const rows: repo.NewBatchRow[] = [];
    built.invoices.forEach((inv, i) => {
      inv.parts.forEach((p, k) => {
        const serial = batchSerial(id, i + 1, inv.parts.length > 1 ? k + 1 : null);
        const request = { ...p, serial_no: serial, device_id: device.id };
        rows.push({
          seq: rows.length + 1,
          source_serial: inv.sourceSerial,
          source_row: inv.sourceRow,
          part_no: k + 1,
          part_count: inv.parts.length,
          serial_no: serial,
          invoice_type: p.invoice_type,
          buyer_name: p.buyer.name,
          line_count: p.goods_info.length,
          total_amount: p.invoice_info.total_amount,
          total_tax: p.invoice_info.total_tax,
          total_with_tax: p.invoice_info.total_price_with_tax,
          request,
        });
      });
    });
    await repo.insertRows(tx, id, actor.clientId, rows);
    return id;
  });
  return dryRun(app, actor.clientId, batchId);
}

/**
 * GET /v3/batch-invoice/dry-run: count, totals, the splits, and what issuing the rows still to
 * issue uses up of the device's monthly quota (数电) or blank stock (older kinds), read live.
 */
export async function dryRun(app: FastifyInstance, clientId: number, batchId: number): Promise<BatchDryRun> {
  const b = await repo.findBatch(app.db, clientId, batchId);
  if (!b) throw new AppError(BATCH_CODE.NOT_FOUND);
  const device = await loadDevice(app, clientId, b.store_id, b.device_id);
  // Stryker disable next-line ConditionalExpression: a batch's device is never deleted
  if (!device) throw new AppError(INVOICE_CODE.DEVICE_NOT_FOUND);

  const [types, splits, dup, expired] = await Promise.all([
    uploadRepo.typeCounts(app.db, batchId),
    uploadRepo.splitSources(app.db, batchId),
    uploadRepo.earlierUpload(app.db, { clientId, batchId, fileSha256: b.file_sha256 }),
    repo.bookkeepingExpired(app.db, clientId),
  ]);

  let quota: BatchDryRun['quota'];
  const openAmount = types.reduce((s, t) => s.plus(t.open_amount), dec(0));
  // Stryker disable next-line ConditionalExpression: only a 数电 account has a monthly quota, and it issues only 数电 kinds
  if (isDigitalType(b.invoice_type) || device.monthly_quota !== null) {
    const remaining =
      device.monthly_quota === null ? null : dec(device.monthly_quota).minus(device.quota_used);
    quota = {
      kind: 'quota',
      needed: openAmount.toFixed(2),
      remaining: remaining === null ? null : (remaining.isNegative() ? dec(0) : remaining).toFixed(2),
      enough: remaining === null || openAmount.lessThanOrEqualTo(remaining),
      stock: [],
    };
  } else {
    const stock = await deviceStock(app.db, b.device_id);
    const rows = types.map((t) => ({
      invoice_type: t.invoice_type,
      needed: Number(t.open_n),
      remaining: isDigitalType(t.invoice_type) ? Number.POSITIVE_INFINITY : (stock[t.invoice_type] ?? 0),
    }));
    quota = {
      kind: 'stock',
      needed: String(rows.reduce((s, r) => s + r.needed, 0)),
      remaining: null,
      enough: rows.every((r) => r.needed <= r.remaining),
      // Stryker disable next-line MethodExpression: a disc issues no 数电 kind, so no kind has unlimited stock here
      stock: rows.filter((r) => Number.isFinite(r.remaining)),
    };
  }

  const limit = dec(device.per_invoice_limit);
  return {
    batch_id: b.id,
    status: b.status,
    file_name: b.file_name,
    device: {
      device_id: device.id,
      name: device.name,
      kind_name: DEVICE_KINDS[device.kind as DeviceKind] ?? device.kind,
      per_invoice_limit: Number(device.per_invoice_limit).toFixed(2),
      online: device.online,
      locked: device.locked,
    },
    store_id: b.store_id,
    source_count: b.source_count,
    invoice_count: b.invoice_count,
    line_count: b.line_count,
    by_type: types.map((t) => ({
      invoice_type: t.invoice_type,
      name: BATCH_KIND_LABELS[t.invoice_type] ?? INVOICE_TYPES[t.invoice_type as keyof typeof INVOICE_TYPES],
      count: Number(t.n),
      line_limit: maxLines(t.invoice_type),
    })),
    total_amount: Number(b.total_amount).toFixed(2),
    total_tax: Number(b.total_tax).toFixed(2),
    total_with_tax: Number(b.total_with_tax).toFixed(2),
    splits: splits.map((s) => {
      const reasons: ('amount' | 'lines')[] = [];
      if (dec(s.amount).greaterThan(limit)) reasons.push('amount');
      if (s.lines > maxLines(s.invoice_type)) reasons.push('lines');
      return {
        source_serial: s.source_serial,
        source_row: Number(s.source_row),
        parts: s.parts,
        reasons,
        total_amount: Number(s.amount).toFixed(2),
      };
    }),
    split_sources: b.split_sources,
    quota,
    send_email: b.send_email,
    duplicate_of: dup
      ? {
          batch_id: dup.id,
          created_at: new Date(dup.created_at).toISOString(),
          status: dup.status,
        }
      : null,
    bookkeeping_active: !expired,
    notice: expired ? MSG.GRAY_BOOKKEEPING : null,
  };
}

/** The notice a batch shows: the bookkeeping one while that service is expired (spec §1). */
export function noticeOf(b: { pause_reason: string; bookkeeping_expired: boolean }): string | null {
  return b.pause_reason === 'bookkeeping' || b.bookkeeping_expired ? MSG.GRAY_BOOKKEEPING : null;
}

export async function batchProgress(app: FastifyInstance, clientId: number, batchId: number) {
  const b = await repo.progressRow(app.db, clientId, batchId);
  if (!b) throw new AppError(BATCH_CODE.NOT_FOUND);
  return repo.toProgress(b, await repo.rowCounts(app.db, batchId), noticeOf(b));
}

/** The device must be able to issue now, and cover the rows left (quota or stock). */
async function assertCanIssue(app: FastifyInstance, clientId: number, batchId: number) {
  const dr = await dryRun(app, clientId, batchId);
  if (!dr.device.online) throw new AppError(INVOICE_CODE.DEVICE_OFFLINE);
  if (dr.device.locked) throw new AppError(INVOICE_CODE.DEVICE_LOCKED);
  if (!dr.quota.enough) {
    const detail =
      dr.quota.kind === 'quota'
        ? `（本批需 ${dr.quota.needed} 元，本月剩余 ${dr.quota.remaining} 元）`
        : `（${dr.quota.stock
            .filter((s) => s.needed > s.remaining)
            .map(
              (s) =>
                `${BATCH_KIND_LABELS[s.invoice_type] ?? s.invoice_type}需 ${s.needed} 张，剩余 ${s.remaining} 张`,
            )
            .join('；')}）`;
    throw new AppError(BATCH_CODE.QUOTA_INSUFFICIENT, `${MSG_QUOTA}${detail}`);
  }
}
const MSG_QUOTA = '剩余发票额度或库存不足以开具本批发票';

/** The state changes; `kick` hands a running batch to the runner. */
export async function startBatch(
  app: FastifyInstance,
  clientId: number,
  batchId: number,
  kick: (id: number) => void,
) {
  const b = await repo.findBatch(app.db, clientId, batchId);
  if (!b) throw new AppError(BATCH_CODE.NOT_FOUND);
  if (b.status !== 'ready') throw new AppError(BATCH_CODE.BAD_STATE);
  await assertBookkeeping(app, clientId);
  await assertCanIssue(app, clientId, batchId);
  const ok = await repo.setStatus(app.db, {
    id: batchId,
    clientId,
    from: ['ready'],
    to: 'start',
  });
  if (!ok) throw new AppError(BATCH_CODE.BAD_STATE);
  kick(batchId);
  return batchProgress(app, clientId, batchId);
}

export async function pauseBatch(app: FastifyInstance, clientId: number, batchId: number) {
  const b = await repo.findBatch(app.db, clientId, batchId);
  if (!b) throw new AppError(BATCH_CODE.NOT_FOUND);
  const ok = await repo.setStatus(app.db, {
    id: batchId,
    clientId,
    from: ['running'],
    to: 'pause',
  });
  if (!ok) throw new AppError(BATCH_CODE.BAD_STATE);
  return batchProgress(app, clientId, batchId);
}

export async function resumeBatch(
  app: FastifyInstance,
  clientId: number,
  batchId: number,
  kick: (id: number) => void,
) {
  const b = await repo.findBatch(app.db, clientId, batchId);
  if (!b) throw new AppError(BATCH_CODE.NOT_FOUND);
  if (b.status !== 'paused') throw new AppError(BATCH_CODE.BAD_STATE);
  await assertBookkeeping(app, clientId);
  const ok = await repo.setStatus(app.db, {
    id: batchId,
    clientId,
    from: ['paused'],
    to: 'resume',
  });
  if (!ok) throw new AppError(BATCH_CODE.BAD_STATE);
  kick(batchId);
  return batchProgress(app, clientId, batchId);
}

/** Cancels: rows not yet issued are skipped; rows already with the channel finish on their own. */
export async function cancelBatch(app: FastifyInstance, clientId: number, batchId: number) {
  const b = await repo.findBatch(app.db, clientId, batchId);
  if (!b) throw new AppError(BATCH_CODE.NOT_FOUND);
  const done = await app.db.transaction(async (tx) => {
    const ok = await repo.setStatus(tx, {
      id: batchId,
      clientId,
      from: ['ready', 'running', 'paused'],
      to: 'cancel',
    });
    if (!ok) return false;
    await repo.skipPendingRows(tx, batchId);
    return true;
  });
  if (!done) throw new AppError(BATCH_CODE.BAD_STATE);
  return batchProgress(app, clientId, batchId);
}

/** Puts the failed rows back in the queue (same serials) and runs the batch again. */
export async function retryFailed(
  app: FastifyInstance,
  clientId: number,
  batchId: number,
  kick: (id: number) => void,
) {
  const b = await repo.findBatch(app.db, clientId, batchId);
  if (!b) throw new AppError(BATCH_CODE.NOT_FOUND);
  if (!['done', 'paused', 'running'].includes(b.status)) throw new AppError(BATCH_CODE.BAD_STATE);
  await assertBookkeeping(app, clientId);
  const requeued = await app.db.transaction(async (tx) => {
    const n = await repo.requeueFailedRows(tx, batchId);
    if (n === 0) return 0;
    const moved = await repo.setStatus(tx, {
      id: batchId,
      clientId,
      from: ['done', 'paused', 'running'],
      to: 'retry',
    });
    // cancelled (or otherwise moved) since it was read: the rows go back to failed with the refusal
    if (!moved) throw new AppError(BATCH_CODE.BAD_STATE);
    return n;
  });
  if (requeued === 0) throw new AppError(BATCH_CODE.NOTHING_TO_RETRY);
  kick(batchId);
  return batchProgress(app, clientId, batchId);
}
