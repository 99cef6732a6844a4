import { eq } from "drizzle-orm";
import type Stripe from "stripe";
import { isUpsellProduct, lifetimeAccess, orderBump, products } from "~/config/site";
import { couponEndsAt } from "~/lib/offer";
import type { Db, Tx } from "../db/client.server";
import { stripeCustomer, user } from "../db/schema";
import { logger } from "../logger.server";
import { currentOfferSettings } from "../settings/offer-settings.server";
import { recordPaymentIssue } from "./payment-issues.server";
import { bumpRef, fulfilPurchase, type PurchaseInput } from "./purchases.server";
import { type StripeConfig, stripeClient, stripeErrorLog } from "./stripe.server";
import { promotionCodeFor } from "./stripe-promotion.server";
import { fulfilUpsell, upsellMetadata } from "./upsell-orders.server";

/**
 * The user's Stripe customer: reused from stripe_customer, or created once.
 * Race-safe: of two first checkouts at once, both use the customer stored first
 * (the loser's Stripe customer stays unused).
 */
export async function ensureStripeCustomer(
  db: Db,
  stripe: Stripe,
  user: { id: string; email?: string },
): Promise<string> {
  const byUser = eq(stripeCustomer.userId, user.id);
  const [known] = await db
    .select({ customerId: stripeCustomer.customerId })
    .from(stripeCustomer)
    .where(byUser)
    .limit(1);
  if (known) return known.customerId;
  const created = await stripe.customers.create({
    email: user.email,
    metadata: { user_id: user.id },
  });
  const [stored] = await db
    .insert(stripeCustomer)
    .values({ userId: user.id, customerId: created.id })
    .onConflictDoNothing({ target: stripeCustomer.userId })
    .returning({ customerId: stripeCustomer.customerId });
  if (stored) return stored.customerId;
  const [winner] = await db
    .select({ customerId: stripeCustomer.customerId })
    .from(stripeCustomer)
    .where(byUser)
    .limit(1);
  if (!winner) throw new Error("stripe customer vanished between insert and select");
  return winner.customerId;
}

export type StripeCheckoutRequest = {
  user: { id: string; email?: string };
  productId: string;
  origin: string;
  /** What the plan page shows now: the plan's price in the offer settings. */
  amountCents: number;
  /** The coupon the buyer typed at our checkout, taken: applied as its promotion code. */
  coupon?: { code: string; savingCents: number };
  /** The VIP Upgrade bump ticked with the plan: a second line at its price and name. */
  bump?: { amountCents: number; name: string };
};

/** The configured plan Price (STRIPE_PRICE_ID): its Product, amount and currency. */
type PlanPrice = { product: string; unitAmount: number | null; currency: string };

const planPrices = new WeakMap<StripeConfig, Promise<PlanPrice>>();

/**
 * The configured plan Price, asked of Stripe once per process (a Price's
 * product and amount never change); a failed lookup is not kept.
 */
function planPriceOf(config: StripeConfig): Promise<PlanPrice> {
  let known = planPrices.get(config);
  if (!known) {
    known = stripeClient(config)
      .prices.retrieve(config.priceId)
      .then((price) => {
        const product = idOf(price.product);
        if (!product) throw new Error("the plan's Stripe price has no product");
        return { product, unitAmount: price.unit_amount, currency: price.currency };
      });
    planPrices.set(config, known);
    known.catch(() => planPrices.delete(config));
  }
  return known;
}

/** The metadata key of the plan's price (cents) a Checkout Session was created at. */
const createdAtPriceKey = "plan_price_cents";
/** The metadata key of the order bump's price (cents), in a session that adds it. */
const bumpPriceKey = "bump_price_cents";
/** Session metadata: the coupon code typed at our checkout and applied. */
const couponCodeKey = "coupon_code";

