ALTER TABLE "refund" ADD COLUMN "user_id" text;--> statement-breakpoint
UPDATE "refund" r SET "user_id" = p."user_id" FROM "purchase" p WHERE p."id" = r."purchase_id";--> statement-breakpoint
ALTER TABLE "refund" ALTER COLUMN "user_id" SET NOT NULL;--> statement-breakpoint
-- The buyer too (decision 041): a member's spend, less refunds, sums refund rows by it.
CREATE OR REPLACE FUNCTION "refund_sale_columns"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT "user_id", "product", "provider", "currency"
  INTO NEW."user_id", NEW."product", NEW."provider", NEW."currency"
  FROM "purchase" WHERE "id" = NEW."purchase_id";
  RETURN NEW;
END
$$;
