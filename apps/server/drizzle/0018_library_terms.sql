-- Invoice library search fast for every term (issue 25). 0004 searched buyer names with a GIN on
-- bigrams and let the planner choose; for some terms it chose badly (a one-character term that
-- matches nothing read the whole table; a term whose pairs always occur together sorted ~47k rows).
-- The search now picks its plan per term (modules/query/search-plan.ts) from how often the term's
-- rarest character or pair occurs in the business, and pins it (SET LOCAL):
--  - ordered: the covering index below scanned newest-first, the name filter evaluated on the index
--    tuple (index-only), stopping at the page / the count cap: best for common terms;
--  - grams: the GIN below on the two rarest keys, then recheck and sort: best for rare and absent
--    terms (one-character terms included: the keys are single characters and pairs).
--
-- GIN keys are '<client_id> <gram>' for every character and every pair of adjacent characters of the
-- lower-cased name, so a key's posting list is one business's rows only (a pair rare here but common
-- in another business stays cheap). lower() is PostgreSQL's, both for the rows and for the term.
CREATE OR REPLACE FUNCTION kp_name_grams(client integer, s text) RETURNS text[]
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
DECLARE
  t text := lower(s);
  p text := client::text || ' ';
  n integer := char_length(t);
  r text[] := '{}';
BEGIN
  FOR i IN 1 .. n LOOP
    r := r || (p || substr(t, i, 1));
    IF i < n THEN
      r := r || (p || substr(t, i, 2));
    END IF;
  END LOOP;
  RETURN r;
END
$$;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoices_lib_name_grams_idx"
  ON "invoices" USING gin (kp_name_grams("client_id", "buyer_name"));
--> statement-breakpoint
DROP INDEX IF EXISTS "invoices_lib_buyer_grams_idx";
--> statement-breakpoint
DROP FUNCTION IF EXISTS kp_bigrams(text);
--> statement-breakpoint
-- The list order with every column the library filters on, so a filtered ordered scan reads the
-- index only (issued_at and created_at themselves: an expression key does not make its columns
-- available to an index-only scan). Replaces 0004's invoices_lib_time_idx / _store_time_idx.
CREATE INDEX IF NOT EXISTS "invoices_lib_cover_idx"
  ON "invoices" ("client_id", (coalesce("issued_at", "created_at")) DESC, "id" DESC)
  INCLUDE ("store_id", "status", "red_status", "direction", "invoice_type", "total_with_tax", "issued_at",
    "created_at", "buyer_name", "buyer_tax_code", "invoice_no");
--> statement-breakpoint
DROP INDEX IF EXISTS "invoices_lib_time_idx";
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoices_lib_store_cover_idx"
  ON "invoices" ("client_id", "store_id", (coalesce("issued_at", "created_at")) DESC, "id" DESC)
  INCLUDE ("status", "red_status", "direction", "invoice_type", "total_with_tax", "issued_at",
    "created_at", "buyer_name", "buyer_tax_code", "invoice_no");
--> statement-breakpoint
DROP INDEX IF EXISTS "invoices_lib_store_time_idx";
--> statement-breakpoint
-- 购买方税号 (exact) newest first: a frequent buyer's page without sorting all its invoices.
DROP INDEX IF EXISTS "invoices_lib_buyer_tax_idx";
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoices_lib_buyer_tax_idx"
  ON "invoices" ("client_id", "buyer_tax_code", (coalesce("issued_at", "created_at")) DESC, "id" DESC);
--> statement-breakpoint
-- How often each GIN key occurs in a business's buyer names, estimated from a sample of its invoices
-- (every invoice when it has at most the sample size), by the job `library.term-stats`
-- (modules/query/term-stats.ts). Only the plan depends on it, never a result: a stale or missing
-- figure makes a search slower, not different.
-- With each business's invoice count, the span of their list times and their count per store: the
-- plan's estimate of how many rows a date range or a store filter leaves.
CREATE TABLE IF NOT EXISTS "library_term_stats" (
  "client_id" integer PRIMARY KEY NOT NULL REFERENCES "clients"("id"),
  "invoices" integer NOT NULL,
  "sampled" integer NOT NULL,
  "first_at" timestamp with time zone,
  "last_at" timestamp with time zone,
  "store_invoices" jsonb NOT NULL DEFAULT '{}'::jsonb,
  "refreshed_at" timestamp with time zone NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "library_term_grams" (
  "client_id" integer NOT NULL REFERENCES "clients"("id"),
  "gram" text NOT NULL,
  "n" integer NOT NULL,
  PRIMARY KEY ("client_id", "gram")
);
