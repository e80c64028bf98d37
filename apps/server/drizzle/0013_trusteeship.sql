CREATE TABLE "device_trusteeships" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"mode" text NOT NULL,
	"status" text DEFAULT 'hosted' NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"contact_mobile" text DEFAULT '' NOT NULL,
	"handed_over_by" integer,
	"handed_over_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_by" integer,
	"revoked_at" timestamp with time zone,
	"revoke_reason" text DEFAULT '' NOT NULL,
	"revoked_store_ids" integer[]
);
--> statement-breakpoint
CREATE TABLE "trusteeship_grants" (
	"device_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	"trusteeship_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"granted_by" integer,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trusteeship_grants_device_id_store_id_pk" PRIMARY KEY("device_id","store_id")
);
--> statement-breakpoint
ALTER TABLE "device_trusteeships" ADD CONSTRAINT "device_trusteeships_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_trusteeships" ADD CONSTRAINT "device_trusteeships_device_id_tax_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."tax_devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trusteeship_grants" ADD CONSTRAINT "trusteeship_grants_device_id_tax_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."tax_devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trusteeship_grants" ADD CONSTRAINT "trusteeship_grants_store_id_client_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."client_stores"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trusteeship_grants" ADD CONSTRAINT "trusteeship_grants_trusteeship_id_device_trusteeships_id_fk" FOREIGN KEY ("trusteeship_id") REFERENCES "public"."device_trusteeships"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "device_trusteeships_hosted_uq" ON "device_trusteeships" USING btree ("device_id") WHERE "device_trusteeships"."status" = 'hosted';--> statement-breakpoint
CREATE INDEX "device_trusteeships_client_idx" ON "device_trusteeships" USING btree ("client_id","id");--> statement-breakpoint
CREATE INDEX "trusteeship_grants_store_idx" ON "trusteeship_grants" USING btree ("store_id");