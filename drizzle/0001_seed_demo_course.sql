-- The demo course, so that a fresh install's members' area is not empty.
-- As a migration it runs once per database: an admin who deletes it does not get it back.
INSERT INTO "course" ("id", "title", "description") VALUES (
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c01',
  'Start Here: Your First AI SaaS in 7 Days',
  'A short tour of the course: how an AI app is planned from one written prompt, built without code, and launched to its first paying users.'
);
--> statement-breakpoint
INSERT INTO "chapter" ("course_id", "title", "content_html", "sort_order") VALUES
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c01',
  'Welcome and how to use this course',
  '<h2>Welcome</h2><p>This course takes you from an idea to a launched AI app in seven days. Each chapter ends with one task: do it before you move on.</p><ul><li>Read the chapter.</li><li>Do the task.</li><li>Mark it done and move to the next one.</li></ul>',
  1
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c01',
  'Pick a problem worth paying for',
  '<h2>Pick a problem</h2><p>Good first apps solve one narrow, repeated problem for people who already spend money on it: freelancers writing proposals, shops writing product descriptions, teachers marking essays.</p><p><strong>Task:</strong> open the Idea Generator, set an industry and an audience you know, and shortlist three ideas.</p>',
  2
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c01',
  'Write the prompt that builds your app',
  '<h2>The build prompt</h2><p>Describe who the app is for, the one thing it does, the screens it needs and how users pay. Be concrete: name the fields, the buttons and the messages.</p><p><strong>Task:</strong> write your prompt in the App Builder and run your first build.</p>',
  3
);
