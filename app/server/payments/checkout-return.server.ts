import { hasPaidAccess } from "../access.server";
import { getRateLimits } from "../auth/rate-limit.server";
import type { Db } from "../db/client.server";
import type { StripeConfig } from "./stripe.server";
import { type CheckoutReturn, reconcileStripeCheckout } from "./stripe-checkout.server";

/**
 * What /success tells the person looking at it (docs/product.md, Checkout
 * return pages): "paid" (access is active) only to a signed-in user who has
 * paid access now; Stripe's word on their own Checkout Session ("pending",
 * "refunded") when it is all there is to say; "unknown", a neutral page, to
 * anyone else, a visitor without a session first. With Stripe, a paid session
 * of this user is fulfilled first. Idempotent (with the webhook too).
 */
export async function checkoutReturnFor(
  db: Db,
  stripe: StripeConfig | undefined,
  visit: { user: { id: string; isAdmin: boolean } | null; sessionId: string | null },
): Promise<CheckoutReturn> {
  const { user, sessionId } = visit;
  if (!user) return "unknown";
  let stripeSays: CheckoutReturn = "unknown";
  // Each lookup asks Stripe's API: a user reloading without end gets the
  // webhook's word instead (the page says the payment is not confirmed here).
  if (stripe && sessionId && (await getRateLimits().checkoutReturn.perUser.hit(user.id))) {
    stripeSays = await reconcileStripeCheckout(db, stripe, { userId: user.id, sessionId });
  }
  if (stripeSays === "paid" || (await hasPaidAccess(db, user))) return "paid";
  return stripeSays;
}
