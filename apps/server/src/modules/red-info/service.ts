import {
  allowedRedReasons,
  beijingMonth,
  dec,
  fixed,
  RED_CODE,
  RED_CONFIRM_HOURS,
  type RedApplyRequest,
  type RedForm,
  redApplyRequestSchema,
  redFormKindOf,
  TERMS,
} from '@kaipiao/shared';
import type { FastifyInstance } from 'fastify';
import { type DbOrTx, isDigitalType } from '../../channels/numbers.ts';
import { redFormNo } from '../../channels/red-bureau.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StoresActor } from '../../lib/scope.ts';
import { runInvoiceIssuedHooks } from '../invoices/hooks.ts';
import { transition } from '../invoices/issue/transitions.ts';
import { callChannel } from '../invoices/service.ts';
import { assertRedable, buyerUsed } from './blue-info.ts';
import { buildRedLines, totalsOf } from './lines.ts';
import {
  deviceAreaCode,
  formClientId,
  insertRedInvoice,
  linkRedInvoice,
  lockBlueForSettle,
  recordReddened,
  redInvoiceOf,
  redInvoiceStatus,
  setRedStatus,
} from './red-invoice-repo.ts';
import {
  blueLines,
  expirePending,
  type FormRow,
  findBlue,
  getFormView,
  insertForm,
  lockForm,
  moveForm,
  pendingFormOf,
  type RedScope,
  redInvoiceSums,
  takenByLine,
} from './repo.ts';

/** Who acts on red forms: the business, the stores reached, the user (null for the sandbox bureau's pushes). */
export type RedActor = StoresActor;

async function mustView(app: FastifyInstance, scope: RedScope, formId: number): Promise<RedForm> {
  const v = await getFormView(app.db, scope, formId);
  // Stryker disable next-line ConditionalExpression: every caller found or locked the form in the same scope just before
  if (!v) throw new AppError(RED_CODE.FORM_NOT_FOUND);
  return v;
}

/**
 * Raises a red form (domain.md §3.3) in one transaction that locks the blue invoice: a pending
 * 确认单 locks it against a second form; the red lines are checked against what each line and the
 * whole invoice have left (other forms that still reserve, earlier reds), so two concurrent
 * requests cannot overdraw it. 数电: the seller's form needs no confirmation (01) unless the buyer
 * has used the invoice (02, 72 hours); a buyer's form (inbound, sandbox) waits for us (03).
 * Older 专票: a 信息表 the bureau approves with its number; older 普票: no form (direct).
 * A form that is confirmed at once is issued at once (确认即开票). The bureau is asked about the
 * buyer's use before the transaction, so no lock is held over a call to it.
 */
