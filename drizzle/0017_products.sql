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
  'Twelve ready AI tools to rebrand and sell, each a working starter to download, with the marketing pack.',
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
  '<p>Blog posts and articles in minutes. Your customers fill in a short form; the tool sends one prompt to the AI model and shows the answer, ready to copy.</p><p><strong>Download:</strong> <a href="/white-label/download/content-generator.zip">content-generator.zip</a>, the working starter of this tool. Unzip it and run <code>node server.js</code> (Node.js 18 or newer, nothing to install); its README says how to add your AI key and host it. The launch templates for all twelve tools are in <a href="/white-label/download/marketing-pack.zip">marketing-pack.zip</a>.</p><h3>The form</h3><p>Topic, Audience, Tone (friendly, professional, bold, playful), Length (short, medium-length, long), Format (blog post, article, newsletter).</p><h3>The prompt it is built on</h3><blockquote>Write a {length} {format} about {topic} for {audience}, in a {tone} tone. Use short paragraphs and subheadings.</blockquote><h3>Make it yours</h3><ol><li>Put your name, colour, logo and support e-mail in <code>branding.config.json</code>.</li><li>Adjust the prompt in <code>tool.config.json</code> to your niche: keep the placeholders in braces, change the words around them.</li><li>Host it, set your price and your checkout link, then launch it to your list.</li></ol><p><strong>Task:</strong> write down who you will sell the Content Generator to, and the one sentence that tells them what it does for them.</p>',
  1
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12',
  'Tool 2: Image Creator',
  '<p>Image prompts from a plain description. Your customers fill in a short form; the tool sends one prompt to the AI model and shows the answer, ready to copy.</p><p><strong>Download:</strong> <a href="/white-label/download/image-creator.zip">image-creator.zip</a>, the working starter of this tool. Unzip it and run <code>node server.js</code> (Node.js 18 or newer, nothing to install); its README says how to add your AI key and host it. The launch templates for all twelve tools are in <a href="/white-label/download/marketing-pack.zip">marketing-pack.zip</a>.</p><h3>The form</h3><p>Subject, Style (photo, illustration, 3D render, watercolour), Mood, Aspect ratio (1:1, 16:9, 9:16, 4:3).</p><h3>The prompt it is built on</h3><blockquote>Create an image of {subject} in a {style} style, {mood} mood, {aspect} aspect ratio.</blockquote><h3>Make it yours</h3><ol><li>Put your name, colour, logo and support e-mail in <code>branding.config.json</code>.</li><li>Adjust the prompt in <code>tool.config.json</code> to your niche: keep the placeholders in braces, change the words around them.</li><li>Host it, set your price and your checkout link, then launch it to your list.</li></ol><p><strong>Task:</strong> write down who you will sell the Image Creator to, and the one sentence that tells them what it does for them.</p>',
  2
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12',
  'Tool 3: Chatbot Assistant',
  '<p>Answers your customers from your own notes. Your customers fill in a short form; the tool sends one prompt to the AI model and shows the answer, ready to copy.</p><p><strong>Download:</strong> <a href="/white-label/download/chatbot-assistant.zip">chatbot-assistant.zip</a>, the working starter of this tool. Unzip it and run <code>node server.js</code> (Node.js 18 or newer, nothing to install); its README says how to add your AI key and host it. The launch templates for all twelve tools are in <a href="/white-label/download/marketing-pack.zip">marketing-pack.zip</a>.</p><h3>The form</h3><p>Business name, Knowledge notes, Contact route, Customer question.</p><h3>The prompt it is built on</h3><blockquote>You are the assistant of {business}. Answer only from these notes: {knowledge}. If the notes do not cover it, say so and offer {contact}. Question: {question}</blockquote><h3>Make it yours</h3><ol><li>Put your name, colour, logo and support e-mail in <code>branding.config.json</code>.</li><li>Adjust the prompt in <code>tool.config.json</code> to your niche: keep the placeholders in braces, change the words around them.</li><li>Host it, set your price and your checkout link, then launch it to your list.</li></ol><p><strong>Task:</strong> write down who you will sell the Chatbot Assistant to, and the one sentence that tells them what it does for them.</p>',
  3
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12',
  'Tool 4: Email Writer',
  '<p>Sales, follow-up and newsletter e-mails. Your customers fill in a short form; the tool sends one prompt to the AI model and shows the answer, ready to copy.</p><p><strong>Download:</strong> <a href="/white-label/download/email-writer.zip">email-writer.zip</a>, the working starter of this tool. Unzip it and run <code>node server.js</code> (Node.js 18 or newer, nothing to install); its README says how to add your AI key and host it. The launch templates for all twelve tools are in <a href="/white-label/download/marketing-pack.zip">marketing-pack.zip</a>.</p><h3>The form</h3><p>Type (sales, follow-up, newsletter, welcome), Sender, Recipient, Subject, Goal, Length in words (100, 200, 300).</p><h3>The prompt it is built on</h3><blockquote>Write a {type} e-mail from {sender} to {recipient} about {subject}. Goal: {goal}. Keep it under {words} words.</blockquote><h3>Make it yours</h3><ol><li>Put your name, colour, logo and support e-mail in <code>branding.config.json</code>.</li><li>Adjust the prompt in <code>tool.config.json</code> to your niche: keep the placeholders in braces, change the words around them.</li><li>Host it, set your price and your checkout link, then launch it to your list.</li></ol><p><strong>Task:</strong> write down who you will sell the Email Writer to, and the one sentence that tells them what it does for them.</p>',
  4
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12',
  'Tool 5: SEO Optimizer',
  '<p>Titles, descriptions and keywords for a page. Your customers fill in a short form; the tool sends one prompt to the AI model and shows the answer, ready to copy.</p><p><strong>Download:</strong> <a href="/white-label/download/seo-optimizer.zip">seo-optimizer.zip</a>, the working starter of this tool. Unzip it and run <code>node server.js</code> (Node.js 18 or newer, nothing to install); its README says how to add your AI key and host it. The launch templates for all twelve tools are in <a href="/white-label/download/marketing-pack.zip">marketing-pack.zip</a>.</p><h3>The form</h3><p>Page text, Market.</p><h3>The prompt it is built on</h3><blockquote>Given this page text: {text}, suggest a title under 60 characters, a meta description under 155 characters and five keywords for {market}.</blockquote><h3>Make it yours</h3><ol><li>Put your name, colour, logo and support e-mail in <code>branding.config.json</code>.</li><li>Adjust the prompt in <code>tool.config.json</code> to your niche: keep the placeholders in braces, change the words around them.</li><li>Host it, set your price and your checkout link, then launch it to your list.</li></ol><p><strong>Task:</strong> write down who you will sell the SEO Optimizer to, and the one sentence that tells them what it does for them.</p>',
  5
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12',
  'Tool 6: Social Media Manager',
  '<p>A week of posts for one brand. Your customers fill in a short form; the tool sends one prompt to the AI model and shows the answer, ready to copy.</p><p><strong>Download:</strong> <a href="/white-label/download/social-media-manager.zip">social-media-manager.zip</a>, the working starter of this tool. Unzip it and run <code>node server.js</code> (Node.js 18 or newer, nothing to install); its README says how to add your AI key and host it. The launch templates for all twelve tools are in <a href="/white-label/download/marketing-pack.zip">marketing-pack.zip</a>.</p><h3>The form</h3><p>Brand, Platform (Instagram, LinkedIn, X, Facebook, TikTok), Theme, Number of posts (3, 5, 7).</p><h3>The prompt it is built on</h3><blockquote>Write {count} {platform} posts for {brand}, about {theme}, each with one call to action and at most three hashtags.</blockquote><h3>Make it yours</h3><ol><li>Put your name, colour, logo and support e-mail in <code>branding.config.json</code>.</li><li>Adjust the prompt in <code>tool.config.json</code> to your niche: keep the placeholders in braces, change the words around them.</li><li>Host it, set your price and your checkout link, then launch it to your list.</li></ol><p><strong>Task:</strong> write down who you will sell the Social Media Manager to, and the one sentence that tells them what it does for them.</p>',
  6
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12',
  'Tool 7: Video Script Generator',
  '<p>Short video scripts with hook and call to action. Your customers fill in a short form; the tool sends one prompt to the AI model and shows the answer, ready to copy.</p><p><strong>Download:</strong> <a href="/white-label/download/video-script-generator.zip">video-script-generator.zip</a>, the working starter of this tool. Unzip it and run <code>node server.js</code> (Node.js 18 or newer, nothing to install); its README says how to add your AI key and host it. The launch templates for all twelve tools are in <a href="/white-label/download/marketing-pack.zip">marketing-pack.zip</a>.</p><h3>The form</h3><p>Topic, Platform (YouTube Shorts, TikTok, Instagram Reels), Length in seconds (30, 45, 60), Call to action.</p><h3>The prompt it is built on</h3><blockquote>Write a {seconds}-second {platform} video script about {topic}: a hook in the first 3 seconds, three points, and a call to action to {action}.</blockquote><h3>Make it yours</h3><ol><li>Put your name, colour, logo and support e-mail in <code>branding.config.json</code>.</li><li>Adjust the prompt in <code>tool.config.json</code> to your niche: keep the placeholders in braces, change the words around them.</li><li>Host it, set your price and your checkout link, then launch it to your list.</li></ol><p><strong>Task:</strong> write down who you will sell the Video Script Generator to, and the one sentence that tells them what it does for them.</p>',
  7
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12',
  'Tool 8: Product Description Writer',
  '<p>Product descriptions that sell. Your customers fill in a short form; the tool sends one prompt to the AI model and shows the answer, ready to copy.</p><p><strong>Download:</strong> <a href="/white-label/download/product-description-writer.zip">product-description-writer.zip</a>, the working starter of this tool. Unzip it and run <code>node server.js</code> (Node.js 18 or newer, nothing to install); its README says how to add your AI key and host it. The launch templates for all twelve tools are in <a href="/white-label/download/marketing-pack.zip">marketing-pack.zip</a>.</p><h3>The form</h3><p>Product, Features, Buyer, Length in words (50, 100, 150).</p><h3>The prompt it is built on</h3><blockquote>Write a product description for {product} ({features}) aimed at {buyer}, in {words} words, ending with the main benefit.</blockquote><h3>Make it yours</h3><ol><li>Put your name, colour, logo and support e-mail in <code>branding.config.json</code>.</li><li>Adjust the prompt in <code>tool.config.json</code> to your niche: keep the placeholders in braces, change the words around them.</li><li>Host it, set your price and your checkout link, then launch it to your list.</li></ol><p><strong>Task:</strong> write down who you will sell the Product Description Writer to, and the one sentence that tells them what it does for them.</p>',
  8
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12',
  'Tool 9: Landing Page Builder',
  '<p>Landing page copy, section by section. Your customers fill in a short form; the tool sends one prompt to the AI model and shows the answer, ready to copy.</p><p><strong>Download:</strong> <a href="/white-label/download/landing-page-builder.zip">landing-page-builder.zip</a>, the working starter of this tool. Unzip it and run <code>node server.js</code> (Node.js 18 or newer, nothing to install); its README says how to add your AI key and host it. The launch templates for all twelve tools are in <a href="/white-label/download/marketing-pack.zip">marketing-pack.zip</a>.</p><h3>The form</h3><p>Offer, Audience.</p><h3>The prompt it is built on</h3><blockquote>Write landing page copy for {offer} aimed at {audience}: headline, subheadline, three benefits, social proof placeholder, FAQ of three questions, call to action.</blockquote><h3>Make it yours</h3><ol><li>Put your name, colour, logo and support e-mail in <code>branding.config.json</code>.</li><li>Adjust the prompt in <code>tool.config.json</code> to your niche: keep the placeholders in braces, change the words around them.</li><li>Host it, set your price and your checkout link, then launch it to your list.</li></ol><p><strong>Task:</strong> write down who you will sell the Landing Page Builder to, and the one sentence that tells them what it does for them.</p>',
  9
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12',
  'Tool 10: Business Name Generator',
  '<p>Brandable names with a reason each. Your customers fill in a short form; the tool sends one prompt to the AI model and shows the answer, ready to copy.</p><p><strong>Download:</strong> <a href="/white-label/download/business-name-generator.zip">business-name-generator.zip</a>, the working starter of this tool. Unzip it and run <code>node server.js</code> (Node.js 18 or newer, nothing to install); its README says how to add your AI key and host it. The launch templates for all twelve tools are in <a href="/white-label/download/marketing-pack.zip">marketing-pack.zip</a>.</p><h3>The form</h3><p>Industry, Values, Number of names (5, 10, 20).</p><h3>The prompt it is built on</h3><blockquote>Suggest {count} names for a {industry} business that is {values}. Each name at most two words, with one line on why it fits.</blockquote><h3>Make it yours</h3><ol><li>Put your name, colour, logo and support e-mail in <code>branding.config.json</code>.</li><li>Adjust the prompt in <code>tool.config.json</code> to your niche: keep the placeholders in braces, change the words around them.</li><li>Host it, set your price and your checkout link, then launch it to your list.</li></ol><p><strong>Task:</strong> write down who you will sell the Business Name Generator to, and the one sentence that tells them what it does for them.</p>',
  10
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12',
  'Tool 11: Ad Copy Creator',
  '<p>Ad variations for search and social. Your customers fill in a short form; the tool sends one prompt to the AI model and shows the answer, ready to copy.</p><p><strong>Download:</strong> <a href="/white-label/download/ad-copy-creator.zip">ad-copy-creator.zip</a>, the working starter of this tool. Unzip it and run <code>node server.js</code> (Node.js 18 or newer, nothing to install); its README says how to add your AI key and host it. The launch templates for all twelve tools are in <a href="/white-label/download/marketing-pack.zip">marketing-pack.zip</a>.</p><h3>The form</h3><p>Offer, Audience, Platform (Google Search, Facebook, Instagram, LinkedIn), Number of variations (3, 5).</p><h3>The prompt it is built on</h3><blockquote>Write {count} {platform} ad variations for {offer} aimed at {audience}: headline within the platform&#x27;s limit, body text, call to action.</blockquote><h3>Make it yours</h3><ol><li>Put your name, colour, logo and support e-mail in <code>branding.config.json</code>.</li><li>Adjust the prompt in <code>tool.config.json</code> to your niche: keep the placeholders in braces, change the words around them.</li><li>Host it, set your price and your checkout link, then launch it to your list.</li></ol><p><strong>Task:</strong> write down who you will sell the Ad Copy Creator to, and the one sentence that tells them what it does for them.</p>',
  11
),
(
  '6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12',
  'Tool 12: Market Research Tool',
  '<p>A first market overview for an idea. Your customers fill in a short form; the tool sends one prompt to the AI model and shows the answer, ready to copy.</p><p><strong>Download:</strong> <a href="/white-label/download/market-research-tool.zip">market-research-tool.zip</a>, the working starter of this tool. Unzip it and run <code>node server.js</code> (Node.js 18 or newer, nothing to install); its README says how to add your AI key and host it. The launch templates for all twelve tools are in <a href="/white-label/download/marketing-pack.zip">marketing-pack.zip</a>.</p><h3>The form</h3><p>Idea, Market.</p><h3>The prompt it is built on</h3><blockquote>For the idea {idea} in {market}: describe the target customers, five likely competitors by type, three pricing models, and the three biggest risks.</blockquote><h3>Make it yours</h3><ol><li>Put your name, colour, logo and support e-mail in <code>branding.config.json</code>.</li><li>Adjust the prompt in <code>tool.config.json</code> to your niche: keep the placeholders in braces, change the words around them.</li><li>Host it, set your price and your checkout link, then launch it to your list.</li></ol><p><strong>Task:</strong> write down who you will sell the Market Research Tool to, and the one sentence that tells them what it does for them.</p>',
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
