import {
  type BlueInvoiceRequest,
  CODE,
  computeTotals,
  INVOICE_CODE,
  messageFor,
  SCAN_CODE,
  type ScanItem,
  type ScanRequestStatus,
  TERMS,
} from '@kaipiao/shared';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import type { Scope, Actor as ScopeActor } from '../../lib/scope.ts';
import { issueBlue } from '../invoices/service.ts';
import { iso, linesOf, pointName } from './codes.ts';
import type { HotelStay } from './repo.ts';
import type { RequestRow } from './requests-repo.ts';
import * as repo from './requests-repo.ts';
import { issuingDevice } from './settings.ts';

/**
 * The audit queue (domain.md §8.1): the clerk's list and detail, approving (one or many) and
 * rejecting. Issuing goes through the single-invoice service (`issueBlue`) under a serial fixed per
 * request (per order for order codes), so a request or an order makes at most one invoice.
 */

type Db = FastifyInstance['db'];

/** Who works the queue: the business, the stores the employee may use (null = all), the user. */
export type Actor = Pick<ScopeActor, 'clientId' | 'userId'> & { storeIds: Scope['permittedStoreIds'] };

export const toRequest = (r: RequestRow) => ({
  id: Number(r.id),
  store_id: r.store_id,
  store_name: r.store_name,
  code_kind: r.code_kind,
  point_name: pointName(r.code_kind, r.code_name, r.store_name),
  order_no: r.order_no,
  status: r.status,
  title_type: r.title_type,
  buyer_name: r.buyer_name,
  buyer_tax_code: r.buyer_tax_code,
  buyer_address: r.buyer_address,
  buyer_phone: r.buyer_phone,
  buyer_bank_name: r.buyer_bank_name,
  buyer_bank_account: r.buyer_bank_account,
  email: r.email,
  mobile: r.mobile,
  buyer_remark: r.buyer_remark,
  amount: r.amount,
  items: r.items,
  hotel_stay: r.hotel_stay,
  invoice_type: r.invoice_type,
  invoice_id: r.invoice_id === null ? null : Number(r.invoice_id),
  invoice_no: r.invoice_no,
  reject_reason: r.reject_reason,
  error_message: r.error_message,
  reviewed_by_name: r.reviewed_by_name,
  reviewed_at: iso(r.reviewed_at),
  created_at: iso(r.created_at)!,
});

export async function listRequests(
  db: Db,
  a: { clientId: number; storeIds: ReadonlySet<number> | null; sid: number },
  q: { status: ScanRequestStatus | ''; keyword: string; code_id?: number; page: number; page_size: number },
) {
  const { list, total } = await repo.selectRequests(db, a, {
    status: q.status,
    keyword: q.keyword,
    code_id: q.code_id,
    limit: q.page_size,
    offset: (q.page - 1) * q.page_size,
  });
  return { list: list.map(toRequest), total };
}

async function findRequest(db: Db, a: Pick<Actor, 'clientId' | 'storeIds'>, id: number): Promise<RequestRow> {
  const r = await repo.selectRequest(db, a.clientId, a.storeIds, id);
  if (!r) throw new AppError(SCAN_CODE.REQUEST_NOT_FOUND);
  return r;
}

export async function requestDetail(db: Db, a: Actor, id: number) {
  return toRequest(await findRequest(db, a, id));
}

const serialFor = (r: Pick<RequestRow, 'id' | 'code_id' | 'code_kind'>) =>
  r.code_kind === 'order'
    ? `SCAN-O${String(r.code_id).padStart(6, '0')}`
    : `SCAN-R${String(r.id).padStart(6, '0')}`;

/**
 * Approves (issues) a request. The claim pending → issuing is one conditional UPDATE: of two clerks
 * approving at once only one gets the row, the other is told it was handled. A request whose
 * earlier attempt reached the channel (`failed`) is retried with its stored payload and serial.
 */
