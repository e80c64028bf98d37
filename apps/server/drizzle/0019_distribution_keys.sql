-- Every tenant table can be distributed by client_id (Citus; issue 11 item 7, checked by
-- src/db/distribution.test.ts): each primary key and unique index of a table with a client_id
-- includes client_id, and a foreign key between two such tables pairs client_id with client_id.
--
-- The keys keep their columns first and end in client_id, so every lookup by id (or by device,
-- store, code, token) alone keeps its index and no query changes its plan; per business each key
-- is as strict as before (an id comes from a sequence; a device, store, code or trusteeship belongs
-- to one business). Only the ON CONFLICT targets name the new keys.
--
-- The migrator applies pending migrations in one transaction: on a database with data this is
-- all or nothing. The composite foreign keys are validated as they are added, so a row whose
-- client_id differs from its parent's stops the migration rather than being left behind.

-- 1. The foreign keys onto the keys that change.
ALTER TABLE "batch_rows" DROP CONSTRAINT "batch_rows_batch_id_batches_id_fk";
--> statement-breakpoint
ALTER TABLE "channel_number_counters" DROP CONSTRAINT "channel_number_counters_device_id_tax_devices_id_fk";
--> statement-breakpoint
ALTER TABLE "channel_number_ranges" DROP CONSTRAINT "channel_number_ranges_device_id_tax_devices_id_fk";
--> statement-breakpoint
ALTER TABLE "channel_sandbox_controls" DROP CONSTRAINT "channel_sandbox_controls_device_id_tax_devices_id_fk";
--> statement-breakpoint
ALTER TABLE "device_filings" DROP CONSTRAINT "device_filings_device_id_tax_devices_id_fk";
--> statement-breakpoint
ALTER TABLE "device_stores" DROP CONSTRAINT "device_stores_device_id_tax_devices_id_fk";
--> statement-breakpoint
ALTER TABLE "device_stores" DROP CONSTRAINT "device_stores_store_id_client_stores_id_fk";
--> statement-breakpoint
ALTER TABLE "device_trusteeships" DROP CONSTRAINT "device_trusteeships_device_id_tax_devices_id_fk";
--> statement-breakpoint
ALTER TABLE "invoice_lines" DROP CONSTRAINT "invoice_lines_invoice_id_invoices_id_fk";
--> statement-breakpoint
ALTER TABLE "realname_sessions" DROP CONSTRAINT "realname_sessions_device_id_tax_devices_id_fk";
--> statement-breakpoint
ALTER TABLE "scan_codes" DROP CONSTRAINT "scan_codes_store_id_client_stores_id_fk";
--> statement-breakpoint
ALTER TABLE "scan_requests" DROP CONSTRAINT "scan_requests_code_id_scan_codes_id_fk";
--> statement-breakpoint
ALTER TABLE "scan_settings" DROP CONSTRAINT "scan_settings_store_id_client_stores_id_fk";
--> statement-breakpoint
ALTER TABLE "stock_movements" DROP CONSTRAINT "stock_movements_device_id_tax_devices_id_fk";
--> statement-breakpoint
ALTER TABLE "store_settings" DROP CONSTRAINT "store_settings_store_id_client_stores_id_fk";
--> statement-breakpoint
ALTER TABLE "tax_accounts" DROP CONSTRAINT "tax_accounts_device_id_tax_devices_id_fk";
--> statement-breakpoint
ALTER TABLE "trusteeship_grants" DROP CONSTRAINT "trusteeship_grants_device_id_tax_devices_id_fk";
--> statement-breakpoint
ALTER TABLE "trusteeship_grants" DROP CONSTRAINT "trusteeship_grants_store_id_client_stores_id_fk";
--> statement-breakpoint
ALTER TABLE "trusteeship_grants" DROP CONSTRAINT "trusteeship_grants_trusteeship_id_device_trusteeships_id_fk";
--> statement-breakpoint
-- 2. device_stores was the one tenant table without client_id: its device's business.
ALTER TABLE "device_stores" ADD COLUMN "client_id" integer;
--> statement-breakpoint
UPDATE "device_stores" ds SET "client_id" = d."client_id" FROM "tax_devices" d WHERE d."id" = ds."device_id";
--> statement-breakpoint
ALTER TABLE "device_stores" ALTER COLUMN "client_id" SET NOT NULL;
--> statement-breakpoint
-- 3. The primary keys and unique indexes, client_id last.
ALTER TABLE "tax_devices" DROP CONSTRAINT "tax_devices_pkey", ADD CONSTRAINT "tax_devices_pkey" PRIMARY KEY ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "client_stores" DROP CONSTRAINT "client_stores_pkey", ADD CONSTRAINT "client_stores_pkey" PRIMARY KEY ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_pkey", ADD CONSTRAINT "invoices_pkey" PRIMARY KEY ("id", "client_id");
--> statement-breakpoint
DROP INDEX "invoices_number_uq";
--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number_uq" ON "invoices" ("device_id", "invoice_type", "invoice_code", "invoice_no", "client_id") WHERE "invoice_no" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "invoice_lines" DROP CONSTRAINT "invoice_lines_invoice_id_line_no_pk", ADD CONSTRAINT "invoice_lines_pkey" PRIMARY KEY ("invoice_id", "line_no", "client_id");
--> statement-breakpoint
ALTER TABLE "invoice_files" DROP CONSTRAINT "invoice_files_invoice_id_kind_pk", ADD CONSTRAINT "invoice_files_pkey" PRIMARY KEY ("invoice_id", "kind", "client_id");
--> statement-breakpoint
ALTER TABLE "invoice_events" DROP CONSTRAINT "invoice_events_pkey", ADD CONSTRAINT "invoice_events_pkey" PRIMARY KEY ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "batches" DROP CONSTRAINT "batches_pkey", ADD CONSTRAINT "batches_pkey" PRIMARY KEY ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "batch_rows" DROP CONSTRAINT "batch_rows_batch_id_seq_pk", ADD CONSTRAINT "batch_rows_pkey" PRIMARY KEY ("batch_id", "seq", "client_id");
--> statement-breakpoint
ALTER TABLE "buyer_titles" DROP CONSTRAINT "buyer_titles_pkey", ADD CONSTRAINT "buyer_titles_pkey" PRIMARY KEY ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "goods" DROP CONSTRAINT "goods_pkey", ADD CONSTRAINT "goods_pkey" PRIMARY KEY ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "export_records" DROP CONSTRAINT "export_records_pkey", ADD CONSTRAINT "export_records_pkey" PRIMARY KEY ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "red_forms" DROP CONSTRAINT "red_forms_pkey", ADD CONSTRAINT "red_forms_pkey" PRIMARY KEY ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "stock_movements" DROP CONSTRAINT "stock_movements_pkey", ADD CONSTRAINT "stock_movements_pkey" PRIMARY KEY ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "tax_accounts" DROP CONSTRAINT "tax_accounts_pkey", ADD CONSTRAINT "tax_accounts_pkey" PRIMARY KEY ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "channel_number_counters" DROP CONSTRAINT "channel_number_counters_device_id_series_year_pk", ADD CONSTRAINT "channel_number_counters_pkey" PRIMARY KEY ("device_id", "series", "year", "client_id");
--> statement-breakpoint
ALTER TABLE "channel_number_ranges" DROP CONSTRAINT "channel_number_ranges_pkey", ADD CONSTRAINT "channel_number_ranges_pkey" PRIMARY KEY ("id", "client_id");
--> statement-breakpoint
DROP INDEX "channel_number_ranges_code_uq";
--> statement-breakpoint
CREATE UNIQUE INDEX "channel_number_ranges_code_uq" ON "channel_number_ranges" ("invoice_code", "start_no", "client_id");
--> statement-breakpoint
ALTER TABLE "channel_sandbox_controls" DROP CONSTRAINT "channel_sandbox_controls_pkey", ADD CONSTRAINT "channel_sandbox_controls_pkey" PRIMARY KEY ("device_id", "client_id");
--> statement-breakpoint
ALTER TABLE "device_filings" DROP CONSTRAINT "device_filings_device_id_period_pk", ADD CONSTRAINT "device_filings_pkey" PRIMARY KEY ("device_id", "period", "client_id");
--> statement-breakpoint
ALTER TABLE "device_stores" DROP CONSTRAINT "device_stores_device_id_store_id_pk", ADD CONSTRAINT "device_stores_pkey" PRIMARY KEY ("device_id", "store_id", "client_id");
--> statement-breakpoint
ALTER TABLE "device_trusteeships" DROP CONSTRAINT "device_trusteeships_pkey", ADD CONSTRAINT "device_trusteeships_pkey" PRIMARY KEY ("id", "client_id");
--> statement-breakpoint
DROP INDEX "device_trusteeships_hosted_uq";
--> statement-breakpoint
CREATE UNIQUE INDEX "device_trusteeships_hosted_uq" ON "device_trusteeships" ("device_id", "client_id") WHERE "status" = 'hosted';
--> statement-breakpoint
ALTER TABLE "trusteeship_grants" DROP CONSTRAINT "trusteeship_grants_device_id_store_id_pk", ADD CONSTRAINT "trusteeship_grants_pkey" PRIMARY KEY ("device_id", "store_id", "client_id");
--> statement-breakpoint
ALTER TABLE "scan_codes" DROP CONSTRAINT "scan_codes_pkey", ADD CONSTRAINT "scan_codes_pkey" PRIMARY KEY ("id", "client_id");
--> statement-breakpoint
DROP INDEX "scan_codes_token_uq";
--> statement-breakpoint
CREATE UNIQUE INDEX "scan_codes_token_uq" ON "scan_codes" ("token", "client_id");
--> statement-breakpoint
ALTER TABLE "scan_requests" DROP CONSTRAINT "scan_requests_pkey", ADD CONSTRAINT "scan_requests_pkey" PRIMARY KEY ("id", "client_id");
--> statement-breakpoint
DROP INDEX "scan_requests_order_uq";
--> statement-breakpoint
CREATE UNIQUE INDEX "scan_requests_order_uq" ON "scan_requests" ("code_id", "client_id") WHERE "code_kind" = 'order' AND "status" <> 'rejected';
--> statement-breakpoint
DROP INDEX "scan_requests_token_uq";
--> statement-breakpoint
CREATE UNIQUE INDEX "scan_requests_token_uq" ON "scan_requests" ("token", "client_id");
--> statement-breakpoint
ALTER TABLE "store_settings" DROP CONSTRAINT "store_settings_pkey", ADD CONSTRAINT "store_settings_pkey" PRIMARY KEY ("store_id", "client_id");
--> statement-breakpoint
-- 4. The foreign keys again, each with its client_id.
ALTER TABLE "batch_rows" ADD CONSTRAINT "batch_rows_batch_fk" FOREIGN KEY ("batch_id", "client_id") REFERENCES "batches" ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "channel_number_counters" ADD CONSTRAINT "channel_number_counters_device_fk" FOREIGN KEY ("device_id", "client_id") REFERENCES "tax_devices" ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "channel_number_ranges" ADD CONSTRAINT "channel_number_ranges_device_fk" FOREIGN KEY ("device_id", "client_id") REFERENCES "tax_devices" ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "channel_sandbox_controls" ADD CONSTRAINT "channel_sandbox_controls_device_fk" FOREIGN KEY ("device_id", "client_id") REFERENCES "tax_devices" ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "device_filings" ADD CONSTRAINT "device_filings_device_fk" FOREIGN KEY ("device_id", "client_id") REFERENCES "tax_devices" ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "device_stores" ADD CONSTRAINT "device_stores_device_fk" FOREIGN KEY ("device_id", "client_id") REFERENCES "tax_devices" ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "device_stores" ADD CONSTRAINT "device_stores_store_fk" FOREIGN KEY ("store_id", "client_id") REFERENCES "client_stores" ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "device_trusteeships" ADD CONSTRAINT "device_trusteeships_device_fk" FOREIGN KEY ("device_id", "client_id") REFERENCES "tax_devices" ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_fk" FOREIGN KEY ("invoice_id", "client_id") REFERENCES "invoices" ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "realname_sessions" ADD CONSTRAINT "realname_sessions_device_fk" FOREIGN KEY ("device_id", "client_id") REFERENCES "tax_devices" ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "scan_codes" ADD CONSTRAINT "scan_codes_store_fk" FOREIGN KEY ("store_id", "client_id") REFERENCES "client_stores" ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "scan_requests" ADD CONSTRAINT "scan_requests_code_fk" FOREIGN KEY ("code_id", "client_id") REFERENCES "scan_codes" ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "scan_settings" ADD CONSTRAINT "scan_settings_store_fk" FOREIGN KEY ("store_id", "client_id") REFERENCES "client_stores" ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_device_fk" FOREIGN KEY ("device_id", "client_id") REFERENCES "tax_devices" ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "store_settings" ADD CONSTRAINT "store_settings_store_fk" FOREIGN KEY ("store_id", "client_id") REFERENCES "client_stores" ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "tax_accounts" ADD CONSTRAINT "tax_accounts_device_fk" FOREIGN KEY ("device_id", "client_id") REFERENCES "tax_devices" ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "trusteeship_grants" ADD CONSTRAINT "trusteeship_grants_device_fk" FOREIGN KEY ("device_id", "client_id") REFERENCES "tax_devices" ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "trusteeship_grants" ADD CONSTRAINT "trusteeship_grants_store_fk" FOREIGN KEY ("store_id", "client_id") REFERENCES "client_stores" ("id", "client_id");
--> statement-breakpoint
ALTER TABLE "trusteeship_grants" ADD CONSTRAINT "trusteeship_grants_trusteeship_fk" FOREIGN KEY ("trusteeship_id", "client_id") REFERENCES "device_trusteeships" ("id", "client_id");
