-- Fewer indexes for every issued invoice to update (issue 11 item 6): each index of `invoices` is
-- written by every invoice the issuing statement inserts.
-- invoices_client_issued_idx and invoices_client_store_issued_idx were read only by the devices'
-- period totals (抄税, devices/repo.ts: the planner took either, the second by a skip scan), which now
-- also bound coalesce(issued_at, created_at) — the same value for an issued or voided invoice — and
-- read the library's invoices_lib_cover_idx / _store_cover_idx (db/issue-indexes.test.ts).
DROP INDEX IF EXISTS "invoices_client_issued_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "invoices_client_store_issued_idx";
--> statement-breakpoint
-- Only red invoices name an original: a blue one no longer adds a NULL entry.
DROP INDEX IF EXISTS "invoices_original_idx";
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoices_original_idx" ON "invoices" ("original_invoice_id")
  WHERE "original_invoice_id" IS NOT NULL;
