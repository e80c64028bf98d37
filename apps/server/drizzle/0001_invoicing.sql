CREATE TABLE "device_stores" (
	"device_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	CONSTRAINT "device_stores_device_id_store_id_pk" PRIMARY KEY("device_id","store_id")
);
--> statement-breakpoint
CREATE TABLE "invoice_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"invoice_id" bigint NOT NULL,
	"client_id" integer NOT NULL,
	"kind" text NOT NULL,
	"user_id" integer,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_files" (
	"invoice_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"client_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"content" "bytea" NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_files_invoice_id_kind_pk" PRIMARY KEY("invoice_id","kind")
);
--> statement-breakpoint
CREATE TABLE "invoice_lines" (
	"invoice_id" bigint NOT NULL,
	"line_no" integer NOT NULL,
	"client_id" integer NOT NULL,
	"line_kind" smallint DEFAULT 0 NOT NULL,
	"goods_id" integer,
	"tax_class_code" text NOT NULL,
	"short_name" text NOT NULL,
	"item_name" text NOT NULL,
	"full_name" text NOT NULL,
	"spec" text DEFAULT '' NOT NULL,
	"unit" text DEFAULT '' NOT NULL,
	"quantity" numeric(24, 8),
	"unit_price" numeric(24, 8),
	"unit_price_with_tax" numeric(24, 8),
	"amount" numeric(18, 2) NOT NULL,
	"tax_rate" numeric(7, 4) NOT NULL,
	"tax_amount" numeric(18, 2) NOT NULL,
	"amount_with_tax" numeric(18, 2) NOT NULL,
	"preferential_code" text DEFAULT '' NOT NULL,
	"zero_rate_flag" text DEFAULT '' NOT NULL,
	CONSTRAINT "invoice_lines_invoice_id_line_no_pk" PRIMARY KEY("invoice_id","line_no")
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"serial_no" text NOT NULL,
	"request_hash" text NOT NULL,
	"source" text DEFAULT 'online' NOT NULL,
	"invoice_type" text NOT NULL,
	"direction" text DEFAULT 'blue' NOT NULL,
	"status" text DEFAULT 'issuing' NOT NULL,
	"red_status" text DEFAULT 'none' NOT NULL,
	"invoice_code" text DEFAULT '' NOT NULL,
	"invoice_no" text,
	"check_code" text DEFAULT '' NOT NULL,
	"issued_at" timestamp with time zone,
	"buyer_title_type" smallint DEFAULT 2 NOT NULL,
	"buyer_name" text NOT NULL,
	"buyer_tax_code" text DEFAULT '' NOT NULL,
	"buyer_address" text DEFAULT '' NOT NULL,
	"buyer_phone" text DEFAULT '' NOT NULL,
	"buyer_bank_name" text DEFAULT '' NOT NULL,
	"buyer_bank_account" text DEFAULT '' NOT NULL,
	"buyer_email" text DEFAULT '' NOT NULL,
	"buyer_mobile" text DEFAULT '' NOT NULL,
	"seller_name" text NOT NULL,
	"seller_tax_code" text NOT NULL,
	"seller_address" text DEFAULT '' NOT NULL,
	"seller_phone" text DEFAULT '' NOT NULL,
	"seller_bank_name" text DEFAULT '' NOT NULL,
	"seller_bank_account" text DEFAULT '' NOT NULL,
	"price_includes_tax" boolean DEFAULT true NOT NULL,
	"total_amount" numeric(18, 2) NOT NULL,
	"total_tax" numeric(18, 2) NOT NULL,
	"total_with_tax" numeric(18, 2) NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"drawer" text DEFAULT '' NOT NULL,
	"payee" text DEFAULT '' NOT NULL,
	"reviewer" text DEFAULT '' NOT NULL,
	"specific_business_code" text,
	"specific_business" jsonb,
	"original_invoice_id" bigint,
	"red_form_id" bigint,
	"qr_string" text DEFAULT '' NOT NULL,
	"error_code" text,
	"error_message" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tax_devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"kind" text NOT NULL,
	"channel" text DEFAULT '' NOT NULL,
	"name" text NOT NULL,
	"device_no" text NOT NULL,
	"extension_no" integer DEFAULT 0 NOT NULL,
	"parent_id" integer,
	"terminal_no" text DEFAULT '' NOT NULL,
	"area_code" text DEFAULT '33' NOT NULL,
	"invoice_types" text[] DEFAULT '{}'::text[] NOT NULL,
	"per_invoice_limit" numeric(18, 2) DEFAULT '99999999.99' NOT NULL,
	"monthly_quota" numeric(18, 2),
	"quota_used" numeric(18, 2) DEFAULT '0' NOT NULL,
	"quota_month" text DEFAULT '' NOT NULL,
	"online" boolean DEFAULT true NOT NULL,
	"locked" boolean DEFAULT false NOT NULL,
	"hosted" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_stores" ADD CONSTRAINT "device_stores_device_id_tax_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."tax_devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_stores" ADD CONSTRAINT "device_stores_store_id_client_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."client_stores"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_devices" ADD CONSTRAINT "tax_devices_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_stores_store_idx" ON "device_stores" USING btree ("store_id");--> statement-breakpoint
CREATE INDEX "invoice_events_invoice_idx" ON "invoice_events" USING btree ("invoice_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_serial_uq" ON "invoices" USING btree ("client_id","serial_no");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number_uq" ON "invoices" USING btree ("device_id","invoice_type","invoice_code","invoice_no") WHERE "invoices"."invoice_no" is not null;--> statement-breakpoint
CREATE INDEX "invoices_client_issued_idx" ON "invoices" USING btree ("client_id","issued_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "invoices_client_store_issued_idx" ON "invoices" USING btree ("client_id","store_id","issued_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "invoices_client_no_idx" ON "invoices" USING btree ("client_id","invoice_no");--> statement-breakpoint
CREATE INDEX "invoices_original_idx" ON "invoices" USING btree ("original_invoice_id");--> statement-breakpoint
CREATE INDEX "tax_devices_client_idx" ON "tax_devices" USING btree ("client_id");