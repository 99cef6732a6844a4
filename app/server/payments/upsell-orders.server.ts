// The upsells' orders (docs/product.md, Funnel): which products are sold after
// the plan, where each leads on, and how an upsell's payment is added to the
// plan's order: at most one purchase of each product per order.
import { and, eq, sql } from "drizzle-orm";
import { isUpsellProduct, lifetimeAccess } from "~/config/site";
import type { Db, Tx } from "../db/client.server";
import { type PaymentIssueReason, purchase, user } from "../db/schema";
import { recordPaymentIssue } from "./payment-issues.server";
import { fulfilPurchase, type Purchase, type PurchaseInput } from "./purchases.server";

/** The metadata keys of an upsell's payment at Stripe: its order and its price then. */
export const upsellMetadata = { order: "first_purchase_id", price: "upsell_price_cents" } as const;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The upsell an off-session Payment Intent of ours paid for, from its metadata; else undefined. */
export function purchaseOfIntent(intent: {
  id: string;
  status: string;
  amount_received?: number | null;
  currency?: string | null;
  metadata?: Record<string, string> | null;
}): (PurchaseInput & { firstPurchaseId: string }) | undefined {
  const metadata = intent.metadata ?? {};
  const product = metadata.product_id;
  const order = metadata[upsellMetadata.order];
  const userId = metadata.user_id;
  if (!isUpsellProduct(product) || !order || !uuidPattern.test(order) || !userId) return undefined;
  if (intent.status !== "succeeded") return undefined;
  return {
    userId,
    provider: "stripe",
    providerRef: intent.id,
    product,
    amountCents: intent.amount_received ?? 0,
    currency: intent.currency ?? lifetimeAccess.currency,
    firstPurchaseId: order,
  };
}

/**
 * Records an upsell's payment, added to its order when it names one of this
 * member. Idempotent. A payment for a product its order already holds from
 * another payment is refused (the database's rule too), as is one for no user
 * of this product: each is recorded for the operator (to refund), and
 * undefined returned.
 */
export async function fulfilUpsell(
  db: Db | Tx,
  input: PurchaseInput,
): Promise<Purchase | undefined> {
  return db.transaction(async (tx) => {
    const orderId = input.firstPurchaseId;
    const [order] =
      orderId && uuidPattern.test(orderId)
        ? await tx
            .select({ id: purchase.id })
            .from(purchase)
            .where(and(eq(purchase.id, orderId), eq(purchase.userId, input.userId)))
        : [];
    if (!order) {
      const [buyer] = await tx.select({ id: user.id }).from(user).where(eq(user.id, input.userId));
      if (buyer) return fulfilPurchase(tx, { ...input, firstPurchaseId: undefined });
      await recordPaymentIssue(tx, issueOf(input, "unknown-user"));
      return undefined;
    }
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`order:${order.id}:${input.product}`}, 0))`,
    );
    const [held] = await tx
      .select()
      .from(purchase)
      .where(and(eq(purchase.firstPurchaseId, order.id), eq(purchase.product, input.product)));
    if (!held) return fulfilPurchase(tx, input);
    if (held.provider === input.provider && held.providerRef === input.providerRef) return held;
    await recordPaymentIssue(tx, issueOf(input, "already-bought"));
    return undefined;
  });
}

const issueOf = (input: PurchaseInput, reason: PaymentIssueReason) => ({
  provider: input.provider,
  providerRef: input.providerRef,
  reason,
  userRef: input.userId,
  amountCents: input.amountCents,
  currency: input.currency,
});
