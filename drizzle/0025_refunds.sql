CREATE TABLE "refund" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"purchase_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"provider_ref" text,
	"request_key" text,
	"created_day" date GENERATED ALWAYS AS ((created_at at time zone 'UTC')::date) STORED,
	CONSTRAINT "refund_amount_check" CHECK ("refund"."amount_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "refund" ADD CONSTRAINT "refund_purchase_id_purchase_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchase"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refund_purchase_idx" ON "refund" USING btree ("purchase_id");--> statement-breakpoint
CREATE INDEX "refund_created_at_idx" ON "refund" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "refund_provider_ref_idx" ON "refund" USING btree ("provider_ref") WHERE "refund"."provider_ref" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "refund_request_key_idx" ON "refund" USING btree ("request_key") WHERE "refund"."request_key" is not null;--> statement-breakpoint
-- A purchase that becomes refunded (written refunded, or its status changed to
-- refunded: a provider's refund notification, a lost dispute) gets a refund row
-- for what was not yet paid back, dated when it was refunded. A refund from the
-- console writes its own row first, so a full refund made there adds nothing here.
CREATE FUNCTION "refund_remainder"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."status" = 'refunded' AND (TG_OP = 'INSERT' OR OLD."status" <> 'refunded') THEN
    INSERT INTO "refund" ("purchase_id", "amount_cents", "created_at")
    SELECT NEW."id", NEW."amount_cents" - paid_back, coalesce(NEW."refunded_at", now())
    FROM (SELECT coalesce(sum("amount_cents"), 0) AS paid_back FROM "refund"
      WHERE "purchase_id" = NEW."id") r
    WHERE NEW."amount_cents" - paid_back > 0;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "purchase_refund_remainder" AFTER INSERT OR UPDATE OF "status" ON "purchase"
  FOR EACH ROW EXECUTE FUNCTION "refund_remainder"();
--> statement-breakpoint
-- The refunds recorded so far: each refunded purchase was paid back in full on its refund day.
INSERT INTO "refund" ("purchase_id", "amount_cents", "created_at")
SELECT "id", "amount_cents", coalesce("refunded_at", "created_at") FROM "purchase"
WHERE "status" = 'refunded' AND "amount_cents" > 0;
