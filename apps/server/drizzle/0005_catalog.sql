CREATE TABLE "buyer_titles" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"title_type" smallint DEFAULT 2 NOT NULL,
	"name" text NOT NULL,
	"tax_code" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"bank_name" text DEFAULT '' NOT NULL,
	"bank_account" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"mobile" text DEFAULT '' NOT NULL,
	"use_count" integer DEFAULT 0 NOT NULL,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "goods" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"name" text NOT NULL,
	"tax_class_code" text NOT NULL,
	"short_name" text NOT NULL,
	"spec" text DEFAULT '' NOT NULL,
	"unit" text DEFAULT '' NOT NULL,
	"price" numeric(24, 8),
	"price_includes_tax" boolean DEFAULT true NOT NULL,
	"tax_rate" numeric(7, 4) NOT NULL,
	"preferential_code" text DEFAULT '' NOT NULL,
	"zero_rate_flag" text DEFAULT '' NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tax_class_codes" (
	"code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"short_name" text NOT NULL,
	"rates" text[] DEFAULT '{}'::text[] NOT NULL,
	"levy_rates" text[] DEFAULT '{}'::text[] NOT NULL,
	"preferential_options" text[] DEFAULT '{}'::text[] NOT NULL,
	"is_summary" boolean DEFAULT false NOT NULL,
	"special_business" text,
	"keywords" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "buyer_titles" ADD CONSTRAINT "buyer_titles_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "goods" ADD CONSTRAINT "goods_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "buyer_titles_name_uq" ON "buyer_titles" USING btree ("client_id","name");--> statement-breakpoint
CREATE INDEX "buyer_titles_tax_code_idx" ON "buyer_titles" USING btree ("client_id","tax_code");--> statement-breakpoint
CREATE INDEX "buyer_titles_usage_idx" ON "buyer_titles" USING btree ("client_id","use_count" DESC NULLS LAST,"last_used_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "goods_name_spec_uq" ON "goods" USING btree ("client_id","name","spec");--> statement-breakpoint
CREATE UNIQUE INDEX "goods_default_uq" ON "goods" USING btree ("client_id") WHERE "goods"."is_default";--> statement-breakpoint
CREATE INDEX "goods_client_updated_idx" ON "goods" USING btree ("client_id","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "tax_class_codes_short_name_idx" ON "tax_class_codes" USING btree ("short_name");