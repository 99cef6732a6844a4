CREATE TABLE "purchase_revocation" (
	"provider" text NOT NULL,
	"provider_ref" text NOT NULL,
	"revoked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "purchase_revocation_provider_provider_ref_pk" PRIMARY KEY("provider","provider_ref")
);
