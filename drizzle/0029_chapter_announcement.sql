ALTER TABLE "broadcast" ADD COLUMN "chapter_id" uuid;--> statement-breakpoint
ALTER TABLE "broadcast" ADD CONSTRAINT "broadcast_chapter_id_chapter_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapter"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "broadcast_chapter_id_idx" ON "broadcast" USING btree ("chapter_id");