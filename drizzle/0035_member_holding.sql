CREATE TABLE "member_holding" (
	"product" text NOT NULL,
	"user_id" text NOT NULL,
	"purchases" integer NOT NULL,
	CONSTRAINT "member_holding_product_user_id_pk" PRIMARY KEY("product","user_id")
);
--> statement-breakpoint
ALTER TABLE "member_holding" ADD CONSTRAINT "member_holding_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "member_holding" ("product", "user_id", "purchases")
SELECT p."product", p."user_id", count(*)::int FROM "purchase" p
WHERE p."status" = 'completed' AND p."access_revoked_at" IS NULL
  AND (NOT p."awaits_address_proof" OR EXISTS (
    SELECT 1 FROM "user" o WHERE o."id" = p."user_id" AND o."email_verified"))
GROUP BY 1, 2;--> statement-breakpoint
-- Every write to purchase, however made (a checkout, a webhook, a refund, a revocation, the
-- console, an account's deletion, SQL by hand), moves the holdings of its members in the
-- same transaction: one statement per kind of rows it changed (its transition tables),
-- each row that counts by the access rule before the change taken away and each after it
-- added. Rows before a change update the holdings (a member whose account is being deleted
-- has none left to update); rows after it are added in key order, so two writes over the
-- same members lock them in the same order. The statements join no other table (the
-- address proof is a look-up made only for a row that waits for it): planned for a set
-- whose size only the transition table knows, a join to the accounts was a nested loop
-- over every account for each row. They are built here, not written out, because each
-- names only the transition tables its write has.
-- A row waiting for its account's address proof counts once the address is proved: the
-- accounts of such rows are locked first (FOR SHARE), so a proof written at the same time
-- (member_holding_of_proofs) is either seen here or sees this write, and counts it once.
CREATE FUNCTION "member_holding_of_purchases"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  counted constant text := ' r WHERE r."status" = ''completed'' AND r."access_revoked_at" IS NULL
    AND (NOT r."awaits_address_proof" OR EXISTS (
      SELECT 1 FROM "user" o WHERE o."id" = r."user_id" AND o."email_verified"))
    GROUP BY r."product", r."user_id"';
  waiting constant text := CASE TG_OP WHEN 'INSERT' THEN 'new_rows' WHEN 'DELETE' THEN 'old_rows'
    ELSE '(SELECT * FROM new_rows UNION ALL SELECT * FROM old_rows)' END;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM "member_holding";
    RETURN NULL;
  END IF;
  EXECUTE 'SELECT 1 FROM "user" WHERE "id" IN (SELECT w."user_id" FROM ' || waiting
    || ' w WHERE w."awaits_address_proof") ORDER BY "id" FOR SHARE';
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    EXECUTE 'UPDATE "member_holding" h SET "purchases" = h."purchases" - gone.n
      FROM (SELECT r."product", r."user_id", count(*)::int AS n FROM old_rows' || counted || ') gone
      WHERE h."product" = gone."product" AND h."user_id" = gone."user_id"';
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    EXECUTE 'INSERT INTO "member_holding" ("product", "user_id", "purchases")
      SELECT r."product", r."user_id", count(*)::int FROM new_rows' || counted || '
      ORDER BY r."product", r."user_id"
      ON CONFLICT ("product", "user_id") DO UPDATE
        SET "purchases" = "member_holding"."purchases" + excluded."purchases"';
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- An account's address proved (or unproved): its completed, unrevoked purchases that wait
-- for the proof start (or stop) counting. The accounts whose proof changed come first (a
-- hash of the rows before against the rows after), then their purchases by index.
CREATE FUNCTION "member_holding_of_proofs"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE 'INSERT INTO "member_holding" ("product", "user_id", "purchases")
    SELECT p."product", p."user_id", sum(CASE WHEN proved.verified THEN 1 ELSE -1 END)::int
    FROM (
      SELECT n."id", n."email_verified" AS verified FROM new_users n
      EXCEPT
      SELECT o."id", o."email_verified" FROM old_users o
    ) proved
    JOIN "purchase" p ON p."user_id" = proved."id" AND p."awaits_address_proof"
      AND p."status" = ''completed'' AND p."access_revoked_at" IS NULL
    GROUP BY p."product", p."user_id"
    ORDER BY p."product", p."user_id"
    ON CONFLICT ("product", "user_id") DO UPDATE
      SET "purchases" = "member_holding"."purchases" + excluded."purchases"';
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "purchase_member_holding_insert" AFTER INSERT ON "purchase"
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "member_holding_of_purchases"();
--> statement-breakpoint
CREATE TRIGGER "purchase_member_holding_update" AFTER UPDATE ON "purchase"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "member_holding_of_purchases"();
--> statement-breakpoint
CREATE TRIGGER "purchase_member_holding_delete" AFTER DELETE ON "purchase"
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "member_holding_of_purchases"();
--> statement-breakpoint
CREATE TRIGGER "purchase_member_holding_truncate" AFTER TRUNCATE ON "purchase"
  FOR EACH STATEMENT EXECUTE FUNCTION "member_holding_of_purchases"();
--> statement-breakpoint
CREATE TRIGGER "user_member_holding_update" AFTER UPDATE ON "user"
  REFERENCING OLD TABLE AS old_users NEW TABLE AS new_users
  FOR EACH STATEMENT EXECUTE FUNCTION "member_holding_of_proofs"();
