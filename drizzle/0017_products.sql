CREATE TABLE "product_course" (
	"product" text NOT NULL,
	"course_id" uuid NOT NULL,
	CONSTRAINT "product_course_product_course_id_pk" PRIMARY KEY("product","course_id"),
	CONSTRAINT "product_course_product_check" CHECK ("product_course"."product" in ('lifetime-access','bump-vip','white-label','custom-saas'))
);
--> statement-breakpoint
ALTER TABLE "product_course" ADD CONSTRAINT "product_course_course_id_course_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."course"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_course_course_idx" ON "product_course" USING btree ("course_id");--> statement-breakpoint
-- The demo content of the add-ons (docs/product.md, Products and what they open),
-- so that every product the funnel sells opens something on a fresh install.
-- As a migration it runs once per database: the owner edits or deletes it.
INSERT INTO "product_course" ("product", "course_id") SELECT 'lifetime-access', "id" FROM "course";--> statement-breakpoint
INSERT INTO "course" ("id", "title", "description", "sort_order") VALUES
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12',
  '12-in-1 White Label Package',
  'Twelve ready AI tools to rebrand and sell: what each does, its prompt, its form, and how to make it yours.',
  (SELECT coalesce(max("sort_order"), -1) + 1 FROM "course")
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c0b',
  'VIP Launch Kit',
  'The VIP extras: a launch checklist, ready-to-send launch e-mails and a price test plan for your first app.',
  (SELECT coalesce(max("sort_order"), -1) + 2 FROM "course")
);--> statement-breakpoint
INSERT INTO "product_course" ("product", "course_id") VALUES
  ('white-label', '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12'),
  ('bump-vip', '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c0b');--> statement-breakpoint
