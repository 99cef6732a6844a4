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
-- transaction: one statement per write, over the rows it changed (its transition tables),
-- a purchase's amount added and a refund's taken away, the rows before a change counted
-- back. Members are written in id order, so two writes over the same members lock them in
-- the same order; a member whose account is being deleted (its rows go with it) is left
-- out. The statement names only the transition tables its kind of write has.
CREATE FUNCTION "member_spend_of"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  -- A purchase adds to its buyer's spend; a refund takes away from it.
  sign constant text := CASE TG_TABLE_NAME WHEN 'refund' THEN '-' ELSE '' END;
  added constant text := 'SELECT "user_id", ' || sign || '"amount_cents"::bigint AS c FROM new_rows';
  taken constant text := 'SELECT "user_id", -(' || sign || '"amount_cents"::bigint) AS c FROM old_rows';
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
  EXECUTE 'INSERT INTO "member_spend" ("user_id", "cents")
    SELECT d."user_id", sum(d.c) FROM (' || CASE TG_OP WHEN 'INSERT' THEN added
      WHEN 'DELETE' THEN taken ELSE added || ' UNION ALL ' || taken END || ') d
    JOIN "user" u ON u."id" = d."user_id"
    GROUP BY d."user_id"
    HAVING sum(d.c) <> 0
    ORDER BY d."user_id"
    ON CONFLICT ("user_id") DO UPDATE SET "cents" = "member_spend"."cents" + excluded."cents"';
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
