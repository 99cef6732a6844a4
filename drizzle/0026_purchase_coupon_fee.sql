ALTER TABLE "purchase" ADD COLUMN "coupon_code" text;--> statement-breakpoint
ALTER TABLE "purchase" ADD COLUMN "fee_cents" integer;