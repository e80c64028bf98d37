import type { VoidRequest } from '@kaipiao/shared/schemas/red-info';
import { api } from '../lib/api.ts';

/** Actions on one issued invoice offered wherever it is shown (library drawer): 作废 (domain.md §3). */

export const voidInvoice = (body: VoidRequest) =>
  api.post<{ invoice_id: number; status: string }>('/v3/invoice-detail/void', body);
