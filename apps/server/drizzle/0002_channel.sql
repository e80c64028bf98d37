CREATE TABLE "channel_number_counters" (
	"device_id" integer NOT NULL,
	"series" text NOT NULL,
	"year" integer NOT NULL,
	"client_id" integer NOT NULL,
	"last_seq" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "channel_number_counters_device_id_series_year_pk" PRIMARY KEY("device_id","series","year")
);
--> statement-breakpoint
CREATE TABLE "channel_number_ranges" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"invoice_type" text NOT NULL,
	"invoice_code" text NOT NULL,
	"start_no" integer NOT NULL,
	"end_no" integer NOT NULL,
	"next_no" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channel_sandbox_controls" (
	"device_id" integer PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"latency_ms" integer DEFAULT 0 NOT NULL,
	"fault" text DEFAULT 'none' NOT NULL,
	"fault_code" text DEFAULT '' NOT NULL,
	"fault_message" text DEFAULT '' NOT NULL,
	"fault_remaining" integer,
	"timeout_ms" integer DEFAULT 1000 NOT NULL,
	"unknown_visible_after_s" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channel_sandbox_issues" (
	"client_id" integer NOT NULL,
	"serial_no" text NOT NULL,
	"device_id" integer NOT NULL,
	"invoice_type" text NOT NULL,
	"invoice_code" text DEFAULT '' NOT NULL,
	"invoice_no" text NOT NULL,
	"check_code" text DEFAULT '' NOT NULL,
	"total_amount" numeric(18, 2) NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"visible_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "channel_sandbox_issues_client_id_serial_no_pk" PRIMARY KEY("client_id","serial_no")
);
--> statement-breakpoint
ALTER TABLE "channel_number_counters" ADD CONSTRAINT "channel_number_counters_device_id_tax_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."tax_devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_number_ranges" ADD CONSTRAINT "channel_number_ranges_device_id_tax_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."tax_devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_sandbox_controls" ADD CONSTRAINT "channel_sandbox_controls_device_id_tax_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."tax_devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "channel_number_ranges_device_idx" ON "channel_number_ranges" USING btree ("device_id","invoice_type","id");--> statement-breakpoint
CREATE UNIQUE INDEX "channel_number_ranges_code_uq" ON "channel_number_ranges" USING btree ("invoice_code","start_no");