CREATE TABLE "coaching_application" (
	"purchase_id" uuid PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"vision_file" text NOT NULL,
	"vision_name" text NOT NULL,
	"availability" text NOT NULL,
	"tech_environment" text DEFAULT '' NOT NULL,
	"hosting" text NOT NULL,
	"content_plan" text NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coaching_application_status_check" CHECK ("coaching_application"."status" in ('new','consultation-booked','in-development','launched','support'))
);
--> statement-breakpoint
ALTER TABLE "coaching_application" ADD CONSTRAINT "coaching_application_purchase_id_purchase_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchase"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coaching_application" ADD CONSTRAINT "coaching_application_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "coaching_application_status_idx" ON "coaching_application" USING btree ("status","submitted_at");--> statement-breakpoint
CREATE INDEX "coaching_application_user_idx" ON "coaching_application" USING btree ("user_id");