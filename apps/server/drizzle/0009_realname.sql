CREATE TABLE "realname_sessions" (
	"client_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"tax_account" text NOT NULL,
	"tax_mobile" text NOT NULL,
	"person_name" text NOT NULL,
	"auth_way" text DEFAULT '1' NOT NULL,
	"ele_tax_login_type" text DEFAULT '1' NOT NULL,
	"auth_type" smallint DEFAULT 0 NOT NULL,
	"auth_status" smallint DEFAULT 0 NOT NULL,
	"login_expires_at" timestamp with time zone,
	"qr_token" text,
	"qr_issued_at" timestamp with time zone,
	"qr_expires_at" timestamp with time zone,
	"qr_day" text DEFAULT '' NOT NULL,
	"qr_day_count" integer DEFAULT 0 NOT NULL,
	"sms_code_hash" text,
	"sms_sent_at" timestamp with time zone,
	"sms_expires_at" timestamp with time zone,
	"sms_attempts" integer DEFAULT 0 NOT NULL,
	"sms_day" text DEFAULT '' NOT NULL,
	"sms_day_count" integer DEFAULT 0 NOT NULL,
	"sms_answer10000" smallint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "realname_sessions_client_id_device_id_pk" PRIMARY KEY("client_id","device_id")
);
--> statement-breakpoint
ALTER TABLE "realname_sessions" ADD CONSTRAINT "realname_sessions_device_id_tax_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."tax_devices"("id") ON DELETE no action ON UPDATE no action;