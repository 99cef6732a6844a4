ALTER TABLE "refund" ADD COLUMN "product" text;--> statement-breakpoint
ALTER TABLE "refund" ADD COLUMN "provider" text;--> statement-breakpoint
ALTER TABLE "refund" ADD COLUMN "currency" text;--> statement-breakpoint
UPDATE "refund" r SET "product" = p."product", "provider" = p."provider", "currency" = p."currency"
FROM "purchase" p WHERE p."id" = r."purchase_id";--> statement-breakpoint
ALTER TABLE "refund" ALTER COLUMN "product" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "refund" ALTER COLUMN "provider" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "refund" ALTER COLUMN "currency" SET NOT NULL;--> statement-breakpoint
-- Every refund row, however written (the console, the purchase's refund_remainder
-- trigger, SQL by hand), carries its purchase's product, provider and currency as the
-- purchase has them: the refund figures group by them without a join to the purchases.
CREATE FUNCTION "refund_sale_columns"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT "product", "provider", "currency" INTO NEW."product", NEW."provider", NEW."currency"
  FROM "purchase" WHERE "id" = NEW."purchase_id";
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "refund_sale_columns" BEFORE INSERT ON "refund"
  FOR EACH ROW EXECUTE FUNCTION "refund_sale_columns"();
