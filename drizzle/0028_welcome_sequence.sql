ALTER TABLE "broadcast" ADD COLUMN "sequence" text;--> statement-breakpoint
ALTER TABLE "broadcast" ADD COLUMN "sequence_day" integer;--> statement-breakpoint
ALTER TABLE "broadcast" ADD COLUMN "active" boolean DEFAULT true NOT NULL;--> statement-breakpoint
-- The welcome sequence the product ships with: days 0, 1, 3 and 7 after a purchase of the
-- plan, each pointing at the demo course's next chapter (the training area if it is gone).
-- The owner edits or switches off each step at /admin/email.
WITH demo AS (
  SELECT c.id, c.course_id, row_number() OVER (ORDER BY c.sort_order, c.id) AS n
  FROM "chapter" c WHERE c.course_id = '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c01'
), link AS (
  SELECT n, '/course/' || course_id || '?chapter=' || id AS href FROM demo
)
INSERT INTO "broadcast" ("subject", "body_html", "audience", "created_by", "sequence", "sequence_day")
SELECT step.subject, replace(step.body, '{link}', coalesce((SELECT href FROM link WHERE link.n = step.chapter), '/dashboard')),
  '{}'::jsonb, 'AI Labs', 'welcome', step.day
FROM (VALUES
  (0, 1, 'Welcome to AI Labs: start here',
   '<p>Welcome aboard, and thank you for joining.</p><p>Over the next seven days you go from an idea to a launched AI app. Each chapter ends with one task: do it before you move on.</p><p><a href="{link}">Open the first chapter: how to use this course</a></p>'),
  (1, 2, 'Day 1: pick a problem worth paying for',
   '<p>Good first apps solve one narrow, repeated problem for people who already spend money on it.</p><p>Today, open the Idea Generator and shortlist three ideas.</p><p><a href="{link}">Read today''s chapter</a></p>'),
  (3, 3, 'Day 3: write the prompt that builds your app',
   '<p>You have an idea. Now describe the app so well that it can be built from one prompt: who it is for, the one thing it does, its screens and how users pay.</p><p><a href="{link}">Read the chapter and run your first build</a></p>'),
  (7, 0, 'Day 7: launch week',
   '<p>A week in. Wherever you are in the course, the next step is waiting in your training area.</p><p><a href="/dashboard">Pick up where you left off</a></p><p>Stuck? Reply to this e-mail and tell us where.</p>')
) AS step(day, chapter, subject, body);
