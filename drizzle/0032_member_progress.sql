CREATE TABLE "member_progress" (
	"user_id" text PRIMARY KEY NOT NULL,
	"marks" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "member_progress" ADD CONSTRAINT "member_progress_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "member_progress" ("user_id", "marks")
SELECT "user_id", count(*)::int FROM "chapter_progress" GROUP BY "user_id";--> statement-breakpoint
-- Every write to chapter_progress, however made (a member's mark, an account's deletion,
-- a course's, SQL by hand), moves its members' counts in the same transaction: one
-- statement per write, over the rows it changed (its transition tables).
CREATE FUNCTION "member_progress_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM "member_progress";
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE "member_progress" mp SET "marks" = mp."marks" - gone.n
    FROM (SELECT "user_id", count(*)::int AS n FROM old_marks GROUP BY "user_id") gone
    WHERE mp."user_id" = gone."user_id";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "member_progress" ("user_id", "marks")
    SELECT "user_id", count(*)::int FROM new_marks GROUP BY "user_id"
    ON CONFLICT ("user_id") DO UPDATE SET "marks" = "member_progress"."marks" + excluded."marks";
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "member_progress_insert" AFTER INSERT ON "chapter_progress"
  REFERENCING NEW TABLE AS new_marks
  FOR EACH STATEMENT EXECUTE FUNCTION "member_progress_count"();
--> statement-breakpoint
CREATE TRIGGER "member_progress_update" AFTER UPDATE ON "chapter_progress"
  REFERENCING OLD TABLE AS old_marks NEW TABLE AS new_marks
  FOR EACH STATEMENT EXECUTE FUNCTION "member_progress_count"();
--> statement-breakpoint
CREATE TRIGGER "member_progress_delete" AFTER DELETE ON "chapter_progress"
  REFERENCING OLD TABLE AS old_marks
  FOR EACH STATEMENT EXECUTE FUNCTION "member_progress_count"();
--> statement-breakpoint
CREATE TRIGGER "member_progress_truncate" AFTER TRUNCATE ON "chapter_progress"
  FOR EACH STATEMENT EXECUTE FUNCTION "member_progress_count"();