export async function approveRequest(
  app: FastifyInstance,
  a: Actor,
  body: { id: number; items?: ScanItem[]; hotel_stay?: HotelStay; remark?: string },
): Promise<ScanRequestStatus> {
  const db = app.db;
  const r = await findRequest(db, a, body.id);
  let payload: BlueInvoiceRequest;
  if (r.status === 'pending') {
    const items = body.items ?? r.items;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: items sent have at least one (approveBodySchema) and stored ones come from a checked order
    if (!items || items.length === 0) throw new AppError(SCAN_CODE.ITEMS_REQUIRED);
    const hotel = body.hotel_stay ?? r.hotel_stay ?? undefined;
    const { deviceId, invoiceType } = await issuingDevice(db, r.client_id, r.store_id);
    const goods = linesOf(items);
    const t = computeTotals(goods.map((l) => ({ amount: l.amount, taxAmount: l.tax_amount })));
    const remark = [r.order_no ? `订单号：${r.order_no}` : '', body.remark ?? ''].filter(Boolean).join(' ');
    payload = {
      serial_no: serialFor(r),
      device_id: deviceId,
      invoice_type: invoiceType,
      buyer: {
        title_type: r.title_type === 1 ? 1 : 2,
        name: r.buyer_name,
        tax_code: r.buyer_tax_code,
        email: r.email,
        mobile: r.mobile,
        address: r.buyer_address,
        phone: r.buyer_phone,
        bank_name: r.buyer_bank_name,
        bank_account: r.buyer_bank_account,
      },
      // Stryker disable next-line ObjectLiteral,StringLiteral: issuing takes the seller from the business (sellerFacts), not from the request
      seller: { name: '', tax_code: '', address: '', phone: '', bank_name: '', bank_account: '' },
      goods_info: goods,
      invoice_info: {
        price_includes_tax: true,
        total_amount: t.totalAmount,
        total_tax: t.totalTax,
        total_price_with_tax: t.totalWithTax,
        remark,
        specific_business_code: null,
        drawer: '',
        payee: '',
        reviewer: '',
      },
      ...(hotel ? { hotel_stay: hotel } : {}),
      send_email: Boolean(r.email),
    };
    const claimed = await repo.claimPending(db, r, {
      payload,
      items,
      hotelStay: hotel,
      invoiceType,
      amount: t.totalWithTax,
      userId: a.userId,
    });
    if (!claimed) throw new AppError(SCAN_CODE.ALREADY_HANDLED);
  } else if (
    // Stryker disable next-line ConditionalExpression,LogicalOperator: in any other state the claim below (status = 'failed') takes nothing and refuses the same way, and a request turns failed only from issuing, which set its issue_request
    r.status === 'failed' &&
    r.issue_request
  ) {
    payload = r.issue_request;
    const claimed = await repo.claimFailed(db, r, a.userId);
    if (!claimed) throw new AppError(SCAN_CODE.ALREADY_HANDLED);
  } else {
    throw new AppError(SCAN_CODE.ALREADY_HANDLED);
  }
  return issueClaimed(app, r, payload, a.userId);
}

async function issueClaimed(
  app: FastifyInstance,
  r: RequestRow,
  payload: BlueInvoiceRequest,
  userId: number | null,
): Promise<ScanRequestStatus> {
  const db = app.db;
  try {
    const result = await issueBlue(app, { clientId: r.client_id, storeId: r.store_id, userId }, payload);
    await repo.markInvoiceFromScan(db, result.invoice_id, true);
    // Stryker disable ConditionalExpression,StringLiteral,BlockStatement: issueBlue answers 'issuing' only for a serial already in flight, which the request's claim excludes
    if (result.status === 'issued') {
      await markIssued(app, result.invoice_id);
      return 'issued';
    }
    await repo.setRequestInvoice(db, r.id, result.invoice_id);
    return 'issuing';
    // Stryker restore ConditionalExpression,StringLiteral,BlockStatement
  } catch (err) {
    const message = err instanceof Error ? err.message : messageFor(CODE.INTERNAL);
    const inv = await repo.selectInvoiceBySerial(db, r.client_id, payload.serial_no);
    if (err instanceof AppError && err.code === INVOICE_CODE.CHANNEL_TIMEOUT && inv) {
      // outcome unknown: reconciliation settles the invoice and the issued hook the request
      await repo.setRequestInvoice(db, r.id, inv.id);
      await repo.markInvoiceFromScan(db, inv.id, false);
      throw err;
    }
    if (inv) {
      // the channel saw it: the retry must go through the same serial and payload
      await repo.failIssuing(db, r.id, inv.id, message);
      await repo.markInvoiceFromScan(db, inv.id, false);
    } else {
      // refused before any invoice existed: back to the queue, the clerk may change the goods
      await repo.returnToPending(db, r.id, message);
    }
    throw err;
  }
}

