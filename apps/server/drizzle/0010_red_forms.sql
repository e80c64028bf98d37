CREATE TABLE "red_forms" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"blue_invoice_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"form_no" text DEFAULT '' NOT NULL,
	"initiator" text DEFAULT 'seller' NOT NULL,
	"reason" text NOT NULL,
	"full" boolean NOT NULL,
	"state" text NOT NULL,
	"total_amount" numeric(18, 2) NOT NULL,
	"total_tax" numeric(18, 2) NOT NULL,
	"total_with_tax" numeric(18, 2) NOT NULL,
	"lines" jsonb NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"red_invoice_id" bigint,
	"expires_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_invoice_states" (
	"client_id" integer NOT NULL,
	"invoice_id" bigint NOT NULL,
	"buyer_used" boolean DEFAULT false NOT NULL,
	"voided_at" timestamp with time zone,
	"void_reason" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_invoice_states_client_id_invoice_id_pk" PRIMARY KEY("client_id","invoice_id")
);
--> statement-breakpoint
ALTER TABLE "red_forms" ADD CONSTRAINT "red_forms_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "red_forms_client_created_idx" ON "red_forms" USING btree ("client_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "red_forms_blue_idx" ON "red_forms" USING btree ("blue_invoice_id");--> statement-breakpoint
CREATE INDEX "red_forms_pending_expiry_idx" ON "red_forms" USING btree ("expires_at") WHERE "red_forms"."state" in ('02', '03');