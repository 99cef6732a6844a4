-- Order numbers people can read out and quote: AIL- and five characters of
-- Crockford's base 32 (no I, L, O or U). The n-th purchase gets n times an
-- odd number modulo 32^5, a one-to-one scramble, so numbers in a row do not
-- look it and none repeats within the first 33,554,432 purchases.
CREATE SEQUENCE "purchase_order_seq";--> statement-breakpoint
CREATE FUNCTION purchase_order_number(n bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
  select 'AIL-' || string_agg(
    substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((((n * 20501397) % 33554432) >> (5 * (4 - i))) & 31)::int + 1, 1),
    '' order by i)
  from generate_series(0, 4) as i
$$;--> statement-breakpoint
ALTER TABLE "purchase" ADD COLUMN "order_number" text;--> statement-breakpoint
UPDATE "purchase" AS p SET "order_number" = purchase_order_number(o.n)
FROM (SELECT "id", row_number() OVER (ORDER BY "created_at", "id") AS n FROM "purchase") AS o
WHERE o."id" = p."id";--> statement-breakpoint
SELECT setval('purchase_order_seq', greatest((SELECT count(*) FROM "purchase"), 1), (SELECT count(*) FROM "purchase") > 0);--> statement-breakpoint
ALTER TABLE "purchase" ALTER COLUMN "order_number" SET DEFAULT purchase_order_number(nextval('purchase_order_seq'));--> statement-breakpoint
ALTER TABLE "purchase" ALTER COLUMN "order_number" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "purchase_order_number_idx" ON "purchase" USING btree ("order_number");
