-- Login lockout per account name, known or unknown (issue 21 M1/L4): attempts are reserved
-- atomically before the password is checked. Carries the users' current counts over.
CREATE TABLE "login_attempts" (
	"account" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
INSERT INTO "login_attempts" ("account", "failures", "locked_until")
  SELECT "account", "failed_logins", "locked_until" FROM "users"
  WHERE "failed_logins" > 0 OR "locked_until" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "failed_logins";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "locked_until";
