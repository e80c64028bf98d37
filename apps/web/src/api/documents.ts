import { api } from '../lib/api.ts';
import { buildUrl } from '../lib/build-url.ts';
import { useSessionStore } from '../stores/session-store.ts';

// Invoice documents (PDF / XML) and e-mail delivery. Downloads are plain links: the session cookie
// authenticates them, so the browser saves the file under the server's file name.
export function downloadUrl(invoiceId: number, kind: 'pdf' | 'xml'): string {
  const { business, store } = useSessionStore.getState();
  return buildUrl('/v3/invoice-detail/download', {
    invoice_id: invoiceId,
    kind,
    client_id: business?.client_id,
    sid: store?.client_store_id,
  });
}

export const sendInvoiceEmail = (invoice_id: number, email: string) =>
  api.post<null>('/v3/invoice-detail/send-email', { invoice_id, email });