/**
 * Creates the Checkout Session of docs/product.md, Stripe (one-time payment of
 * the plan's price; the coupon typed on the plan page applied as its promotion
 * code, else promotion codes allowed on Stripe's page) and returns its URL,
 * which may be null. Its price is `amountCents`, what the plan page shows: the configured
 * Price when it costs that, else a price of the same Product at that amount
 * (`price_data`); the amount is kept in the session's metadata, which
 * fulfilment checks the payment against. Throws the SDK's errors.
 */
export async function createStripeCheckoutSession(
  db: Db,
  config: StripeConfig,
  request: StripeCheckoutRequest,
): Promise<{ url: string | null }> {
  const stripe = stripeClient(config);
  const coupon = request.coupon;
  const [customer, plan, promotionCode] = await Promise.all([
    ensureStripeCustomer(db, stripe, request.user),
    planPriceOf(config),
    coupon
      ? promotionCodeFor(config, { ...coupon, endsAt: couponEndsAt(currentOfferSettings()) })
      : undefined,
  ]);
  const currency = lifetimeAccess.currency;
  const line: Stripe.Checkout.SessionCreateParams.LineItem =
    plan.unitAmount === request.amountCents && plan.currency === currency
      ? { price: config.priceId, quantity: 1 }
      : {
          price_data: { currency, unit_amount: request.amountCents, product: plan.product },
          quantity: 1,
        };
  // The VIP Upgrade ticked on the plan page: a line of its own at its price and name.
  const bump = request.bump;
  const bumpLine: Stripe.Checkout.SessionCreateParams.LineItem[] = bump
    ? [
        {
          price_data: {
            currency,
            unit_amount: bump.amountCents,
            product_data: { name: bump.name, metadata: { product_id: orderBump } },
          },
          quantity: 1,
        },
      ]
    : [];
  const session = await stripe.checkout.sessions.create({
    mode: "payment",
    line_items: [line, ...bumpLine],
    success_url: `${request.origin}/success?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${request.origin}/cancel`,
    // The coupon typed at our checkout, applied; else Stripe's page takes a promotion code.
    ...(promotionCode
      ? { discounts: [{ promotion_code: promotionCode }] }
      : { allow_promotion_codes: true }),
    client_reference_id: request.user.id,
    customer,
    // The card is kept for the one-click upsells after it (the plan page says so).
    payment_intent_data: { setup_future_usage: "off_session" },
    metadata: {
      user_id: request.user.id,
      product_id: request.productId,
      [createdAtPriceKey]: String(request.amountCents),
      ...(bump ? { [bumpPriceKey]: String(bump.amountCents) } : {}),
      // The coupon typed at our checkout, for the purchase to name (the sales CSV).
      ...(promotionCode && coupon ? { [couponCodeKey]: coupon.code } : {}),
    },
  });
  return { url: session.url };
}

/** A Payment Intent's id from an expandable field. */
export function idOf(field: string | { id: string } | null | undefined): string | undefined {
  if (!field) return undefined;
  return typeof field === "string" ? field : field.id;
}

/**
 * The purchase a Checkout Session pays for, or undefined when it is not (yet)
 * paid or was not started by this product. The provider reference is the
 * Payment Intent (what refunds and disputes name), or the session for a
 * checkout with nothing to pay (a 100% promotion code: never refunded).
 */
export function purchaseOfSession(session: Stripe.Checkout.Session): PurchaseInput | undefined {
  if (session.mode !== "payment") return undefined;
  if (session.payment_status !== "paid" && session.payment_status !== "no_payment_required") {
    return undefined;
  }
  const userId = session.client_reference_id ?? session.metadata?.user_id;
  if (!userId) return undefined;
  const productId = session.metadata?.product_id;
  const product = productId && Object.hasOwn(products, productId) ? products[productId] : undefined;
  return {
    userId,
    provider: "stripe",
    providerRef: idOf(session.payment_intent) ?? session.id,
    product: (product ?? lifetimeAccess).id,
    amountCents: session.amount_total ?? 0,
    currency: session.currency ?? lifetimeAccess.currency,
    couponCode: session.metadata?.[couponCodeKey] ?? null,
  };
}