/**
 * issuing/failed → issued for the request of an issued invoice (its serial), from the approve call
 * or the issued hook (reconciliation); whichever moves it tells the buyer by SMS.
 */
export async function markIssued(app: FastifyInstance, invoiceId: number): Promise<void> {
  const moved = await repo.markRequestIssued(app.db, invoiceId);
  for (const m of moved) {
    if (!m.mobile) continue;
    app.providers.sms
      .send({
        mobile: m.mobile,
        content: `【开票台】您在${m.seller_name}申请的发票已开具，${TERMS.invoiceNo}${m.invoice_no}，${TERMS.totalWithTax}${m.total_with_tax}元。请回到扫码开票页面查看并下载发票。`,
      })
      .catch(
        // Stryker disable next-line ArrowFunction: the handler only writes a log line (the rejection is swallowed either way)
        (err: unknown) =>
          // Stryker disable next-line ObjectLiteral: the log line's fields
          app.log.warn({ err }, 'scan issued sms failed'),
      );
  }
}

export async function bulkApprove(app: FastifyInstance, a: Actor, ids: number[]) {
  let issued = 0;
  const failed: { id: number; message: string }[] = [];
  for (const id of ids) {
    try {
      const status = await approveRequest(app, a, { id });
      // Stryker disable next-line ConditionalExpression,EqualityOperator: 'issuing' is not answered (issueClaimed above)
      if (status === 'issued' || status === 'issuing') issued++;
    } catch (err) {
      failed.push({ id, message: err instanceof Error ? err.message : messageFor(CODE.INTERNAL) });
    }
  }
  return { issued, failed };
}

/** Rejects a request with a reason the buyer sees on the status page (and by e-mail / SMS if given). */
export async function rejectRequest(app: FastifyInstance, a: Actor, body: { id: number; reason: string }) {
  const r = await findRequest(app.db, a, body.id);
  const moved = await repo.rejectRow(app.db, r, body.reason, a.userId);
  if (!moved) throw new AppError(SCAN_CODE.ALREADY_HANDLED);
  const text = `【开票台】您在${r.seller_name}（${r.store_name}）提交的开票申请未通过审核，原因：${body.reason}。如有疑问请联系商家。`;
  if (r.mobile) {
    app.providers.sms.send({ mobile: r.mobile, content: text }).catch(
      // Stryker disable next-line ArrowFunction: the handler only writes a log line (the rejection is swallowed either way)
      (err: unknown) =>
        // Stryker disable next-line ObjectLiteral: the log line's fields
        app.log.warn({ err }, 'scan reject sms failed'),
    );
  }
  if (r.email) {
    app.providers.mail.send({ to: r.email, subject: `开票申请未通过审核 - ${r.seller_name}`, text }).catch(
      // Stryker disable next-line ArrowFunction: the handler only writes a log line (the rejection is swallowed either way)
      (err: unknown) =>
        // Stryker disable next-line ObjectLiteral: the log line's fields
        app.log.warn({ err }, 'scan reject e-mail failed'),
    );
  }
  return toRequest(await findRequest(app.db, a, body.id));
}
