CREATE TABLE "page_version" (
	"key" text PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 1 NOT NULL
);
--> statement-breakpoint
-- Member pages are kept rendered for the versions of what they show
-- (docs/decisions/009-page-cache-by-dependency.md). Every write to a table they
-- read bumps a version in the same transaction, so a page kept from before the
-- write is never served after it commits, whichever process or tool wrote it.
CREATE FUNCTION "bump_page_version"("k" text) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "page_version" ("key", "version") VALUES (k, 1)
  ON CONFLICT ("key") DO UPDATE SET "version" = "page_version"."version" + 1
$$;
--> statement-breakpoint
-- Row trigger: bumps user:{id} for the user the old and the new row belong to;
-- TG_ARGV[0] names the column holding the user's id.
CREATE FUNCTION "page_version_of_user"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_user text;
  new_user text;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    old_user := to_jsonb(OLD) ->> TG_ARGV[0];
    PERFORM "bump_page_version"('user:' || old_user);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    new_user := to_jsonb(NEW) ->> TG_ARGV[0];
    IF old_user IS DISTINCT FROM new_user THEN
      PERFORM "bump_page_version"('user:' || new_user);
    END IF;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Statement trigger: what every member's pages show changed (courses, chapters,
-- or a tracked table emptied at once, which fires no row trigger): bumps `shared`.
CREATE FUNCTION "page_version_of_everyone"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "bump_page_version"('shared');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "user_page_version" AFTER INSERT OR UPDATE OR DELETE ON "user"
  FOR EACH ROW EXECUTE FUNCTION "page_version_of_user"('id');
--> statement-breakpoint
CREATE TRIGGER "session_page_version" AFTER INSERT OR UPDATE OR DELETE ON "session"
  FOR EACH ROW EXECUTE FUNCTION "page_version_of_user"('user_id');
--> statement-breakpoint
CREATE TRIGGER "purchase_page_version" AFTER INSERT OR UPDATE OR DELETE ON "purchase"
  FOR EACH ROW EXECUTE FUNCTION "page_version_of_user"('user_id');
--> statement-breakpoint
CREATE TRIGGER "chapter_progress_page_version" AFTER INSERT OR UPDATE OR DELETE ON "chapter_progress"
  FOR EACH ROW EXECUTE FUNCTION "page_version_of_user"('user_id');
--> statement-breakpoint
CREATE TRIGGER "course_visit_page_version" AFTER INSERT OR UPDATE OR DELETE ON "course_visit"
  FOR EACH ROW EXECUTE FUNCTION "page_version_of_user"('user_id');
--> statement-breakpoint
CREATE TRIGGER "two_factor_page_version" AFTER INSERT OR UPDATE OR DELETE ON "two_factor"
  FOR EACH ROW EXECUTE FUNCTION "page_version_of_user"('user_id');
--> statement-breakpoint
CREATE TRIGGER "course_page_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "course"
  FOR EACH STATEMENT EXECUTE FUNCTION "page_version_of_everyone"();
--> statement-breakpoint
CREATE TRIGGER "chapter_page_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "chapter"
  FOR EACH STATEMENT EXECUTE FUNCTION "page_version_of_everyone"();
--> statement-breakpoint
CREATE TRIGGER "user_truncate_page_version" AFTER TRUNCATE ON "user"
  FOR EACH STATEMENT EXECUTE FUNCTION "page_version_of_everyone"();
--> statement-breakpoint
CREATE TRIGGER "session_truncate_page_version" AFTER TRUNCATE ON "session"
  FOR EACH STATEMENT EXECUTE FUNCTION "page_version_of_everyone"();
--> statement-breakpoint
CREATE TRIGGER "purchase_truncate_page_version" AFTER TRUNCATE ON "purchase"
  FOR EACH STATEMENT EXECUTE FUNCTION "page_version_of_everyone"();
--> statement-breakpoint
CREATE TRIGGER "chapter_progress_truncate_page_version" AFTER TRUNCATE ON "chapter_progress"
  FOR EACH STATEMENT EXECUTE FUNCTION "page_version_of_everyone"();
--> statement-breakpoint
CREATE TRIGGER "course_visit_truncate_page_version" AFTER TRUNCATE ON "course_visit"
  FOR EACH STATEMENT EXECUTE FUNCTION "page_version_of_everyone"();
--> statement-breakpoint
CREATE TRIGGER "two_factor_truncate_page_version" AFTER TRUNCATE ON "two_factor"
  FOR EACH STATEMENT EXECUTE FUNCTION "page_version_of_everyone"();