export async function applyRed(
  app: FastifyInstance,
  actor: RedActor,
  input: RedApplyRequest,
  initiator: 'seller' | 'buyer' = 'seller',
): Promise<RedForm> {
  const req = redApplyRequestSchema.parse(input);
  await expirePending(app.db, actor.clientId);
  const seen = initiator === 'seller' ? await findBlue(app.db, actor, req.invoice_id) : null;
  // the transaction below checks the invoice again, under its lock
  const used =
    seen?.direction === 'blue' && seen.status === 'issued' && redFormKindOf(seen.invoice_type) === 'confirm'
      ? await buyerUsed(app, seen)
      : false;
  const formId = await app.db.transaction(async (tx) => {
    const b = await findBlue(tx, actor, req.invoice_id, true);
    assertRedable(b);
    const blueId = Number(b.id);
    if ((await pendingFormOf(tx, actor.clientId, blueId)) !== null) {
      throw new AppError(RED_CODE.PENDING_FORM_EXISTS);
    }
    const [lines, taken] = await Promise.all([
      blueLines(tx, actor.clientId, blueId),
      takenByLine(tx, actor.clientId, blueId),
    ]);
    const reasons = allowedRedReasons(lines.map((l) => l.tax_class_code));
    if (!reasons.includes(req.reason)) {
      throw new AppError(req.reason === '03' ? RED_CODE.REASON_GOODS_ONLY : RED_CODE.REASON_SERVICE_ONLY);
    }
    const redLines = buildRedLines(lines, taken, {
      reason: req.reason,
      full: req.full,
      lines: req.lines,
      untouched: taken.size === 0,
    });
    const totals = totalsOf(redLines);
    // whole-invoice guard: what the lines have left may exceed what the invoice has left when
    // earlier reds were rounded per invoice
    let leftWithTax = dec(b.total_with_tax);
    for (const t of taken.values()) leftWithTax = leftWithTax.minus(t.withTax);
    if (dec(totals.withTax).neg().greaterThan(leftWithTax)) {
      throw new AppError(
        RED_CODE.OVER_REMAINING,
        `${TERMS.redLetter}${TERMS.amount}超过${TERMS.blueInvoice}的可${TERMS.redLetter}余额（剩余${TERMS.totalWithTax} ${fixed(leftWithTax)} 元）`,
      );
    }
    const kind = redFormKindOf(b.invoice_type);
    let state: string;
    if (kind !== 'confirm') state = 'approved';
    else if (initiator === 'buyer') state = '03';
    else state = used ? '02' : '01';
    const area = await deviceAreaCode(tx, b.device_id);
    return insertForm(tx, {
      clientId: actor.clientId,
      storeId: b.store_id,
      deviceId: b.device_id,
      blueInvoiceId: blueId,
      kind,
      initiator,
      reason: req.reason,
      full: req.full,
      state,
      totals,
      lines: redLines,
      remark: req.remark,
      expiresInHours: state === '02' || state === '03' ? RED_CONFIRM_HOURS : null,
      // Stryker disable next-line ConditionalExpression: a buyer's form comes from the bureau with no user (userId null): both give null
      createdBy: initiator === 'seller' ? actor.userId : null,
      formNo: (id) =>
        // Stryker disable next-line OptionalChaining,StringLiteral: the device row exists (foreign key) and its area_code is NOT NULL
        redFormNo({ kind, formId: id, areaCode: area?.area_code ?? '33', at: new Date() }),
    });
  });
  const view = await mustView(app, actor, formId);
  // 数电 (01: no confirmation needed) and 普票 reversals without a form are issued at once
  if (view.state === '01' || view.kind === 'direct') return issueRedForm(app, actor, formId);
  return view;
}

/** Why a form in `state` cannot take an action: expired forms say so. */
function stateError(state: string): AppError {
  return new AppError(state === '07' ? RED_CODE.EXPIRED : RED_CODE.BAD_STATE);
}

/** The seller confirms (04, then issues) or rejects (06) a form the buyer raised (03). */
export async function decideInbound(
  app: FastifyInstance,
  actor: RedActor,
  formId: number,
  decision: 'confirm' | 'reject',
): Promise<RedForm> {
  await expirePending(app.db, actor.clientId);
  await app.db.transaction(async (tx) => {
    const f = await lockForm(tx, actor, formId);
    if (!f) throw new AppError(RED_CODE.FORM_NOT_FOUND);
    if (f.state !== '03') throw stateError(f.state);
    await moveForm(tx, formId, ['03'], decision === 'confirm' ? '04' : '06');
  });
  if (decision === 'confirm') return issueRedForm(app, actor, formId);
  return mustView(app, actor, formId);
}

/**
 * The initiator withdraws a pending form (08); a confirmed form whose red invoice is not issued
 * is revoked after confirmation (09); a 信息表 / direct reversal not yet issued is revoked.
 */
export async function revokeForm(app: FastifyInstance, actor: RedActor, formId: number): Promise<RedForm> {
  await expirePending(app.db, actor.clientId);
  await app.db.transaction(async (tx) => {
    const f = await lockForm(tx, actor, formId);
    if (!f) throw new AppError(RED_CODE.FORM_NOT_FOUND);
    if (f.state === '03') throw new AppError(RED_CODE.NOT_INITIATOR);
    if (f.state === '02') {
      await moveForm(tx, formId, ['02'], '08');
      return;
    }
    if (!['01', '04', 'approved'].includes(f.state)) throw stateError(f.state);
    if (!(await redOpen(tx, f))) throw new AppError(RED_CODE.ALREADY_ISSUED);
    await moveForm(tx, formId, [f.state], f.state === 'approved' ? 'revoked' : '09');
  });
  return mustView(app, actor, formId);
}

