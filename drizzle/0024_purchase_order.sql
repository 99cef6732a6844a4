ALTER TABLE "payment_issue" DROP CONSTRAINT "payment_issue_reason_check";--> statement-breakpoint
ALTER TABLE "purchase" ADD COLUMN "first_purchase_id" uuid;--> statement-breakpoint
ALTER TABLE "test_checkout" ADD COLUMN "first_purchase_id" uuid;--> statement-breakpoint
ALTER TABLE "purchase" ADD CONSTRAINT "purchase_first_purchase_id_purchase_id_fk" FOREIGN KEY ("first_purchase_id") REFERENCES "public"."purchase"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_checkout" ADD CONSTRAINT "test_checkout_first_purchase_id_purchase_id_fk" FOREIGN KEY ("first_purchase_id") REFERENCES "public"."purchase"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "purchase_first_purchase_product_idx" ON "purchase" USING btree ("first_purchase_id","product") WHERE "purchase"."first_purchase_id" is not null;--> statement-breakpoint
ALTER TABLE "payment_issue" ADD CONSTRAINT "payment_issue_reason_check" CHECK ("payment_issue"."reason" in ('not-the-plan','unknown-user','already-bought'));--> statement-breakpoint
-- The order bumps bought before: added to the order of the plan paid with them.
UPDATE "purchase" AS b SET "first_purchase_id" = p."id" FROM "purchase" AS p
WHERE b."product" = 'bump-vip' AND p."provider" = b."provider"
  AND b."provider_ref" = p."provider_ref" || ':bump-vip';
