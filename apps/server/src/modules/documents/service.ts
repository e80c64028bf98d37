import { beijingChineseDay, TERMS } from '@kaipiao/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { invoiceEvents, invoiceFiles, invoices } from '../../db/schema/index.ts';
import { MailError } from '../../providers/mail.ts';
import { yuan } from './format.ts';
import { type InvoiceDocData, invoiceTitle, loadInvoiceDoc } from './model.ts';
import { renderInvoicePdf } from './pdf.ts';
import { renderInvoiceXml } from './xml.ts';

export type FileKind = 'pdf' | 'xml';
export const FILE_KINDS: readonly FileKind[] = ['pdf', 'xml'];
export const CONTENT_TYPES: Record<FileKind, string> = {
  pdf: 'application/pdf',
  xml: 'application/xml; charset=utf-8',
};

export type StoredFile = { kind: FileKind; fileName: string; content: Buffer };

/** `电子发票（普通发票）_26332000000000012345.pdf`; red invoices say so in the name. */
export function fileNameFor(
  inv: Pick<InvoiceDocData, 'invoiceType' | 'invoiceCode' | 'invoiceNo' | 'red'>,
  kind: FileKind,
): string {
  const no = inv.invoiceCode ? `${inv.invoiceCode}_${inv.invoiceNo}` : inv.invoiceNo;
  return `${invoiceTitle(inv.invoiceType)}${inv.red ? `（${TERMS.redShort}）` : ''}_${no}.${kind}`;
}

/** The tenant's invoice head: what the routes check before touching files. */
export async function findInvoiceHead(db: Db, clientId: number, invoiceId: number) {
  const [row] = await db
    .select({
      id: invoices.id,
      clientId: invoices.clientId,
      storeId: invoices.storeId,
      status: invoices.status,
      invoiceNo: invoices.invoiceNo,
      invoiceCode: invoices.invoiceCode,
      invoiceType: invoices.invoiceType,
      direction: invoices.direction,
      issuedAt: invoices.issuedAt,
      buyerName: invoices.buyerName,
      buyerEmail: invoices.buyerEmail,
      sellerName: invoices.sellerName,
      totalWithTax: invoices.totalWithTax,
    })
    .from(invoices)
    .where(and(eq(invoices.id, invoiceId), eq(invoices.clientId, clientId)))
    .limit(1);
  return row ?? null;
}
export type InvoiceHead = NonNullable<Awaited<ReturnType<typeof findInvoiceHead>>>;

/** An invoice has documents once it has a number and an issue time (issued, later reddened or voided). */
export const hasDocuments = (h: Pick<InvoiceHead, 'invoiceNo' | 'issuedAt'>) =>
  Boolean(h.invoiceNo && h.issuedAt);

export async function renderDocuments(doc: InvoiceDocData, kinds: readonly FileKind[] = FILE_KINDS) {
  const out: StoredFile[] = [];
  for (const kind of kinds) {
    const content = kind === 'pdf' ? await renderInvoicePdf(doc) : Buffer.from(renderInvoiceXml(doc), 'utf8');
    out.push({ kind, fileName: fileNameFor(doc, kind), content });
  }
  return out;
}

/**
 * The cached files of an invoice (architecture.md §5), rendering and storing the missing ones.
 * Null when the invoice is not this tenant's or has no documents (not issued). Concurrent callers
 * may both render; the first insert wins and both return the stored bytes' equivalent.
 */
export async function ensureInvoiceFiles(
  db: Db,
  clientId: number,
  invoiceId: number,
  kinds: readonly FileKind[] = FILE_KINDS,
  opts: { userId?: number | null } = {},
): Promise<Map<FileKind, StoredFile> | null> {
  const rows = await db
    .select({ kind: invoiceFiles.kind, fileName: invoiceFiles.fileName, content: invoiceFiles.content })
    .from(invoiceFiles)
    .where(
      and(
        eq(invoiceFiles.invoiceId, invoiceId),
        eq(invoiceFiles.clientId, clientId),
        inArray(invoiceFiles.kind, [...kinds]),
      ),
    );
  const files = new Map<FileKind, StoredFile>(
    rows.map((r) => [r.kind as FileKind, { ...r, kind: r.kind as FileKind }]),
  );
  const missing = kinds.filter((k) => !files.has(k));
  if (missing.length === 0) return files;
  const doc = await loadInvoiceDoc(db, clientId, invoiceId);
  if (!doc) return null;
  const rendered = await renderDocuments(doc, missing);
  const inserted = await db
    .insert(invoiceFiles)
    .values(
      rendered.map((f) => ({
        invoiceId,
        kind: f.kind,
        clientId,
        fileName: f.fileName,
        content: f.content,
        size: f.content.length,
      })),
    )
    .onConflictDoNothing()
    .returning({ kind: invoiceFiles.kind, size: invoiceFiles.size });
  if (inserted.length > 0) {
    await db.insert(invoiceEvents).values({
      invoiceId,
      clientId,
      kind: 'rendered',
      userId: opts.userId ?? null,
      detail: { files: inserted.map((f) => ({ kind: f.kind, size: f.size })) },
    });
  }
  for (const f of rendered) files.set(f.kind, f);
  return files;
}

