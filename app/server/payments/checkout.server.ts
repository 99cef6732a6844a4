import { lifetimeAccess, orderBump, type Product, products } from "~/config/site";
import { type PlanOffer, planOfferPriceCents } from "~/lib/offer";
import { holdsProduct } from "../access.server";
import type { Db } from "../db/client.server";
import { logger } from "../logger.server";
import { currentOfferSettings as offerNow, productName } from "../settings/offer-settings.server";
import { type StripeConfig, stripeErrorLog } from "./stripe.server";
import { createStripeCheckoutSession } from "./stripe-checkout.server";
import { startTestCheckout } from "./test-checkout.server";

/** A checkout failure whose message is shown to the user (docs/product.md, Messages). */
export class CheckoutError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export const checkoutMessages = {
  noSession: "No active session",
  invalidProduct: "Invalid product ID",
  failed: "Failed to create checkout session",
  noUrl: "No checkout URL received",
  unknown: "An unknown error occurred",
} as const;

export type CheckoutRequest = {
  user: { id: string; email?: string } | null;
  productId: string;
  /** The coupon taken at the checkout (applyCoupon), if any: what it takes off the price. */
  coupon?: { code: string; savingCents: number };
  /** The plan at the second sales page's price ("offer2"); the plan's price when unset. */
  offer?: PlanOffer;
  /** The VIP Upgrade bump ticked with the plan: bought too, as its own purchase, unless held. */
  bump?: boolean;
  origin: string;
  /** Whether the built-in test checkout may be used (Env.testCheckout). */
  testCheckout: boolean;
  /** Stripe, when configured (Env.stripe): then the checkout is a Stripe Checkout Session. */
  stripe?: StripeConfig;
};

/**
 * What a product costs now: the plan's price from the offer settings (the
 * second sales page's for its offer), others their own.
 */
export function planAmountCents(product: Product, offer: PlanOffer = "plan"): number {
  return product.id === lifetimeAccess.id
    ? planOfferPriceCents(offerNow(), offer)
    : product.amountCents;
}

/** Whether the checkout adds the order bump: ticked, with the plan, and not held already. */
async function bumpTaken(db: Db, request: CheckoutRequest, product: Product): Promise<boolean> {
  if (!request.bump || !request.user || product.id !== lifetimeAccess.id) return false;
  return !(await holdsProduct(db, { id: request.user.id, isAdmin: false }, orderBump));
}

/**
 * Starts a checkout and returns the URL the browser goes to: a Stripe
 * Checkout Session when Stripe is configured, else the built-in test checkout
 * at /checkout/test/{id}. Throws CheckoutError with the messages of
 * docs/product.md, Messages.
 */
export async function createCheckout(db: Db, request: CheckoutRequest): Promise<{ url: string }> {
  if (!request.user) throw new CheckoutError(checkoutMessages.noSession, 401);
  const product = Object.hasOwn(products, request.productId)
    ? products[request.productId]
    : undefined;
  if (!product) throw new CheckoutError(checkoutMessages.invalidProduct, 400);
  // The plan's price is an offer setting (docs/decisions/012), read from memory.
  const priceCents = planAmountCents(product, request.offer);
  const coupon = request.coupon;
  const bumpCents = (await bumpTaken(db, request, product)) ? offerNow().bumpPriceCents : null;
  if (request.stripe) {
    let url: string | null;
    try {
      // At Stripe the coupon is a promotion code, which the session applies to the price.
      ({ url } = await createStripeCheckoutSession(db, request.stripe, {
        user: request.user,
        productId: product.id,
        origin: request.origin,
        amountCents: priceCents,
        coupon,
        bump:
          bumpCents === null ? undefined : { amountCents: bumpCents, name: productName(orderBump) },
      }));
    } catch (error) {
      logger.error(stripeErrorLog(error), "Stripe checkout session failed");
      throw new CheckoutError(checkoutMessages.failed, 502);
    }
    if (!url) throw new CheckoutError(checkoutMessages.noUrl, 502);
    return { url };
  }
  // No card provider is configured; outside a local run the test checkout is off.
  if (!request.testCheckout) {
    logger.error("checkout refused: no payment provider configured and TEST_CHECKOUT is off");
    throw new CheckoutError(checkoutMessages.failed, 503);
  }
  let id: string | undefined;
  try {
    id = await startTestCheckout(
      db,
      request.user.id,
      product,
      priceCents - (coupon?.savingCents ?? 0),
      { couponCode: coupon?.code ?? null, bumpCents },
    );
  } catch (error) {
    logger.error({ err: error }, "test checkout could not be created");
    throw new CheckoutError(checkoutMessages.failed, 502);
  }
  if (!id) throw new CheckoutError(checkoutMessages.noUrl, 502);
  return { url: `${request.origin}/checkout/test/${id}` };
}
