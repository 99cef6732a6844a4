CREATE TABLE "sales_day" (
	"day" date NOT NULL,
	"product" text NOT NULL,
	"provider" text NOT NULL,
	"currency" text NOT NULL,
	"purchases" integer NOT NULL,
	"refunded" integer NOT NULL,
	"gross_cents" bigint NOT NULL,
	"refunds" integer NOT NULL,
	"refunds_cents" bigint NOT NULL,
	CONSTRAINT "sales_day_day_product_provider_currency_pk" PRIMARY KEY("day","product","provider","currency")
);
--> statement-breakpoint
INSERT INTO "sales_day" ("day", "product", "provider", "currency", "purchases", "refunded", "gross_cents", "refunds", "refunds_cents")
SELECT "day", "product", "provider", "currency", sum("purchases"), sum("refunded"), sum("gross_cents"), sum("refunds"), sum("refunds_cents")
FROM (
  SELECT "created_day" AS "day", "product", "provider", "currency", count(*) AS "purchases",
    count(*) FILTER (WHERE "status" = 'refunded') AS "refunded", sum("amount_cents") AS "gross_cents",
    0 AS "refunds", 0 AS "refunds_cents"
  FROM "purchase" GROUP BY 1, 2, 3, 4
  UNION ALL
  SELECT "created_day", "product", "provider", "currency", 0, 0, 0, count(*), sum("amount_cents")
  FROM "refund" GROUP BY 1, 2, 3, 4
) d
GROUP BY 1, 2, 3, 4;--> statement-breakpoint
-- Every write to purchase or refund, however made (a checkout, a webhook, a refund, the
-- console, SQL by hand), moves the figures of the days it touches in the same transaction:
-- one statement per write, over the rows it changed (its transition tables), the rows
-- before a change taken away and the rows after it added. Rows are added in key order, so
-- two writes over the same days lock them in the same order. The statement names only
-- the transition tables its kind of write has (an insert has no rows before it).
CREATE FUNCTION "sales_day_of_purchases"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added constant text := 'SELECT "created_day", "product", "provider", "currency", 1 AS n,
    ("status" = ''refunded'')::int AS r, "amount_cents"::bigint AS g FROM new_rows';
  taken constant text := 'SELECT "created_day", "product", "provider", "currency", -1 AS n,
    -("status" = ''refunded'')::int AS r, -"amount_cents"::bigint AS g FROM old_rows';
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM "sales_day";
    RETURN NULL;
  END IF;
  EXECUTE 'INSERT INTO "sales_day" ("day", "product", "provider", "currency", "purchases",
      "refunded", "gross_cents", "refunds", "refunds_cents")
    SELECT "created_day", "product", "provider", "currency", sum(n), sum(r), sum(g), 0, 0
    FROM (' || CASE TG_OP WHEN 'INSERT' THEN added WHEN 'DELETE' THEN taken
      ELSE added || ' UNION ALL ' || taken END || ') d
    GROUP BY 1, 2, 3, 4
    HAVING sum(n) <> 0 OR sum(r) <> 0 OR sum(g) <> 0
    ORDER BY 1, 2, 3, 4
    ON CONFLICT ("day", "product", "provider", "currency") DO UPDATE SET
      "purchases" = "sales_day"."purchases" + excluded."purchases",
      "refunded" = "sales_day"."refunded" + excluded."refunded",
      "gross_cents" = "sales_day"."gross_cents" + excluded."gross_cents"';
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "sales_day_of_refunds"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added constant text := 'SELECT "created_day", "product", "provider", "currency", 1 AS n,
    "amount_cents"::bigint AS c FROM new_rows';
  taken constant text := 'SELECT "created_day", "product", "provider", "currency", -1 AS n,
    -"amount_cents"::bigint AS c FROM old_rows';
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE "sales_day" SET "refunds" = 0, "refunds_cents" = 0
    WHERE "refunds" <> 0 OR "refunds_cents" <> 0;
    RETURN NULL;
  END IF;
  EXECUTE 'INSERT INTO "sales_day" ("day", "product", "provider", "currency", "purchases",
      "refunded", "gross_cents", "refunds", "refunds_cents")
    SELECT "created_day", "product", "provider", "currency", 0, 0, 0, sum(n), sum(c)
    FROM (' || CASE TG_OP WHEN 'INSERT' THEN added WHEN 'DELETE' THEN taken
      ELSE added || ' UNION ALL ' || taken END || ') d
    GROUP BY 1, 2, 3, 4
    HAVING sum(n) <> 0 OR sum(c) <> 0
    ORDER BY 1, 2, 3, 4
    ON CONFLICT ("day", "product", "provider", "currency") DO UPDATE SET
      "refunds" = "sales_day"."refunds" + excluded."refunds",
      "refunds_cents" = "sales_day"."refunds_cents" + excluded."refunds_cents"';
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "purchase_sales_day_insert" AFTER INSERT ON "purchase"
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "sales_day_of_purchases"();
--> statement-breakpoint
CREATE TRIGGER "purchase_sales_day_update" AFTER UPDATE ON "purchase"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "sales_day_of_purchases"();
--> statement-breakpoint
CREATE TRIGGER "purchase_sales_day_delete" AFTER DELETE ON "purchase"
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "sales_day_of_purchases"();
--> statement-breakpoint
CREATE TRIGGER "purchase_sales_day_truncate" AFTER TRUNCATE ON "purchase"
  FOR EACH STATEMENT EXECUTE FUNCTION "sales_day_of_purchases"();
--> statement-breakpoint
CREATE TRIGGER "refund_sales_day_insert" AFTER INSERT ON "refund"
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "sales_day_of_refunds"();
--> statement-breakpoint
CREATE TRIGGER "refund_sales_day_update" AFTER UPDATE ON "refund"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "sales_day_of_refunds"();
--> statement-breakpoint
CREATE TRIGGER "refund_sales_day_delete" AFTER DELETE ON "refund"
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "sales_day_of_refunds"();
--> statement-breakpoint
CREATE TRIGGER "refund_sales_day_truncate" AFTER TRUNCATE ON "refund"
  FOR EACH STATEMENT EXECUTE FUNCTION "sales_day_of_refunds"();