/**
 * What a Checkout Session, retrieved with its line items, buys, or null when
 * it does not buy the plan. The plan: a line of the configured Price, or of
 * a price of its Product, in the plan's currency, at no less than the plan's
 * price when the session was created (its metadata; for a session without
 * it, the price in the offer settings now, `planPriceCents`, read from
 * memory). The order bump, when the session was created with it (its
 * metadata): one more line, of another product, at no less than its price
 * then; its line is returned. Any other line, or a line below its price,
 * buys nothing: a paid session for anything else in the same Stripe account
 * (a Payment Link, another product) is recorded for the operator instead.
 */
export function sessionLines(
  session: Stripe.Checkout.Session,
  config: StripeConfig,
  planProduct?: string,
  planPriceCents: number = currentOfferSettings().planPriceCents,
): { bump: Stripe.LineItem | null } | null {
  const lines = session.line_items?.data ?? [];
  const atLeast = (line: Stripe.LineItem, cents: number) =>
    line.price?.currency === lifetimeAccess.currency &&
    line.price.unit_amount !== null &&
    line.price.unit_amount >= cents;
  const isThePlans = (line: Stripe.LineItem) =>
    line.price?.id === config.priceId ||
    (planProduct !== undefined && idOf(line.price?.product) === planProduct);
  const planLines = lines.filter(isThePlans);
  const others = lines.filter((line) => !isThePlans(line));
  const shown = centsIn(session, createdAtPriceKey) ?? planPriceCents;
  if (planLines.length === 0 || !planLines.every((line) => atLeast(line, shown))) return null;
  if (others.length === 0) return { bump: null };
  const bumpShown = centsIn(session, bumpPriceKey);
  const [bump] = others;
  if (others.length > 1 || !bump || bumpShown === undefined || !atLeast(bump, bumpShown)) {
    return null;
  }
  return { bump };
}

/** Whether a Checkout Session buys the plan (sessionLines), with or without the bump. */
export function buysThePlan(
  session: Stripe.Checkout.Session,
  config: StripeConfig,
  planProduct?: string,
  planPriceCents?: number,
): boolean {
  return sessionLines(session, config, planProduct, planPriceCents) !== null;
}

/**
 * The one line of an upsell's Checkout Session (upsell.server.ts), at no less
 * than its price when the session was created; null for anything else.
 */
function upsellLine(session: Stripe.Checkout.Session): { bump: null } | null {
  const lines = session.line_items?.data ?? [];
  const shown = centsIn(session, upsellMetadata.price);
  const [line] = lines;
  const paysIt =
    lines.length === 1 &&
    shown !== undefined &&
    line?.price?.currency === lifetimeAccess.currency &&
    (line.price.unit_amount ?? 0) >= shown;
  return paysIt ? { bump: null } : null;
}

/** A price (cents) a session of ours was created at, from its metadata. */
function centsIn(session: Stripe.Checkout.Session, key: string): number | undefined {
  const value = session.metadata?.[key];
  return value && /^\d{1,9}$/.test(value) ? Number(value) : undefined;
}

/**
 * A Checkout Session with its line items, which fulfilment checks against the
 * plan; the plan's Price is looked up too (once per process), so fulfilment
 * itself asks Stripe nothing.
 */
export async function retrieveCheckoutSession(
  config: StripeConfig,
  sessionId: string,
): Promise<Stripe.Checkout.Session> {
  const [session] = await Promise.all([
    stripeClient(config).checkout.sessions.retrieve(sessionId, { expand: ["line_items"] }),
    planPriceOf(config),
  ]);
  return session;
}

export type CheckoutOutcome = "paid" | "pending" | "refunded" | "not-applicable";

/**
 * Fulfils a paid Checkout Session, retrieved with its line items; idempotent
 * (the webhook and /success share it). A paid session that is not for the
 * plan, or whose client_reference_id is no user, grants nothing and is
 * recorded for the operator ("not-applicable").
 */
