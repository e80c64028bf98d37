-- Fewer indexes for every issued invoice to update (issue 11 item 6): each index of `invoices` is
-- written by every invoice the issuing statement inserts.
-- invoices_client_issued_idx served the devices' period totals (抄税, devices/repo.ts), which now
-- read invoices_lib_cover_idx by coalesce(issued_at, created_at) — the same value for an issued or
-- voided invoice. invoices_client_store_issued_idx had no reader left since 0018's covering indexes.
DROP INDEX IF EXISTS "invoices_client_issued_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "invoices_client_store_issued_idx";
--> statement-breakpoint
-- Only red invoices name an original: a blue one no longer adds a NULL entry.
DROP INDEX IF EXISTS "invoices_original_idx";
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoices_original_idx" ON "invoices" ("original_invoice_id")
  WHERE "original_invoice_id" IS NOT NULL;
