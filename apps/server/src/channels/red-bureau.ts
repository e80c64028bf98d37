import { beijingCompactDay, TERMS } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { DbOrTx } from './numbers.ts';
import type { BureauInvoiceRef, RedChannel, VoidOutcome, VoidRequest } from './port.ts';

/** The sandbox's refusal of an invoice it does not know (the bureau process's code and words). */
export const UNKNOWN_INVOICE = { code: 'E4301', message: '税局无此发票' } as const;

/**
 * The sandbox bureau's side of red-letter work and voids (port.ts RedChannel; domain.md §3). It
 * keeps its knowledge in its own table, `sandbox_invoice_states`, through its own database handle:
 * whether the buyer has used an invoice (勾选/入账 — a 数电 red form then needs the buyer's
 * confirmation) and the voids it was told of. Living in our database, it finds its row of an
 * invoice named by its numbers through the invoice itself. Its writes commit on their own, before
 * the caller records anything. The counterparty's own actions (confirm, reject, revoke, a buyer's
 * inbound form, the buyer's use) come through the dev routes of the red-info module, as the bureau
 * would push them.
 */
export class SandboxRedChannel implements RedChannel {
  constructor(private readonly db: Db) {}

  /** the sandbox's key of an invoice the bureau issued: our row, found by its numbers */
  private async invoiceOf(q: BureauInvoiceRef): Promise<number | null> {
    const res = await this.db.execute<{ id: string | number }>(sql`
      select id from invoices
      where client_id = ${q.clientId} and invoice_no = ${q.invoiceNo} and invoice_code = ${q.invoiceCode}
        and status in ('issued', 'voided')
      limit 1`);
    const id = res.rows[0]?.id;
    return id === undefined ? null : Number(id);
  }

  async buyerUsed(q: BureauInvoiceRef): Promise<boolean> {
    const res = await this.db.execute<{ buyer_used: boolean }>(sql`
      select s.buyer_used from invoices i
      join sandbox_invoice_states s on s.client_id = i.client_id and s.invoice_id = i.id
      where i.client_id = ${q.clientId} and i.invoice_no = ${q.invoiceNo} and i.invoice_code = ${q.invoiceCode}`);
    return res.rows.some((r) => r.buyer_used);
  }

  async voidInvoice(q: VoidRequest): Promise<VoidOutcome> {
    try {
      const id = await this.invoiceOf(q);
      if (id === null) {
        return { status: 'refused', bureauCode: UNKNOWN_INVOICE.code, message: UNKNOWN_INVOICE.message };
      }
      // a repeat (the caller crashed before recording the first) keeps the first void's time and reason
      const res = await this.db.execute<{ voided_at: Date | string }>(sql`
        insert into sandbox_invoice_states (client_id, invoice_id, voided_at, void_reason)
        values (${q.clientId}, ${id}, now(), ${q.reason})
        on conflict (client_id, invoice_id) do update
          set voided_at = coalesce(sandbox_invoice_states.voided_at, excluded.voided_at),
            void_reason = case when sandbox_invoice_states.voided_at is null then excluded.void_reason
              else sandbox_invoice_states.void_reason end,
            updated_at = now()
        returning voided_at`);
      return { status: 'voided', voidedAt: new Date(res.rows[0]!.voided_at) };
    } catch (err) {
      return { status: 'unknown', message: `税局${TERMS.void}应答异常（${(err as Error).message}）` };
    }
  }
}

/**
 * The number the sandbox bureau gives a new form: 确认单 20 digits, 信息表 16 digits, '' for none.
 * The form is numbered in the transaction that reserves its blue invoice, from the form's id, so
 * this is a pure format and not a call on the port.
 */
export function redFormNo(q: { kind: string; formId: number; areaCode: string; at: Date }): string {
  const ymd = beijingCompactDay(q.at);
  const area = q.areaCode.padStart(2, '0').slice(-2);
  // sandbox formats: 确认单 YYMMDD + area + 12-digit sequence; 信息表 area + YYMMDD + 8-digit sequence
  if (q.kind === 'confirm') return `${ymd.slice(2)}${area}${String(q.formId).padStart(12, '0')}`;
  if (q.kind === 'info_sheet') return `${area}${ymd.slice(2)}${String(q.formId).padStart(8, '0')}`;
  return '';
}

/** Sandbox control (the buyer's side, dev routes and seed): mark an invoice as used (or not) by its buyer. */
export async function setBuyerUsed(
  db: DbOrTx,
  q: { clientId: number; invoiceId: number; used: boolean },
): Promise<void> {
  await db.execute(sql`
    insert into sandbox_invoice_states (client_id, invoice_id, buyer_used)
    values (${q.clientId}, ${q.invoiceId}, ${q.used})
    on conflict (client_id, invoice_id) do update set buyer_used = excluded.buyer_used, updated_at = now()`);
}
