import {
  allowedRedReasons,
  beijingMonth,
  dec,
  fixed,
  INVOICE_TYPES,
  RED_CODE,
  RED_CONFIRM_HOURS,
  RED_FORM_KINDS,
  type RedApplyRequest,
  type RedBlueInfo,
  type RedForm,
  redApplyRequestSchema,
  redFormKindOf,
  trimmed,
  voidRefusal,
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
import { isoOf } from '../query/scope.ts';
import { buildRedLines, remainingOf, totalsOf } from './lines.ts';
import {
  deviceAreaCode,
  deviceOnline,
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
  type BlueRow,
  blueLines,
  expirePending,
  type FormRow,
  findBlue,
  getFormView,
  hasReservingForm,
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

const blueView = (b: BlueRow): RedBlueInfo['blue'] => ({
  invoice_id: Number(b.id),
  invoice_type: b.invoice_type,
  invoice_type_name: INVOICE_TYPES[b.invoice_type as keyof typeof INVOICE_TYPES] ?? b.invoice_type,
  invoice_code: b.invoice_code,
  invoice_no: b.invoice_no,
  issued_at: isoOf(b.issued_at),
  status: b.status,
  red_status: b.red_status,
  total_amount: fixed(b.total_amount),
  total_tax: fixed(b.total_tax),
  total_with_tax: fixed(b.total_with_tax),
  buyer_name: b.buyer_name,
  buyer_tax_code: b.buyer_tax_code,
  seller_name: b.seller_name,
  seller_tax_code: b.seller_tax_code,
});

async function mustView(app: FastifyInstance, scope: RedScope, formId: number): Promise<RedForm> {
  const v = await getFormView(app.db, scope, formId);
  // Stryker disable next-line ConditionalExpression: every caller found or locked the form in the same scope just before
  if (!v) throw new AppError(RED_CODE.FORM_NOT_FOUND);
  return v;
}

function assertRedable(b: BlueRow | null): asserts b is BlueRow {
  if (!b) throw new AppError(RED_CODE.BLUE_NOT_FOUND);
  if (b.direction !== 'blue' || b.status !== 'issued') throw new AppError(RED_CODE.BLUE_NOT_ISSUED);
  if (b.red_status === 'full') throw new AppError(RED_CODE.BLUE_FULLY_REDDENED);
}

/** POST /v3/red-info/blue-info: the blue invoice with what each line has left to reverse. */
export async function blueInfo(
  app: FastifyInstance,
  scope: RedScope,
  invoiceId: number,
): Promise<RedBlueInfo> {
  await expirePending(app.db, scope.clientId);
  const b = await findBlue(app.db, scope, invoiceId);
  assertRedable(b);
  const kind = redFormKindOf(b.invoice_type);
  const [lines, taken, pending, used] = await Promise.all([
    blueLines(app.db, scope.clientId, invoiceId),
    takenByLine(app.db, scope.clientId, invoiceId),
    pendingFormOf(app.db, scope.clientId, invoiceId),
    // only a 数电 确认单 asks: the bureau's answer decides whether the buyer must confirm
    kind === 'confirm' ? buyerUsed(app, b) : false,
  ]);
  let amount = dec(b.total_amount);
  let tax = dec(b.total_tax);
  for (const t of taken.values()) {
    amount = amount.minus(t.amount);
    tax = tax.minus(t.tax);
  }
  return {
    blue: blueView(b),
    kind,
    kind_name: RED_FORM_KINDS[kind],
    lines: lines.map((l) => {
      const r = remainingOf(l, taken.get(l.line_no));
      return {
        line_no: l.line_no,
        line_kind: l.line_kind,
        tax_class_code: l.tax_class_code,
        full_name: l.full_name,
        spec: l.spec,
        unit: l.unit,
        quantity: l.quantity === null ? null : trimmed(l.quantity),
        unit_price: l.unit_price === null ? null : trimmed(l.unit_price),
        unit_price_with_tax: l.unit_price_with_tax === null ? null : trimmed(l.unit_price_with_tax),
        amount: fixed(l.amount),
        tax_rate: l.tax_rate,
        tax_amount: fixed(l.tax_amount),
        amount_with_tax: fixed(l.amount_with_tax),
        remaining_quantity: r.quantity === null ? null : trimmed(r.quantity),
        remaining_amount: fixed(r.amount),
        remaining_tax: fixed(r.tax),
        remaining_with_tax: fixed(r.withTax),
      };
    }),
    remaining_amount: fixed(amount),
    remaining_tax: fixed(tax),
    remaining_with_tax: fixed(amount.plus(tax)),
    reasons: allowedRedReasons(lines.map((l) => l.tax_class_code)),
    has_discount: lines.some((l) => l.line_kind !== 0),
    needs_confirmation: kind === 'confirm' && used,
    pending_form_id: pending,
  };
}

/** Whether the buyer has used the (issued) blue invoice, as the bureau says. */
const buyerUsed = (app: FastifyInstance, b: BlueRow) =>
  app.taxChannel.buyerUsed({
    clientId: b.client_id,
    invoiceCode: b.invoice_code,
    // Stryker disable next-line StringLiteral: an issued invoice has its number
    invoiceNo: b.invoice_no ?? '',
  });

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
        `红冲金额超过蓝字发票的可红冲余额（剩余价税合计 ${fixed(leftWithTax)} 元）`,
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

/**
 * 作废 (domain.md §3.1): a blue paper invoice, in its month of issue, with no red invoice or
 * reserving form, while its device is online. The invoice is checked and locked in our transaction;
 * the bureau is told while the lock is held (the port takes no handle of ours: its records are its
 * own) and only its `voided` answer is recorded. So the order is crash-safe: a crash after the
 * bureau voided leaves ours issued, and voiding again is harmless at the bureau (a repeat answers
 * voided) and records it; a refusal or no answer changes nothing of ours (18025 / 18026).
 */
export async function voidInvoice(
  app: FastifyInstance,
  actor: RedActor,
  q: { invoiceId: number; reason: string },
): Promise<{ invoice_id: number; status: string }> {
  await app.db.transaction(async (tx) => {
    const b = await findBlue(tx, actor, q.invoiceId, true);
    if (!b) throw new AppError(RED_CODE.BLUE_NOT_FOUND);
    if (b.direction !== 'blue' || b.status !== 'issued') throw new AppError(RED_CODE.VOID_NOT_ISSUED);
    const refusal = voidRefusal(b.invoice_type, b.issued_at ? isoOf(b.issued_at) : null, app.clock());
    if (refusal !== null) throw new AppError(refusal);
    const sums = await redInvoiceSums(tx, actor.clientId, q.invoiceId);
    if (!sums.consuming.isZero() || (await hasReservingForm(tx, actor.clientId, q.invoiceId))) {
      throw new AppError(RED_CODE.VOID_REDDENED);
    }
    const d = await deviceOnline(tx, b.device_id);
    // Stryker disable next-line OptionalChaining: the device row exists (foreign key)
    if (!d?.online) throw new AppError(RED_CODE.VOID_DEVICE_OFFLINE);
    const told = await app.taxChannel.voidInvoice({
      clientId: actor.clientId,
      deviceId: b.device_id,
      invoiceCode: b.invoice_code,
      // Stryker disable next-line StringLiteral: an issued invoice has its number
      invoiceNo: b.invoice_no ?? '',
      reason: q.reason,
    });
    if (told.status === 'refused') {
      throw new AppError(RED_CODE.VOID_REFUSED, `作废失败，税局返回：${told.message}（${told.bureauCode}）`);
    }
    if (told.status === 'unknown') {
      throw new AppError(
        RED_CODE.VOID_UNKNOWN,
        `未能确认税局的作废结果（${told.message}），发票仍为已开具，请稍后重新作废`,
      );
    }
    await transition(tx, {
      id: q.invoiceId,
      from: ['issued'],
      to: 'voided',
      event: 'voided',
      userId: actor.userId,
      detail: { reason: q.reason },
    });
  });
  return { invoice_id: q.invoiceId, status: 'voided' };
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
