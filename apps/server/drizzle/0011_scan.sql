CREATE TABLE "scan_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	"kind" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"token" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"order_no" text,
	"amount" numeric(18, 2),
	"items" jsonb,
	"hotel_stay" jsonb,
	"remark" text DEFAULT '' NOT NULL,
	"expires_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scan_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	"code_id" integer NOT NULL,
	"code_kind" text NOT NULL,
	"order_no" text,
	"token" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"title_type" smallint NOT NULL,
	"buyer_name" text NOT NULL,
	"buyer_tax_code" text DEFAULT '' NOT NULL,
	"buyer_address" text DEFAULT '' NOT NULL,
	"buyer_phone" text DEFAULT '' NOT NULL,
	"buyer_bank_name" text DEFAULT '' NOT NULL,
	"buyer_bank_account" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"mobile" text DEFAULT '' NOT NULL,
	"buyer_remark" text DEFAULT '' NOT NULL,
	"amount" numeric(18, 2),
	"items" jsonb,
	"hotel_stay" jsonb,
	"invoice_type" text,
	"serial_no" text,
	"issue_request" jsonb,
	"invoice_id" bigint,
	"reject_reason" text DEFAULT '' NOT NULL,
	"error_message" text,
	"submit_ip" text DEFAULT '' NOT NULL,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scan_settings" (
	"client_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	"mode" text DEFAULT 'audit' NOT NULL,
	"device_id" integer,
	"invoice_type" text DEFAULT '82' NOT NULL,
	"default_valid_minutes" integer DEFAULT 1440 NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scan_settings_client_id_store_id_pk" PRIMARY KEY("client_id","store_id")
);
--> statement-breakpoint
ALTER TABLE "scan_codes" ADD CONSTRAINT "scan_codes_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_codes" ADD CONSTRAINT "scan_codes_store_id_client_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."client_stores"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_requests" ADD CONSTRAINT "scan_requests_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_requests" ADD CONSTRAINT "scan_requests_code_id_scan_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."scan_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_settings" ADD CONSTRAINT "scan_settings_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_settings" ADD CONSTRAINT "scan_settings_store_id_client_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."client_stores"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "scan_codes_token_uq" ON "scan_codes" USING btree ("token");--> statement-breakpoint
CREATE UNIQUE INDEX "scan_codes_store_uq" ON "scan_codes" USING btree ("client_id","store_id") WHERE "scan_codes"."kind" = 'store';--> statement-breakpoint
CREATE UNIQUE INDEX "scan_codes_order_uq" ON "scan_codes" USING btree ("client_id","order_no") WHERE "scan_codes"."order_no" is not null;--> statement-breakpoint
CREATE INDEX "scan_codes_client_store_idx" ON "scan_codes" USING btree ("client_id","store_id","kind","id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "scan_requests_token_uq" ON "scan_requests" USING btree ("token");--> statement-breakpoint
CREATE UNIQUE INDEX "scan_requests_order_uq" ON "scan_requests" USING btree ("code_id") WHERE "scan_requests"."code_kind" = 'order' and "scan_requests"."status" <> 'rejected';--> statement-breakpoint
CREATE UNIQUE INDEX "scan_requests_serial_uq" ON "scan_requests" USING btree ("client_id","serial_no") WHERE "scan_requests"."serial_no" is not null and "scan_requests"."status" <> 'rejected';--> statement-breakpoint
CREATE INDEX "scan_requests_queue_idx" ON "scan_requests" USING btree ("client_id","status","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "scan_requests_store_idx" ON "scan_requests" USING btree ("client_id","store_id","id" DESC NULLS LAST);