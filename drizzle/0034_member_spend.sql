CREATE TABLE "member_spend" (
	"user_id" text PRIMARY KEY NOT NULL,
	"cents" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "member_spend" ADD CONSTRAINT "member_spend_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "member_spend" ("user_id", "cents")
SELECT "user_id", sum("cents") FROM (
  SELECT "user_id", "amount_cents"::bigint AS "cents" FROM "purchase"
  UNION ALL
  SELECT "user_id", -"amount_cents"::bigint FROM "refund"
) d
GROUP BY "user_id";--> statement-breakpoint
-- Every write to purchase or refund, however made (a checkout, a webhook, a refund, the
-- console, an account's deletion, SQL by hand), moves its members' spend in the same
-- transaction: one statement per kind of rows it changed (its transition tables), a
-- purchase's amount added and a refund's taken away, the rows before a change counted
-- back. Rows before a change update the members' spend (a member whose account is being
-- deleted has none left to update); rows after it are added, in member id order, so two
-- writes over the same members lock them in the same order. Each statement joins no other
-- table: planned for a set whose size only the transition table knows, a join to the
-- accounts was a nested loop over every account for each row. The statements are built
-- here, not written out, because each names only the transition tables its write has.
CREATE FUNCTION "member_spend_of"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  -- A purchase adds to its buyer's spend; a refund takes away from it.
  cents constant text := CASE TG_TABLE_NAME WHEN 'refund' THEN '-' ELSE '' END
    || 'sum("amount_cents")::bigint';
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM "member_spend";
    INSERT INTO "member_spend" ("user_id", "cents")
    SELECT "user_id", sum("cents") FROM (
      SELECT "user_id", "amount_cents"::bigint AS "cents" FROM "purchase"
      UNION ALL
      SELECT "user_id", -"amount_cents"::bigint FROM "refund"
    ) d
    GROUP BY "user_id";
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    EXECUTE 'UPDATE "member_spend" ms SET "cents" = ms."cents" - gone.c
      FROM (SELECT "user_id", ' || cents || ' AS c FROM old_rows GROUP BY "user_id") gone
      WHERE ms."user_id" = gone."user_id" AND gone.c <> 0';
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    EXECUTE 'INSERT INTO "member_spend" ("user_id", "cents")
      SELECT "user_id", ' || cents || ' FROM new_rows
      GROUP BY "user_id" HAVING ' || cents || ' <> 0
      ORDER BY "user_id"
      ON CONFLICT ("user_id") DO UPDATE SET "cents" = "member_spend"."cents" + excluded."cents"';
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "purchase_member_spend_insert" AFTER INSERT ON "purchase"
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "member_spend_of"();
--> statement-breakpoint
CREATE TRIGGER "purchase_member_spend_update" AFTER UPDATE ON "purchase"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "member_spend_of"();
--> statement-breakpoint
CREATE TRIGGER "purchase_member_spend_delete" AFTER DELETE ON "purchase"
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "member_spend_of"();
--> statement-breakpoint
CREATE TRIGGER "purchase_member_spend_truncate" AFTER TRUNCATE ON "purchase"
  FOR EACH STATEMENT EXECUTE FUNCTION "member_spend_of"();
--> statement-breakpoint
CREATE TRIGGER "refund_member_spend_insert" AFTER INSERT ON "refund"
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "member_spend_of"();
--> statement-breakpoint
CREATE TRIGGER "refund_member_spend_update" AFTER UPDATE ON "refund"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "member_spend_of"();
--> statement-breakpoint
CREATE TRIGGER "refund_member_spend_delete" AFTER DELETE ON "refund"
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "member_spend_of"();
--> statement-breakpoint
CREATE TRIGGER "refund_member_spend_truncate" AFTER TRUNCATE ON "refund"
  FOR EACH STATEMENT EXECUTE FUNCTION "member_spend_of"();
