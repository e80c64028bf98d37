CREATE TABLE "export_records" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"kind" text NOT NULL,
	"filters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"invoice_ids" bigint[],
	"store_ids" integer[],
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"row_count" integer DEFAULT 0 NOT NULL,
	"file_name" text DEFAULT '' NOT NULL,
	"file_path" text,
	"file_size" bigint,
	"error" text,
	"created_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "home_prompt_states" (
	"user_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"prompt" text NOT NULL,
	"never" boolean DEFAULT false NOT NULL,
	"confirmed_on" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "home_prompt_states_user_id_client_id_prompt_pk" PRIMARY KEY("user_id","client_id","prompt")
);
--> statement-breakpoint
ALTER TABLE "export_records" ADD CONSTRAINT "export_records_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "home_prompt_states" ADD CONSTRAINT "home_prompt_states_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "export_records_client_created_idx" ON "export_records" USING btree ("client_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);