/** The form has no red invoice, or only a failed one (which may be retried or abandoned). */
async function redOpen(tx: DbOrTx, f: FormRow): Promise<boolean> {
  if (f.red_invoice_id === null) return true;
  const r = await redInvoiceStatus(tx, f.red_invoice_id);
  // Stryker disable next-line OptionalChaining: red_invoice_id references an existing invoice (foreign key)
  return r?.status === 'failed';
}

/** 被红冲蓝字发票 reference printed in the red invoice's remark (domain.md §3.2, §3.3). */
function redRemark(kind: string, formNo: string, blue: { invoice_code: string; invoice_no: string | null }) {
  if (kind === 'confirm')
    // Stryker disable next-line StringLiteral: the blue invoice is issued, so it has a number
    return `被红冲蓝字数电发票号码：${blue.invoice_no ?? ''} 红字发票信息确认单编号：${formNo}`;
  if (kind === 'info_sheet') return `开具红字增值税专用发票信息表编号${formNo}`;
  // Stryker disable next-line StringLiteral: the blue invoice is issued, so it has a number
  return `对应正数发票代码:${blue.invoice_code}号码:${blue.invoice_no ?? ''}`;
}

/**
 * Issues the red invoice of a confirmed / approved form through the issuing path (the invoices
 * module's channel call; serial `RF<form id>`, so a form has at most one red invoice). The insert
 * locks the blue invoice and re-checks that issued and in-flight reds plus this one stay within it.
 * When issued, the blue invoice becomes partially or fully reddened (`settleBlue`).
 */
export async function issueRedForm(app: FastifyInstance, actor: RedActor, formId: number): Promise<RedForm> {
  const prepared = await app.db.transaction(async (tx) => {
    const f = await lockForm(tx, actor, formId);
    if (!f) throw new AppError(RED_CODE.FORM_NOT_FOUND);
    if (!['01', '04', 'approved'].includes(f.state)) throw stateError(f.state);
    const b = await findBlue(
      tx,
      { clientId: actor.clientId, storeIds: null },
      Number(f.blue_invoice_id),
      // Stryker disable next-line BooleanLiteral: each form reserved its amount at apply under this lock, and 作废 refuses a reserved invoice: this lock only orders the re-check
      true,
    );
    // Stryker disable next-line ConditionalExpression,OptionalChaining: a form's blue invoice exists (foreign key) and is blue (applyRed takes only blue ones)
    if (b?.direction !== 'blue' || b.status !== 'issued') throw new AppError(RED_CODE.BLUE_NOT_ISSUED);
    const sums = await redInvoiceSums(tx, actor.clientId, Number(b.id));
    if (f.red_invoice_id !== null) {
      const r = await redInvoiceOf(tx, f.red_invoice_id);
      // Stryker disable next-line OptionalChaining: red_invoice_id references an existing invoice (foreign key)
      if (r?.status !== 'failed') throw new AppError(RED_CODE.ALREADY_ISSUED);
      // retry: the failed red no longer counts; check the rest plus this one again
      if (sums.consuming.plus(f.total_with_tax).neg().greaterThan(b.total_with_tax)) {
        throw new AppError(RED_CODE.OVER_REMAINING);
      }
      const claimed = await transition(tx, {
        id: Number(f.red_invoice_id),
        from: ['failed'],
        to: 'issuing',
        error: null,
        event: 'issuing',
        userId: actor.userId,
        detail: { retry: true, red_form_id: formId },
      });
      // Stryker disable next-line ConditionalExpression: the form row is locked above, so no other request moves its red invoice in between
      if (!claimed) throw new AppError(RED_CODE.ALREADY_ISSUED);
      return { f, b, redId: Number(f.red_invoice_id), serialNo: r!.serial_no };
    }
    if (sums.consuming.plus(f.total_with_tax).neg().greaterThan(b.total_with_tax)) {
      throw new AppError(RED_CODE.OVER_REMAINING);
    }
    const serialNo = `RF${formId}`;
    const redId = await insertRedInvoice(tx, {
      form: f,
      blueId: Number(b.id),
      serialNo,
      remark: redRemark(f.kind, f.form_no, b),
      userId: actor.userId,
    });
    await linkRedInvoice(tx, formId, redId);
    return { f, b, redId, serialNo };
  });

  const { f, b, redId, serialNo } = prepared;
  // quota (domain.md §3.3): a same-month 数电 red restores it, except 销售折让; otherwise no effect.
  // `month` is YYYY-MM (Beijing): November of last year is not this November.
  // The blue invoice is issued (checked above), so it has its issue time.
  const sameMonth = beijingMonth(b.issued_at!) === beijingMonth(app.clock());
  const quotaAmount =
    isDigitalType(b.invoice_type) && sameMonth && f.reason !== '04' ? fixed(f.total_amount) : '0.00';
  const outcome = await callChannel(app, {
    id: redId,
    clientId: actor.clientId,
    userId: actor.userId,
    deviceId: b.device_id,
    serialNo,
    invoiceType: b.invoice_type,
    totalAmount: quotaAmount,
    totalWithTax: fixed(f.total_with_tax),
  });
  if (outcome?.status === 'issued') {
    await settleBlue(app, Number(b.id), actor.userId);
    runInvoiceIssuedHooks(app, redId, { clientId: actor.clientId, sendEmail: false });
  }
  return mustView(app, actor, formId);
}

