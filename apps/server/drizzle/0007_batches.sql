CREATE TABLE "batch_rows" (
	"batch_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"client_id" integer NOT NULL,
	"source_serial" text NOT NULL,
	"source_row" integer NOT NULL,
	"part_no" smallint DEFAULT 1 NOT NULL,
	"part_count" smallint DEFAULT 1 NOT NULL,
	"serial_no" text NOT NULL,
	"invoice_type" text NOT NULL,
	"buyer_name" text NOT NULL,
	"line_count" integer NOT NULL,
	"total_amount" numeric(18, 2) NOT NULL,
	"total_tax" numeric(18, 2) NOT NULL,
	"total_with_tax" numeric(18, 2) NOT NULL,
	"request" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"worker" integer,
	"attempts" integer DEFAULT 0 NOT NULL,
	"invoice_id" bigint,
	"invoice_code" text DEFAULT '' NOT NULL,
	"invoice_no" text,
	"issued_at" timestamp with time zone,
	"error_code" text,
	"error_message" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "batch_rows_batch_id_seq_pk" PRIMARY KEY("batch_id","seq")
);
--> statement-breakpoint
CREATE TABLE "batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"invoice_type" text NOT NULL,
	"file_name" text NOT NULL,
	"file_sha256" text NOT NULL,
	"status" text DEFAULT 'ready' NOT NULL,
	"pause_reason" text DEFAULT '' NOT NULL,
	"send_email" boolean DEFAULT false NOT NULL,
	"source_count" integer NOT NULL,
	"invoice_count" integer NOT NULL,
	"line_count" integer NOT NULL,
	"split_sources" integer DEFAULT 0 NOT NULL,
	"total_amount" numeric(18, 2) NOT NULL,
	"total_tax" numeric(18, 2) NOT NULL,
	"total_with_tax" numeric(18, 2) NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "batch_rows" ADD CONSTRAINT "batch_rows_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "batch_rows_serial_uq" ON "batch_rows" USING btree ("client_id","serial_no");--> statement-breakpoint
CREATE INDEX "batch_rows_batch_status_idx" ON "batch_rows" USING btree ("batch_id","status","seq");--> statement-breakpoint
CREATE INDEX "batches_client_created_idx" ON "batches" USING btree ("client_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "batches_status_idx" ON "batches" USING btree ("status");