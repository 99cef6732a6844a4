CREATE INDEX "chapter_view_course_user_idx" ON "chapter_view" USING btree ("course_id","user_id");--> statement-breakpoint
-- Chapters marked done before openings were recorded were opened: /admin/learning
-- counts openings from chapter_view alone.
INSERT INTO "chapter_view" ("user_id", "chapter_id", "course_id", "first_at")
  SELECT "user_id", "chapter_id", "course_id", "completed_at" FROM "chapter_progress"
  ON CONFLICT DO NOTHING;