/**
 * Recomputes the blue invoice's red status from its issued red invoices (partial / full) and
 * records a `reddened` event per issued red invoice, once. Idempotent: the direct issue and the
 * issued hook (reconciled reds) may both call it.
 */
export async function settleBlue(app: FastifyInstance, blueId: number, userId: number | null): Promise<void> {
  await settleBlueInDb(app.db, blueId, userId);
}

/** `settleBlue` on a database handle (the demo seed uses it too). */
export async function settleBlueInDb(db: Db, blueId: number, userId: number | null): Promise<void> {
  await db.transaction(async (tx) => {
    const b = await lockBlueForSettle(tx, blueId);
    // Stryker disable next-line ConditionalExpression: called only with the blue invoice of an issued red
    if (!b) return;
    const sums = await redInvoiceSums(tx, b.client_id, blueId);
    const reddened = sums.issued.neg();
    const status = reddened.greaterThanOrEqualTo(b.total_with_tax)
      ? 'full'
      : reddened.greaterThan(0)
        ? 'partial'
        : // Stryker disable next-line StringLiteral: settling runs after a red was issued, so the blue is never unreddened here
          'none';
    await setRedStatus(tx, blueId, status);
    await recordReddened(tx, blueId, userId, status);
  });
}

/** Counterparty actions the sandbox bureau pushes (dev routes): the buyer decides our 02 forms. */
export async function counterpartyAction(
  app: FastifyInstance,
  formId: number,
  action: 'confirm' | 'reject' | 'revoke' | 'abnormal',
): Promise<RedForm> {
  const clientId = await formClientId(app.db, formId);
  if (clientId === undefined) throw new AppError(RED_CODE.FORM_NOT_FOUND);
  const scope: RedActor = { clientId, storeIds: null, userId: null };
  await expirePending(app.db, clientId);
  await app.db.transaction(async (tx) => {
    const f = await lockForm(tx, scope, formId);
    // Stryker disable next-line ConditionalExpression: the form was read just above and forms are never deleted
    if (!f) throw new AppError(RED_CODE.FORM_NOT_FOUND);
    const to: Record<typeof action, [string[], string]> = {
      confirm: [['02'], '04'],
      reject: [['02'], '05'],
      revoke: [['03'], '08'],
      abnormal: [['01', '02', '03', '04'], '10'],
    };
    const [from, target] = to[action];
    if (!from.includes(f.state)) throw stateError(f.state);
    // Stryker disable next-line ConditionalExpression: confirm, reject and revoke start from 02 or 03, which never have a red invoice
    if (action === 'abnormal' && !(await redOpen(tx, f))) throw new AppError(RED_CODE.ALREADY_ISSUED);
    await moveForm(tx, formId, from, target);
  });
  // 确认即开票: the buyer's confirmation issues the red invoice
  if (action === 'confirm') return issueRedForm(app, scope, formId);
  return mustView(app, scope, formId);
}
