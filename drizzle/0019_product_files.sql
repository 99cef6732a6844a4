CREATE TABLE "product_file" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product" text NOT NULL,
	"name" text NOT NULL,
	"stored_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_file_stored_name_unique" UNIQUE("stored_name"),
	CONSTRAINT "product_file_product_check" CHECK ("product_file"."product" in ('lifetime-access','bump-vip','white-label','custom-saas'))
);
--> statement-breakpoint
CREATE INDEX "product_file_product_idx" ON "product_file" USING btree ("product","created_at");