import {
  allowedRedReasons,
  dec,
  fixed,
  INVOICE_TYPES,
  RED_CODE,
  RED_FORM_KINDS,
  type RedBlueInfo,
  redFormKindOf,
  trimmed,
} from '@kaipiao/shared';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { isoOf } from '../query/scope.ts';
import { remainingOf } from './lines.ts';
import {
  type BlueRow,
  blueLines,
  expirePending,
  findBlue,
  pendingFormOf,
  type RedScope,
  takenByLine,
} from './repo.ts';

// What 红冲 starts from (POST /v3/red-info/blue-info) and the blue invoice's own checks.

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

export function assertRedable(b: BlueRow | null): asserts b is BlueRow {
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
export const buyerUsed = (app: FastifyInstance, b: BlueRow) =>
  app.taxChannel.buyerUsed({
    clientId: b.client_id,
    invoiceCode: b.invoice_code,
    // Stryker disable next-line StringLiteral: an issued invoice has its number
    invoiceNo: b.invoice_no ?? '',
  });
