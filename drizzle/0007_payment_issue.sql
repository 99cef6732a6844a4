CREATE TABLE "payment_issue" (
	"provider" text NOT NULL,
	"provider_ref" text NOT NULL,
	"reason" text NOT NULL,
	"user_ref" text,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "payment_issue_provider_provider_ref_pk" PRIMARY KEY("provider","provider_ref"),
	CONSTRAINT "payment_issue_reason_check" CHECK ("payment_issue"."reason" in ('not-the-plan','unknown-user'))
);
