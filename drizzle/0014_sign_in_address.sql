CREATE TABLE "sign_in_address" (
	"user_id" text NOT NULL,
	"address" text NOT NULL,
	"last_sign_in_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sign_in_address_user_id_address_pk" PRIMARY KEY("user_id","address")
);
--> statement-breakpoint
ALTER TABLE "sign_in_address" ADD CONSTRAINT "sign_in_address_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Reset and set-password links were stored as a bare SHA-256 (43 base64url
-- characters, a form no other verification row has); they keep working under
-- the prefix that now marks them (app/server/auth/reset-links.server.ts).
UPDATE "verification" SET "identifier" = 'reset-password:' || "identifier" WHERE "identifier" ~ '^[A-Za-z0-9_-]{43}$';
