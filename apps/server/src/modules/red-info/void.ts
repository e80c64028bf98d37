import { RED_CODE, TERMS, voidRefusal } from '@kaipiao/shared';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { transition } from '../invoices/issue/transitions.ts';
import { isoOf } from '../query/scope.ts';
import { deviceOnline } from './red-invoice-repo.ts';
import { findBlue, hasReservingForm, redInvoiceSums } from './repo.ts';
import type { RedActor } from './service.ts';

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
      throw new AppError(
        RED_CODE.VOID_REFUSED,
        `${TERMS.void}失败，税局返回：${told.message}（${told.bureauCode}）`,
      );
    }
    if (told.status === 'unknown') {
      throw new AppError(
        RED_CODE.VOID_UNKNOWN,
        `未能确认税局的${TERMS.void}结果（${told.message}），发票仍为已开具，请稍后重新${TERMS.void}`,
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
