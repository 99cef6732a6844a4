CREATE TABLE "chapter_progress" (
	"user_id" text NOT NULL,
	"chapter_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"completed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chapter_progress_user_id_chapter_id_pk" PRIMARY KEY("user_id","chapter_id")
);
--> statement-breakpoint
CREATE TABLE "course_visit" (
	"user_id" text NOT NULL,
	"course_id" uuid NOT NULL,
	"chapter_id" uuid,
	"visited_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "course_visit_user_id_course_id_pk" PRIMARY KEY("user_id","course_id")
);
--> statement-breakpoint
ALTER TABLE "chapter_progress" ADD CONSTRAINT "chapter_progress_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chapter_progress" ADD CONSTRAINT "chapter_progress_chapter_id_chapter_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapter"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chapter_progress" ADD CONSTRAINT "chapter_progress_course_id_course_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."course"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_visit" ADD CONSTRAINT "course_visit_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_visit" ADD CONSTRAINT "course_visit_course_id_course_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."course"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_visit" ADD CONSTRAINT "course_visit_chapter_id_chapter_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapter"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chapter_progress_user_course_idx" ON "chapter_progress" USING btree ("user_id","course_id");--> statement-breakpoint
-- One position per chapter in a course. Deferred to commit, so that a swap of two
-- positions inside one transaction passes through the duplicate it briefly makes.
ALTER TABLE "chapter" ADD CONSTRAINT "chapter_course_sort_unique" UNIQUE ("course_id", "sort_order") DEFERRABLE INITIALLY DEFERRED;
