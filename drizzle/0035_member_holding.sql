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
-- same transaction: one statement per write, over the rows it changed (its transition
-- tables), each row that counts by the access rule before the change taken away and each
-- after it added. Holdings are written in key order, so two writes over the same members
-- lock them in the same order; a member whose account is being deleted is left out.
-- A row waiting for its account's address proof counts once the address is proved: the
-- accounts of such rows are locked first (FOR SHARE), so a proof written at the same time
-- (member_holding_of_proofs) is either seen here or sees this write, and counts it once.
CREATE FUNCTION "member_holding_of_purchases"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  counts constant text := 'r."status" = ''completed'' AND r."access_revoked_at" IS NULL
    AND (NOT r."awaits_address_proof" OR EXISTS (
      SELECT 1 FROM "user" o WHERE o."id" = r."user_id" AND o."email_verified"))';
  added constant text := 'SELECT r."product", r."user_id", 1 AS n FROM new_rows r WHERE ' || counts;
  taken constant text := 'SELECT r."product", r."user_id", -1 AS n FROM old_rows r WHERE ' || counts;
  waiting constant text := CASE TG_OP WHEN 'INSERT' THEN 'new_rows' WHEN 'DELETE' THEN 'old_rows'
    ELSE '(SELECT * FROM new_rows UNION ALL SELECT * FROM old_rows)' END;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM "member_holding";
    RETURN NULL;
  END IF;
  EXECUTE 'SELECT 1 FROM "user" WHERE "id" IN (SELECT w."user_id" FROM ' || waiting
    || ' w WHERE w."awaits_address_proof") ORDER BY "id" FOR SHARE';
  EXECUTE 'INSERT INTO "member_holding" ("product", "user_id", "purchases")
    SELECT d."product", d."user_id", sum(d.n) FROM (' || CASE TG_OP WHEN 'INSERT' THEN added
      WHEN 'DELETE' THEN taken ELSE added || ' UNION ALL ' || taken END || ') d
    JOIN "user" u ON u."id" = d."user_id"
    GROUP BY d."product", d."user_id"
    HAVING sum(d.n) <> 0
    ORDER BY d."product", d."user_id"
    ON CONFLICT ("product", "user_id") DO UPDATE
      SET "purchases" = "member_holding"."purchases" + excluded."purchases"';
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- An account's address proved (or unproved): its completed, unrevoked purchases that wait
-- for the proof start (or stop) counting.
CREATE FUNCTION "member_holding_of_proofs"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "member_holding" ("product", "user_id", "purchases")
  SELECT p."product", p."user_id", sum(CASE WHEN n."email_verified" THEN 1 ELSE -1 END)::int
  FROM new_users n
  JOIN old_users o ON o."id" = n."id" AND o."email_verified" <> n."email_verified"
  JOIN "purchase" p ON p."user_id" = n."id" AND p."awaits_address_proof"
    AND p."status" = 'completed' AND p."access_revoked_at" IS NULL
  GROUP BY p."product", p."user_id"
  ORDER BY p."product", p."user_id"
  ON CONFLICT ("product", "user_id") DO UPDATE
    SET "purchases" = "member_holding"."purchases" + excluded."purchases";
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
