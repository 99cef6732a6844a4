CREATE TABLE "saved_idea" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"title" text NOT NULL,
	"idea" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chapter" ADD COLUMN "published" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "course" ADD COLUMN "published" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "course" ADD COLUMN "sort_order" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "course" ADD COLUMN "cover_image_url" text;--> statement-breakpoint
ALTER TABLE "course" ADD COLUMN "cover_alt" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "saved_idea" ADD CONSTRAINT "saved_idea_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "saved_idea_user_idx" ON "saved_idea" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "course_sort_idx" ON "course" USING btree ("sort_order","created_at");--> statement-breakpoint
-- The dashboard listed courses oldest first: that becomes the admin's order.
UPDATE "course" SET "sort_order" = "ordered"."n"
  FROM (SELECT "id", row_number() OVER (ORDER BY "created_at", "id") - 1 AS "n" FROM "course") AS "ordered"
  WHERE "course"."id" = "ordered"."id";
--> statement-breakpoint
-- A member's saved ideas are on their own pages: versioned like their progress.
CREATE TRIGGER "saved_idea_page_version" AFTER INSERT OR UPDATE OR DELETE ON "saved_idea"
  FOR EACH ROW EXECUTE FUNCTION "page_version_of_user"('user_id');
--> statement-breakpoint
CREATE TRIGGER "saved_idea_truncate_page_version" AFTER TRUNCATE ON "saved_idea"
  FOR EACH STATEMENT EXECUTE FUNCTION "page_version_of_everyone"();