export type EmailOutcome = { ok: true; outboxId: number } | { ok: false; error: string; permanent: boolean };

function composeEmail(h: InvoiceHead) {
  const no = h.invoiceCode ? `${h.invoiceCode} ${h.invoiceNo}` : (h.invoiceNo ?? '');
  const date = h.issuedAt ? beijingChineseDay(h.issuedAt) : '';
  const kind = `${invoiceTitle(h.invoiceType)}${h.direction === 'red' ? `（${TERMS.redShort}）` : ''}`;
  const subject = `您收到一张${h.sellerName}开具的电子发票【${TERMS.invoiceNo}：${no}】`;
  const facts: [string, string][] = [
    [TERMS.invoiceKind, kind],
    [TERMS.seller, h.sellerName],
    [TERMS.buyer, h.buyerName],
    [TERMS.invoiceNo, no],
    [TERMS.issueDate, date],
    [TERMS.totalWithTax, yuan(h.totalWithTax)],
  ];
  const text = [
    '尊敬的客户，您好：',
    '',
    `${h.sellerName}为您开具了电子发票，信息如下：`,
    ...facts.map(([k, v]) => `  ${k}：${v}`),
    '',
    '发票版式文件（PDF）和数据文件（XML）见附件，请妥善保存。',
    '此邮件由开票台自动发送，请勿直接回复。',
  ].join('\n');
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const html = `<p>尊敬的客户，您好：</p><p>${esc(h.sellerName)}为您开具了电子发票，信息如下：</p><table>${facts
    .map(([k, v]) => `<tr><td>${k}：</td><td>${esc(v)}</td></tr>`)
    .join(
      '',
    )}</table><p>发票版式文件（PDF）和数据文件（XML）见附件，请妥善保存。</p><p style="color:#888">此邮件由开票台自动发送，请勿直接回复。</p>`;
  return { subject, text, html };
}

/**
 * E-mails the invoice's PDF and XML to `email` and records `emailed` / `email_failed` on the invoice
 * (with the address and the outbox row). A temporary failure is rethrown (for the job to retry)
 * unless `final`; a permanent one (bounce) or a final attempt is recorded and returned.
 */
export async function deliverInvoiceEmail(
  app: FastifyInstance,
  args: { clientId: number; invoiceId: number; email: string; userId?: number | null; final: boolean },
): Promise<EmailOutcome> {
  const head = await findInvoiceHead(app.db, args.clientId, args.invoiceId);
  if (!head || !hasDocuments(head)) return { ok: false, error: 'invoice has no documents', permanent: true };
  const files = await ensureInvoiceFiles(app.db, args.clientId, args.invoiceId, FILE_KINDS, {
    userId: args.userId,
  });
  if (!files) return { ok: false, error: 'invoice has no documents', permanent: true };
  const msg = composeEmail(head);
  const event = (kind: 'emailed' | 'email_failed', detail: Record<string, unknown>) =>
    app.db.insert(invoiceEvents).values({
      invoiceId: args.invoiceId,
      clientId: args.clientId,
      kind,
      userId: args.userId ?? null,
      detail: { email: args.email, ...detail },
    });
  try {
    const res = await app.providers.mail.send({
      to: args.email,
      ...msg,
      attachments: FILE_KINDS.map((k) => ({
        fileName: files.get(k)!.fileName,
        contentType: CONTENT_TYPES[k].split(';')[0]!,
        content: files.get(k)!.content,
      })),
    });
    await event('emailed', { outbox_id: res.outboxId, message_id: res.messageId });
    return { ok: true, outboxId: res.outboxId };
  } catch (err) {
    const mailErr =
      err instanceof MailError ? err : new MailError(String((err as Error)?.message ?? err), false);
    if (!mailErr.permanent && !args.final) throw mailErr;
    await event('email_failed', { outbox_id: mailErr.outboxId, error: mailErr.message });
    return { ok: false, error: mailErr.message, permanent: mailErr.permanent };
  }
}
