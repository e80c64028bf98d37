CREATE TABLE "device_filings" (
	"client_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"period" text NOT NULL,
	"copied_at" timestamp with time zone,
	"cleared_at" timestamp with time zone,
	"invoice_count" integer DEFAULT 0 NOT NULL,
	"total_amount" numeric(18, 2) DEFAULT '0' NOT NULL,
	"total_tax" numeric(18, 2) DEFAULT '0' NOT NULL,
	"upload_no" text DEFAULT '' NOT NULL,
	"user_id" integer,
	CONSTRAINT "device_filings_device_id_period_pk" PRIMARY KEY("device_id","period")
);
--> statement-breakpoint
CREATE TABLE "stock_movements" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"kind" text NOT NULL,
	"device_id" integer NOT NULL,
	"target_device_id" integer,
	"invoice_type" text NOT NULL,
	"count" integer NOT NULL,
	"invoice_code" text DEFAULT '' NOT NULL,
	"start_no" integer,
	"end_no" integer,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "store_settings" (
	"store_id" integer PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"default_invoice_types" text[] DEFAULT '{}'::text[] NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tax_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"device_id" integer,
	"account" text NOT NULL,
	"password_enc" text NOT NULL,
	"phone" text NOT NULL,
	"identity" text DEFAULT '03' NOT NULL,
	"person_name" text DEFAULT '' NOT NULL,
	"channel" text DEFAULT 'GP900000' NOT NULL,
	"white_listed" boolean DEFAULT false NOT NULL,
	"login_state" text DEFAULT 'offline' NOT NULL,
	"real_name_state" text DEFAULT 'none' NOT NULL,
	"session_expires_at" timestamp with time zone,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_filings" ADD CONSTRAINT "device_filings_device_id_tax_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."tax_devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_device_id_tax_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."tax_devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_settings" ADD CONSTRAINT "store_settings_store_id_client_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."client_stores"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_accounts" ADD CONSTRAINT "tax_accounts_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_accounts" ADD CONSTRAINT "tax_accounts_device_id_tax_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."tax_devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stock_movements_client_idx" ON "stock_movements" USING btree ("client_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "tax_accounts_account_uq" ON "tax_accounts" USING btree ("client_id","account");--> statement-breakpoint
CREATE INDEX "tax_accounts_device_idx" ON "tax_accounts" USING btree ("device_id");