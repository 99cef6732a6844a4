// The built-in test checkout (TEST_CHECKOUT, and local runs without Stripe):
// a checkout row the browser pays at /checkout/test/{id}, paid once into a
// purchase of provider "test".
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { isUpsellProduct, orderBump, products } from "~/config/site";
import type { Db } from "../db/client.server";
import { testCheckout } from "../db/schema";
import { bumpRef, fulfilPurchase, type Purchase } from "./purchases.server";
import { fulfilUpsell } from "./upsell-orders.server";

/** What a test checkout sells: the plan, or an upsell paid without a saved card. */
type CheckoutProduct = { id: string; currency: string };

const checkoutProduct = (id: string): CheckoutProduct | undefined =>
  Object.hasOwn(products, id)
    ? products[id]
    : isUpsellProduct(id)
      ? { id, currency: "usd" }
      : undefined;

/** A started test checkout is reused for an hour, so repeated clicks add no rows. */
const reuseWindowMs = 60 * 60_000;

/** What a test checkout adds to its product: a coupon, the order bump, the order it joins. */
export type TestCheckoutExtras = {
  /** The coupon taken (its code), or null. */
  couponCode?: string | null;
  /** The VIP Upgrade bump's price, or null: not taken. */
  bumpCents?: number | null;
  /** An upsell's: the plan purchase it is added to, or null. */
  firstPurchaseId?: string | null;
};

/**
 * The id of this user's test checkout of `product` at `amountCents` with
 * `extras`: the one started within the hour and not paid yet, else a new one
 * (undefined: none was stored).
 */
export async function startTestCheckout(
  db: Db,
  userId: string,
  product: CheckoutProduct,
  amountCents: number,
  { couponCode = null, bumpCents = null, firstPurchaseId = null }: TestCheckoutExtras = {},
): Promise<string | undefined> {
  const [pending] = await db
    .select({ id: testCheckout.id })
    .from(testCheckout)
    .where(
      and(
        eq(testCheckout.userId, userId),
        eq(testCheckout.product, product.id),
        eq(testCheckout.amountCents, amountCents),
        couponCode === null
          ? isNull(testCheckout.couponCode)
          : eq(testCheckout.couponCode, couponCode),
        bumpCents === null ? isNull(testCheckout.bumpCents) : eq(testCheckout.bumpCents, bumpCents),
        firstPurchaseId === null
          ? isNull(testCheckout.firstPurchaseId)
          : eq(testCheckout.firstPurchaseId, firstPurchaseId),
        gt(testCheckout.createdAt, new Date(Date.now() - reuseWindowMs)),
        // Qualified by hand: Drizzle leaves columns unqualified in a one-table query.
        sql`not exists (select 1 from "purchase" p where p.provider = 'test' and p.provider_ref = "test_checkout"."id"::text)`,
      ),
    )
    .limit(1);
  if (pending) return pending.id;
  const [row] = await db
    .insert(testCheckout)
    .values({
      userId,
      product: product.id,
      amountCents,
      currency: product.currency,
      couponCode,
      bumpCents,
      firstPurchaseId,
    })
    .returning({ id: testCheckout.id });
  return row?.id;
}

export type TestCheckout = {
  id: string;
  product: CheckoutProduct;
  amountCents: number;
  currency: string;
  couponCode: string | null;
  /** The VIP Upgrade bump's price when it was ticked, else null. */
  bumpCents: number | null;
  /** An upsell's checkout: the order it is added to, else null. */
  firstPurchaseId: string | null;
};

/** A pending test checkout of this user, or undefined (unknown id or someone else's). */
export async function findTestCheckout(
  db: Db,
  userId: string,
  checkoutId: string,
): Promise<TestCheckout | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(checkoutId)) return undefined;
  const [row] = await db
    .select()
    .from(testCheckout)
    .where(and(eq(testCheckout.id, checkoutId), eq(testCheckout.userId, userId)))
    .limit(1);
  const product = row && checkoutProduct(row.product);
  if (!row || !product) return undefined;
  return {
    id: row.id,
    product,
    amountCents: row.amountCents,
    currency: row.currency,
    couponCode: row.couponCode,
    bumpCents: row.bumpCents,
    firstPurchaseId: row.firstPurchaseId,
  };
}

/**
 * Pays a test checkout: one completed purchase per checkout, and one of the
 * VIP Upgrade when it was ticked, however often Pay is pressed (one transaction).
 * An upsell's joins its order, once (fulfilUpsell): undefined when the order
 * holds it already.
 */
export async function payTestCheckout(
  db: Db,
  userId: string,
  checkoutId: string,
): Promise<Purchase | undefined> {
  const checkout = await findTestCheckout(db, userId, checkoutId);
  if (!checkout) return undefined;
  const paid = {
    userId,
    provider: "test",
    currency: checkout.currency,
    couponCode: checkout.couponCode,
  } as const;
  if (isUpsellProduct(checkout.product.id)) {
    return fulfilUpsell(db, {
      ...paid,
      providerRef: checkout.id,
      product: checkout.product.id,
      amountCents: checkout.amountCents,
      firstPurchaseId: checkout.firstPurchaseId ?? undefined,
    });
  }
  return db.transaction(async (tx) => {
    const plan = await fulfilPurchase(tx, {
      ...paid,
      providerRef: checkout.id,
      product: checkout.product.id,
      amountCents: checkout.amountCents,
    });
    if (checkout.bumpCents !== null) {
      await fulfilPurchase(tx, {
        ...paid,
        providerRef: bumpRef(checkout.id),
        product: orderBump,
        amountCents: checkout.bumpCents,
        // The coupon takes its saving off the plan's price alone.
        couponCode: null,
        firstPurchaseId: plan.id,
      });
    }
    return plan;
  });
}