INSERT INTO "chapter" ("course_id", "title", "content_html", "sort_order") VALUES
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12',
  'Tool 1: Content Generator',
  '<h2>Content Generator</h2><p>The Content Generator writes blog posts and articles. Your customers fill in a short form; the tool sends one prompt to the AI model and shows the answer, ready to copy.</p><h3>The form</h3><p>Topic, audience, tone, length, format.</p><h3>The prompt it is built on</h3><pre><code>Write a {length} {format} about {topic} for {audience}, in a {tone} tone. Use short paragraphs and subheadings.</code></pre><h3>Make it yours</h3><ol><li>Give it your name, colours and logo in its branding settings.</li><li>Adjust the prompt to your niche: keep the placeholders in braces, change the words around them.</li><li>Set your price and your checkout link, then launch it to your list.</li></ol><p><strong>Task:</strong> write down who you will sell the Content Generator to, and the one sentence that tells them what it does for them.</p>',
  1
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12',
  'Tool 2: Image Creator',
  '<h2>Image Creator</h2><p>The Image Creator writes images from a written description. Your customers fill in a short form; the tool sends one prompt to the AI model and shows the answer, ready to copy.</p><h3>The form</h3><p>Subject, style, mood, aspect ratio.</p><h3>The prompt it is built on</h3><pre><code>Create an image of {subject} in a {style} style, {mood} mood, {aspect} aspect ratio.</code></pre><h3>Make it yours</h3><ol><li>Give it your name, colours and logo in its branding settings.</li><li>Adjust the prompt to your niche: keep the placeholders in braces, change the words around them.</li><li>Set your price and your checkout link, then launch it to your list.</li></ol><p><strong>Task:</strong> write down who you will sell the Image Creator to, and the one sentence that tells them what it does for them.</p>',
  2
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12',
  'Tool 3: Chatbot Assistant',
  '<h2>Chatbot Assistant</h2><p>The Chatbot Assistant writes a support chatbot trained on your own answers. Your customers fill in a short form; the tool sends one prompt to the AI model and shows the answer, ready to copy.</p><h3>The form</h3><p>Business name, knowledge notes, contact route.</p><h3>The prompt it is built on</h3><pre><code>You are the assistant of {business}. Answer only from these notes: {knowledge}. If the notes do not cover it, say so and offer {contact}.</code></pre><h3>Make it yours</h3><ol><li>Give it your name, colours and logo in its branding settings.</li><li>Adjust the prompt to your niche: keep the placeholders in braces, change the words around them.</li><li>Set your price and your checkout link, then launch it to your list.</li></ol><p><strong>Task:</strong> write down who you will sell the Chatbot Assistant to, and the one sentence that tells them what it does for them.</p>',
  3
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12',
  'Tool 4: Email Writer',
  '<h2>Email Writer</h2><p>The Email Writer writes sales, follow-up and newsletter e-mails. Your customers fill in a short form; the tool sends one prompt to the AI model and shows the answer, ready to copy.</p><h3>The form</h3><p>Type, sender, recipient, subject, goal, length.</p><h3>The prompt it is built on</h3><pre><code>Write a {type} e-mail from {sender} to {recipient} about {subject}. Goal: {goal}. Keep it under {words} words.</code></pre><h3>Make it yours</h3><ol><li>Give it your name, colours and logo in its branding settings.</li><li>Adjust the prompt to your niche: keep the placeholders in braces, change the words around them.</li><li>Set your price and your checkout link, then launch it to your list.</li></ol><p><strong>Task:</strong> write down who you will sell the Email Writer to, and the one sentence that tells them what it does for them.</p>',
  4
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12',
  'Tool 5: SEO Optimizer',
  '<h2>SEO Optimizer</h2><p>The SEO Optimizer writes titles, meta descriptions and keyword suggestions for a page. Your customers fill in a short form; the tool sends one prompt to the AI model and shows the answer, ready to copy.</p><h3>The form</h3><p>Page text, market.</p><h3>The prompt it is built on</h3><pre><code>Given this page text: {text}, suggest a title under 60 characters, a meta description under 155 characters and five keywords for {market}.</code></pre><h3>Make it yours</h3><ol><li>Give it your name, colours and logo in its branding settings.</li><li>Adjust the prompt to your niche: keep the placeholders in braces, change the words around them.</li><li>Set your price and your checkout link, then launch it to your list.</li></ol><p><strong>Task:</strong> write down who you will sell the SEO Optimizer to, and the one sentence that tells them what it does for them.</p>',
  5
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12',
  'Tool 6: Social Media Manager',
  '<h2>Social Media Manager</h2><p>The Social Media Manager writes a week of posts for one brand. Your customers fill in a short form; the tool sends one prompt to the AI model and shows the answer, ready to copy.</p><h3>The form</h3><p>Brand, platform, theme, number of posts.</p><h3>The prompt it is built on</h3><pre><code>Write {count} {platform} posts for {brand}, about {theme}, each with one call to action and at most three hashtags.</code></pre><h3>Make it yours</h3><ol><li>Give it your name, colours and logo in its branding settings.</li><li>Adjust the prompt to your niche: keep the placeholders in braces, change the words around them.</li><li>Set your price and your checkout link, then launch it to your list.</li></ol><p><strong>Task:</strong> write down who you will sell the Social Media Manager to, and the one sentence that tells them what it does for them.</p>',
  6
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12',
  'Tool 7: Video Script Generator',
  '<h2>Video Script Generator</h2><p>The Video Script Generator writes short video scripts with hook, body and call to action. Your customers fill in a short form; the tool sends one prompt to the AI model and shows the answer, ready to copy.</p><h3>The form</h3><p>Topic, platform, length in seconds, call to action.</p><h3>The prompt it is built on</h3><pre><code>Write a {seconds}-second {platform} video script about {topic}: a hook in the first 3 seconds, three points, and a call to action to {action}.</code></pre><h3>Make it yours</h3><ol><li>Give it your name, colours and logo in its branding settings.</li><li>Adjust the prompt to your niche: keep the placeholders in braces, change the words around them.</li><li>Set your price and your checkout link, then launch it to your list.</li></ol><p><strong>Task:</strong> write down who you will sell the Video Script Generator to, and the one sentence that tells them what it does for them.</p>',
  7
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12',
  'Tool 8: Product Description Writer',
  '<h2>Product Description Writer</h2><p>The Product Description Writer writes product descriptions for online shops. Your customers fill in a short form; the tool sends one prompt to the AI model and shows the answer, ready to copy.</p><h3>The form</h3><p>Product, features, buyer, length.</p><h3>The prompt it is built on</h3><pre><code>Write a product description for {product} ({features}) aimed at {buyer}, in {words} words, ending with the main benefit.</code></pre><h3>Make it yours</h3><ol><li>Give it your name, colours and logo in its branding settings.</li><li>Adjust the prompt to your niche: keep the placeholders in braces, change the words around them.</li><li>Set your price and your checkout link, then launch it to your list.</li></ol><p><strong>Task:</strong> write down who you will sell the Product Description Writer to, and the one sentence that tells them what it does for them.</p>',
  8
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12',
  'Tool 9: Landing Page Builder',
  '<h2>Landing Page Builder</h2><p>The Landing Page Builder writes the copy of a landing page, section by section. Your customers fill in a short form; the tool sends one prompt to the AI model and shows the answer, ready to copy.</p><h3>The form</h3><p>Offer, audience.</p><h3>The prompt it is built on</h3><pre><code>Write landing page copy for {offer} aimed at {audience}: headline, subheadline, three benefits, social proof placeholder, FAQ of three questions, call to action.</code></pre><h3>Make it yours</h3><ol><li>Give it your name, colours and logo in its branding settings.</li><li>Adjust the prompt to your niche: keep the placeholders in braces, change the words around them.</li><li>Set your price and your checkout link, then launch it to your list.</li></ol><p><strong>Task:</strong> write down who you will sell the Landing Page Builder to, and the one sentence that tells them what it does for them.</p>',
  9
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12',
  'Tool 10: Business Name Generator',
  '<h2>Business Name Generator</h2><p>The Business Name Generator writes brandable business names with a short reason each. Your customers fill in a short form; the tool sends one prompt to the AI model and shows the answer, ready to copy.</p><h3>The form</h3><p>Industry, values, number of names.</p><h3>The prompt it is built on</h3><pre><code>Suggest {count} names for a {industry} business that is {values}. Each name at most two words, with one line on why it fits.</code></pre><h3>Make it yours</h3><ol><li>Give it your name, colours and logo in its branding settings.</li><li>Adjust the prompt to your niche: keep the placeholders in braces, change the words around them.</li><li>Set your price and your checkout link, then launch it to your list.</li></ol><p><strong>Task:</strong> write down who you will sell the Business Name Generator to, and the one sentence that tells them what it does for them.</p>',
  10
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12',
  'Tool 11: Ad Copy Creator',
  '<h2>Ad Copy Creator</h2><p>The Ad Copy Creator writes ad variations for search and social ads. Your customers fill in a short form; the tool sends one prompt to the AI model and shows the answer, ready to copy.</p><h3>The form</h3><p>Offer, audience, platform, number of variations.</p><h3>The prompt it is built on</h3><pre><code>Write {count} {platform} ad variations for {offer} aimed at {audience}: headline within the platform''s limit, body text, call to action.</code></pre><h3>Make it yours</h3><ol><li>Give it your name, colours and logo in its branding settings.</li><li>Adjust the prompt to your niche: keep the placeholders in braces, change the words around them.</li><li>Set your price and your checkout link, then launch it to your list.</li></ol><p><strong>Task:</strong> write down who you will sell the Ad Copy Creator to, and the one sentence that tells them what it does for them.</p>',
  11
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12',
  'Tool 12: Market Research Tool',
  '<h2>Market Research Tool</h2><p>The Market Research Tool writes a first market overview for an idea. Your customers fill in a short form; the tool sends one prompt to the AI model and shows the answer, ready to copy.</p><h3>The form</h3><p>Idea, market.</p><h3>The prompt it is built on</h3><pre><code>For the idea {idea} in {market}: describe the target customers, five likely competitors by type, three pricing models, and the three biggest risks.</code></pre><h3>Make it yours</h3><ol><li>Give it your name, colours and logo in its branding settings.</li><li>Adjust the prompt to your niche: keep the placeholders in braces, change the words around them.</li><li>Set your price and your checkout link, then launch it to your list.</li></ol><p><strong>Task:</strong> write down who you will sell the Market Research Tool to, and the one sentence that tells them what it does for them.</p>',
  12
);--> statement-breakpoint
INSERT INTO "chapter" ("course_id", "title", "content_html", "sort_order") VALUES
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c0b',
  'Your launch checklist',
  '<h2>Launch checklist</h2><p>Work through it the week before you open the doors.</p><ul><li>Your app answers in under two seconds on a phone.</li><li>Sign-up, payment and the welcome e-mail work with a real card.</li><li>Your sales page names one audience and one result.</li><li>Three people outside your circle have tried it.</li></ul><p><strong>Task:</strong> tick each item, and fix what fails before launch day.</p>',
  1
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c0b',
  'Three launch e-mails, ready to send',
  '<h2>Launch e-mails</h2><p>Send them on launch day, the day after, and the last day of your launch price.</p><ol><li><strong>It is open:</strong> what the app does, for whom, and the launch price.</li><li><strong>How it works:</strong> one customer''s result, step by step.</li><li><strong>Last day:</strong> the price goes up tonight, and why you set it low.</li></ol><p><strong>Task:</strong> write the three e-mails in your own words and schedule them.</p>',
  2
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c0b',
  'Test your price in a week',
  '<h2>Price test</h2><p>Start at a price that feels a little high. Count visits to the pricing page and purchases for seven days, then move the price once and count again. Keep the price that earns more per visitor, not the one that sells more copies.</p><p><strong>Task:</strong> write your two prices and the day you will switch.</p>',
  3
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c0b',
  'Your first 10 customers',
  '<h2>The first ten</h2><p>Reach them one by one: people in the communities you already belong to, who have the problem your app solves. Offer a call, watch them use the app, and fix what they trip on the same day.</p><p><strong>Task:</strong> list twenty people to write to this week.</p>',
  4
);--> statement-breakpoint
-- A change to what a product opens changes what every member's pages show.
CREATE TRIGGER "product_course_page_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "product_course"
  FOR EACH STATEMENT EXECUTE FUNCTION "page_version_of_everyone"();
