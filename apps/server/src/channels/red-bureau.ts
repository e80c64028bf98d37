import { beijingCompactDay } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from './numbers.ts';

/**
 * The bureau's side of red-letter work and voids (domain.md §3), behind an adapter like the tax
 * channel. The sandbox keeps its knowledge in this database: whether the buyer has used an invoice
 * (勾选/入账 — a 数电 red form then needs the buyer's confirmation) and the voids it was told of.
 * The counterparty's own actions (confirm, reject, revoke, a buyer's inbound form) come through the
 * dev routes of the red-info module, as the bureau would push them.
 */
export interface RedBureau {
  /** the buyer has confirmed use of (勾选) or booked (入账) the invoice */
  buyerUsed(tx: DbOrTx, q: { clientId: number; invoiceId: number }): Promise<boolean>;
  /** the number the bureau gives a new form: 确认单 20 digits, 信息表 16 digits, '' for none */
  formNo(q: { kind: string; formId: number; areaCode: string; at: Date }): string;
  /** tells the bureau a paper invoice is voided (作废), inside the caller's transaction */
  voidInvoice(tx: DbOrTx, q: { clientId: number; invoiceId: number; reason: string }): Promise<void>;
}

export class SandboxRedBureau implements RedBureau {
  async buyerUsed(tx: DbOrTx, q: { clientId: number; invoiceId: number }): Promise<boolean> {
    const res = await tx.execute<{ buyer_used: boolean }>(sql`
      select buyer_used from sandbox_invoice_states
      where client_id = ${q.clientId} and invoice_id = ${q.invoiceId}`);
    return res.rows[0]?.buyer_used ?? false;
  }

  formNo(q: { kind: string; formId: number; areaCode: string; at: Date }): string {
    const ymd = beijingCompactDay(q.at);
    const area = q.areaCode.padStart(2, '0').slice(-2);
    // sandbox formats: 确认单 YYMMDD + area + 12-digit sequence; 信息表 area + YYMMDD + 8-digit sequence
    if (q.kind === 'confirm') return `${ymd.slice(2)}${area}${String(q.formId).padStart(12, '0')}`;
    if (q.kind === 'info_sheet') return `${area}${ymd.slice(2)}${String(q.formId).padStart(8, '0')}`;
    return '';
  }

  async voidInvoice(tx: DbOrTx, q: { clientId: number; invoiceId: number; reason: string }): Promise<void> {
    await tx.execute(sql`
      insert into sandbox_invoice_states (client_id, invoice_id, voided_at, void_reason)
      values (${q.clientId}, ${q.invoiceId}, now(), ${q.reason})
      on conflict (client_id, invoice_id)
      do update set voided_at = now(), void_reason = excluded.void_reason, updated_at = now()`);
  }
}

/** Sandbox control: mark an invoice as used (or not) by its buyer. */
export async function setBuyerUsed(
  db: DbOrTx,
  q: { clientId: number; invoiceId: number; used: boolean },
): Promise<void> {
  await db.execute(sql`
    insert into sandbox_invoice_states (client_id, invoice_id, buyer_used)
    values (${q.clientId}, ${q.invoiceId}, ${q.used})
    on conflict (client_id, invoice_id) do update set buyer_used = excluded.buyer_used, updated_at = now()`);
}
