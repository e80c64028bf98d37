import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';

/**
 * After an invoice is issued, its buyer's saved title (same business, same name) counts one more
 * use, so the invoice form's autocomplete offers the buyers a clerk invoices most often first.
 * One statement; a buyer without a saved title changes nothing (the clerk saves titles explicitly).
 */
export async function countTitleUse(app: FastifyInstance, invoiceId: number): Promise<void> {
  await app.db.execute(sql`
    update buyer_titles t
       set use_count = t.use_count + 1, last_used_at = now()
      from invoices i
     where i.id = ${invoiceId} and i.direction = 'blue'
       and t.client_id = i.client_id and t.name = i.buyer_name`);
}