export async function fulfilCheckoutSession(
  db: Db | Tx,
  config: StripeConfig,
  session: Stripe.Checkout.Session,
): Promise<CheckoutOutcome> {
  const input = purchaseOfSession(session);
  if (!input) return "pending";
  const issue = { provider: "stripe" as const, providerRef: session.id, userRef: input.userId };
  const amount = { amountCents: input.amountCents, currency: input.currency };
  const upsell = session.metadata?.product_id;
  const plan = await planPriceOf(config);
  const lines = isUpsellProduct(upsell)
    ? upsellLine(session)
    : sessionLines(session, config, plan.product);
  if (!lines) {
    await recordPaymentIssue(db, { ...issue, ...amount, reason: "not-the-plan" });
    return "not-applicable";
  }
  const [buyer] = await db.select({ id: user.id }).from(user).where(eq(user.id, input.userId));
  if (!buyer) {
    await recordPaymentIssue(db, { ...issue, ...amount, reason: "unknown-user" });
    return "not-applicable";
  }
  if (isUpsellProduct(upsell)) {
    // An upsell the bank asked to authenticate (or bought without a saved card): its order's.
    const bought = await fulfilUpsell(db, {
      ...input,
      product: upsell,
      firstPurchaseId: session.metadata?.[upsellMetadata.order],
    });
    if (!bought) return "not-applicable";
    return bought.status === "completed" ? "paid" : "refunded";
  }
  // The bump is its own purchase: what its line was paid (Stripe spreads a promotion
  // code over the lines), the plan the rest.
  const bumpCents = lines.bump?.amount_total ?? 0;
  const purchase = await db.transaction(async (tx) => {
    const bought = await fulfilPurchase(tx, {
      ...input,
      amountCents: input.amountCents - bumpCents,
    });
    if (lines.bump) {
      await fulfilPurchase(tx, {
        ...input,
        providerRef: bumpRef(input.providerRef),
        product: orderBump,
        amountCents: bumpCents,
        firstPurchaseId: bought.id,
      });
    }
    return bought;
  });
  return purchase.status === "completed" ? "paid" : "refunded";
}

export type CheckoutReturn = "paid" | "pending" | "refunded" | "unknown";

const sessionIdPattern = /^cs_(test|live)_[A-Za-z0-9]{1,200}$/;

/** How long /success reuses Stripe's answer about one session. */
export const checkoutLookupReuseMs = 5_000;
const lookups = new Map<string, { at: number; session: Promise<Stripe.Checkout.Session> }>();

/**
 * The session from Stripe, asked at most once per checkoutLookupReuseMs
 * whatever the number of requests (reloads, several tabs); a failed lookup
 * is not kept.
 */
function lookUpSession(config: StripeConfig, sessionId: string, now = Date.now()) {
  for (const [id, lookup] of lookups) {
    if (now - lookup.at >= checkoutLookupReuseMs) lookups.delete(id);
  }
  const known = lookups.get(sessionId);
  if (known) return known.session;
  const session = retrieveCheckoutSession(config, sessionId);
  lookups.set(sessionId, { at: now, session });
  session.catch(() => lookups.delete(sessionId));
  return session;
}

/**
 * On the return to /success: looks the session up at Stripe and, when it is
 * paid and was started by this user, fulfils it at once instead of waiting for
 * the webhook. Idempotent. Someone else's session, a session that grants
 * nothing, or a lookup failure, is "unknown" (and changes nothing).
 */
export async function reconcileStripeCheckout(
  db: Db,
  config: StripeConfig,
  request: { userId: string; sessionId: string },
): Promise<CheckoutReturn> {
  if (!sessionIdPattern.test(request.sessionId)) return "unknown";
  let session: Stripe.Checkout.Session;
  try {
    session = await lookUpSession(config, request.sessionId);
  } catch (error) {
    logger.warn(stripeErrorLog(error), "checkout session lookup failed");
    return "unknown";
  }
  if (session.client_reference_id !== request.userId) return "unknown";
  const outcome = await fulfilCheckoutSession(db, config, session);
  return outcome === "not-applicable" ? "unknown" : outcome;
}
