import {
  CODE,
  DOC_CODE,
  invoiceDownloadQuerySchema,
  sendInvoiceEmailRequestSchema,
  sendInvoiceEmailResultSchema,
} from '@kaipiao/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.ts';
import { ok, reply200 } from '../../lib/envelope.ts';
import { assertEmployeeStore, type Scope, scopeOf } from '../../lib/scope.ts';
import {
  CONTENT_TYPES,
  deliverInvoiceEmail,
  ensureInvoiceFiles,
  findInvoiceHead,
  hasDocuments,
} from './service.ts';

/** Who may fetch or send an invoice's documents: the issuing pages and the invoice library. */
export const DOCUMENT_MENUS = [
  '/invoice/online',
  '/hotel/invoice/online',
  '/query/invoice',
  '/hotel/query/invoice',
];

/**
 * `attachment; filename="invoice_….pdf"; filename*=UTF-8''%E7%94%B5…` — an ASCII fallback for old
 * clients and the real Chinese name per RFC 5987 / RFC 6266.
 */
export function contentDisposition(fileName: string, inline = false): string {
  let ascii = fileName.replace(/[^\x20-\x7e]+/g, '').replace(/["\\]/g, '_');
  // a name that was all Chinese keeps its number: invoice_26332000000000012345.pdf
  if (!/^[A-Za-z0-9]/.test(ascii)) ascii = `invoice${/^[_.]/.test(ascii) ? '' : '_'}${ascii}`;
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** The invoice of the caller's business (else 10004, no hint that it exists elsewhere) and permitted stores (else 12003). */
async function ownInvoice(app: Parameters<FastifyPluginAsyncZod>[0], scope: Scope, invoiceId: number) {
  const head = await findInvoiceHead(app.db, scope.clientId, invoiceId);
  if (!head) throw new AppError(CODE.NOT_FOUND);
  assertEmployeeStore(scope, head.storeId);
  if (!hasDocuments(head)) throw new AppError(DOC_CODE.NOT_ISSUED);
  return head;
}

export const documentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/v3/invoice-detail/download',
    { config: { menu: DOCUMENT_MENUS, scope: 'store' }, schema: { querystring: invoiceDownloadQuerySchema } },
    async (req, reply) => {
      const scope = scopeOf(req);
      const { invoice_id, kind, inline } = req.query;
      await ownInvoice(app, scope, invoice_id);
      const files = await ensureInvoiceFiles(app.db, scope.clientId, invoice_id, [kind], {
        userId: scope.userId,
      });
      const file = files?.get(kind);
      if (!file) throw new AppError(DOC_CODE.NOT_ISSUED);
      return reply
        .header('content-type', CONTENT_TYPES[kind])
        .header('content-disposition', contentDisposition(file.fileName, inline === '1'))
        .header('content-length', file.content.length)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(file.content);
    },
  );

  app.post(
    '/v3/invoice-detail/send-email',
    {
      config: { menu: DOCUMENT_MENUS, scope: 'store' },
      schema: { body: sendInvoiceEmailRequestSchema, response: reply200(sendInvoiceEmailResultSchema) },
    },
    async (req) => {
      const scope = scopeOf(req);
      const { invoice_id, email } = req.body;
      await ownInvoice(app, scope, invoice_id);
      const res = await deliverInvoiceEmail(app, {
        clientId: scope.clientId,
        invoiceId: invoice_id,
        email,
        userId: scope.userId,
        final: true,
      });
      if (!res.ok) {
        throw new AppError(res.permanent ? DOC_CODE.EMAIL_FAILED : DOC_CODE.EMAIL_DEFERRED, undefined, {
          email,
          reason: res.error,
        });
      }
      return ok({ invoice_id, email, status: 'sent' as const }, '发送成功');
    },
  );
};
