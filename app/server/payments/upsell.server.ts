// One-click upsells (docs/product.md, Funnel): after the plan is paid here, the
// 12-in-1 White Label package and the Custom SaaS build are bought with the card
// that paid it, without entering it again. With Stripe: a PaymentIntent confirmed
// off-session for the customer with the card the plan's Checkout Session saved;
// when the bank asks for authentication, a Checkout Session for the product takes
// over. With the test checkout: its saved test card. Each is a purchase of its
// own, added to the plan's order: at most one of each product per order (an
// idempotency key at Stripe, a unique index in the database).
import { and, desc, eq, sql } from "drizzle-orm";
import Stripe from "stripe";
import {
  accessProduct,
  isUpsellProduct,
  lifetimeAccess,
  type UpsellProduct,
  upsellProducts,
  upsellSteps,
} from "~/config/site";
import { productPrice } from "~/lib/offer";
import { holdingsOf, holdingsSql, holdsProduct } from "../access.server";
import { getSessionUser } from "../auth/session-user.server";
import { type Db, rowsOf } from "../db/client.server";
import { getDb } from "../db/db.server";
import { type PurchaseProvider, purchase } from "../db/schema";
import { logger } from "../logger.server";
import { currentOfferSettings, productName } from "../settings/offer-settings.server";
import { coachingPlacesLeft } from "./places-left.server";
import { addOnRef, type Purchase } from "./purchases.server";
import { type StripeConfig, stripeClient, stripeErrorLog } from "./stripe.server";
import { ensureStripeCustomer, idOf } from "./stripe-checkout.server";
import { startTestCheckout } from "./test-checkout.server";
import { fulfilUpsell, purchaseOfIntent, upsellMetadata } from "./upsell-orders.server";

export type UpsellRequest = {
  user: { id: string; email?: string };
  product: UpsellProduct;
  origin: string;
  /** Stripe, when configured (Env.stripe); else the test checkout. */
  stripe?: StripeConfig;
};

export type UpsellOutcome =
  /** Charged and recorded (or already recorded for this order: a second click). */
  | { kind: "bought"; purchase: Purchase }
  /** The member holds it already: not sold again. */
  | { kind: "owned" }
  /** A checkout takes over (the bank asks for authentication, or no card is saved here). */
  | { kind: "checkout"; url: string }
  /** The card was declined, or the charge is not confirmed yet: nothing recorded. */
  | { kind: "declined" }
  | { kind: "pending" }
  /** Every Custom SaaS place is taken. */
  | { kind: "sold-out" }
  /** No Lifetime Access: the upsells are for members. */
  | { kind: "no-plan" };

/**
 * What the member holds (holdingsSql: the access rule), and the order an
 * upsell is added to: their latest completed, not revoked purchase of the plan
 * paid through `provider` here (the card it saved). One query.
 */
async function holdingsAndOrder(db: Db, userId: string, provider: PurchaseProvider) {
  const [row] = await rowsOf<{ held: unknown; order_id: string | null; order_ref: string | null }>(
    db,
    sql`select ${holdingsSql(userId)} as held, o.id as order_id, o.provider_ref as order_ref
      from (select 1) as one left join lateral (
        select id, provider_ref from ${purchase}
        where user_id = ${userId} and provider = ${provider} and product = ${lifetimeAccess.id}
          and status = 'completed' and access_revoked_at is null
        order by created_at desc limit 1
      ) as o on true`,
  );
  const order =
    row?.order_id && row.order_ref ? { id: row.order_id, providerRef: row.order_ref } : undefined;
  return { held: holdingsOf(row?.held), order };
}

/**
 * "Yes, Upgrade My Order": buys `request.product` for the member with the card
 * of their last order, once per order however often it is asked (double click,
 * reload, two tabs).
 */
export async function buyUpsell(db: Db, request: UpsellRequest): Promise<UpsellOutcome> {
  const { user, product } = request;
  const { held, order } = await holdingsAndOrder(db, user.id, request.stripe ? "stripe" : "test");
  if (held.isAdmin || held.products.includes(product)) return { kind: "owned" };
  if (product === "custom-saas" && coachingPlacesLeft() === 0) return { kind: "sold-out" };
  if (!held.products.includes(accessProduct)) return { kind: "no-plan" };
  const amountCents = productPrice(currentOfferSettings(), product).priceCents;
  // The owner's setting: the Custom SaaS build paid at a checkout page, the card entered again.
  const atCheckout =
    product === "custom-saas" && currentOfferSettings().customSaasPayment === "checkout";
  if (request.stripe) {
    // A Payment Intent paid the plan (a checkout with nothing to pay saved no card).
    if (atCheckout || !order?.providerRef.startsWith("pi_")) {
      return upsellSession(db, request.stripe, request, amountCents, order?.id);
    }
    return chargeSavedCard(db, request.stripe, request, amountCents, order);
  }
  if (atCheckout || !order) {
    // Or paid elsewhere (the marketplace, the owner): the test checkout takes the card.
    const id = await startTestCheckout(db, user.id, { id: product, currency: "usd" }, amountCents, {
      firstPurchaseId: order?.id ?? null,
    });
    if (!id) throw new Error("test checkout could not be stored");
    return { kind: "checkout", url: `${request.origin}/checkout/test/${id}` };
  }
  const bought = await fulfilUpsell(db, {
    userId: user.id,
    provider: "test",
    providerRef: addOnRef(order.providerRef, product),
    product,
    amountCents,
    currency: lifetimeAccess.currency,
    firstPurchaseId: order.id,
  });
  return bought ? { kind: "bought", purchase: bought } : { kind: "owned" };
}

/**
 * Charges the card the plan's payment saved, off-session, with an idempotency
 * key of the order and the product: Stripe answers a repeat with the same
 * Payment Intent and charges once.
 */
async function chargeSavedCard(
  db: Db,
  config: StripeConfig,
  request: UpsellRequest,
  amountCents: number,
  order: { id: string; providerRef: string },
): Promise<UpsellOutcome> {
  const stripe = stripeClient(config);
  let intent: Stripe.PaymentIntent;
  try {
    const paid = await stripe.paymentIntents.retrieve(order.providerRef);
    const paymentMethod = idOf(paid.payment_method);
    const customer = idOf(paid.customer);
    if (!paymentMethod || !customer) {
      return upsellSession(db, config, request, amountCents, order.id);
    }
    intent = await stripe.paymentIntents.create(
      {
        amount: amountCents,
        currency: lifetimeAccess.currency,
        customer,
        payment_method: paymentMethod,
        off_session: true,
        confirm: true,
        description: productName(request.product),
        metadata: {
          user_id: request.user.id,
          product_id: request.product,
          [upsellMetadata.order]: order.id,
          [upsellMetadata.price]: String(amountCents),
        },
      },
      { idempotencyKey: `upsell-${order.id}-${request.product}` },
    );
  } catch (error) {
    if (error instanceof Stripe.errors.StripeCardError) {
      // The bank asks the cardholder: a Checkout Session for the product takes over.
      if (error.code === "authentication_required") {
        return upsellSession(db, config, request, amountCents, order.id);
      }
      logger.info(stripeErrorLog(error), "upsell card declined");
      return { kind: "declined" };
    }
    throw error;
  }
  if (intent.status === "requires_action" || intent.status === "requires_payment_method") {
    return upsellSession(db, config, request, amountCents, order.id);
  }
  const input = purchaseOfIntent(intent);
  if (intent.status !== "succeeded" || !input) return { kind: "pending" };
  const bought = await fulfilUpsell(db, input);
  return bought ? { kind: "bought", purchase: bought } : { kind: "owned" };
}

/**
 * A Checkout Session for one upsell, for the customer: when the bank asks for
 * authentication, or no card is saved here. Its metadata names the product, its
 * price then and the order it is added to; it returns to /success, which leads on.
 */
async function upsellSession(
  db: Db,
  config: StripeConfig,
  request: UpsellRequest,
  amountCents: number,
  orderId: string | undefined,
): Promise<UpsellOutcome> {
  const stripe = stripeClient(config);
  const { user, product } = request;
  const customer = await ensureStripeCustomer(db, stripe, user);
  const session = await stripe.checkout.sessions.create(
    {
      mode: "payment",
      line_items: [
        {
          price_data: {
            currency: lifetimeAccess.currency,
            unit_amount: amountCents,
            product_data: { name: productName(product), metadata: { product_id: product } },
          },
          quantity: 1,
        },
      ],
      success_url: `${request.origin}/success?session_id={CHECKOUT_SESSION_ID}&bought=${product}`,
      cancel_url: `${request.origin}${upsellSteps[product].page}`,
      client_reference_id: user.id,
      customer,
      metadata: {
        user_id: user.id,
        product_id: product,
        [upsellMetadata.price]: String(amountCents),
        ...(orderId ? { [upsellMetadata.order]: orderId } : {}),
      },
    },
    { idempotencyKey: `upsell-session-${orderId ?? user.id}-${product}-${amountCents}` },
  );
  if (!session.url) throw new Error("Stripe answered an upsell session without a url");
  return { kind: "checkout", url: session.url };
}

/**
 * Where /success leads once a payment is confirmed: after the plan, to the
 * first upsell the member does not hold (the funnel sells in the product);
 * after an upsell (`bought`), to the step after it; else the dashboard.
 */
export async function nextStepAfter(
  db: Db,
  user: { id: string },
  bought: string | null,
): Promise<string> {
  if (bought === "custom-saas") {
    // Its thank-you page names the order the member just paid.
    const [build] = await db
      .select({ orderNumber: purchase.orderNumber })
      .from(purchase)
      .where(
        and(
          eq(purchase.userId, user.id),
          eq(purchase.product, bought),
          eq(purchase.status, "completed"),
        ),
      )
      .orderBy(desc(purchase.createdAt))
      .limit(1);
    const next = upsellSteps[bought].next;
    return build ? `${next}?order=${build.orderNumber}` : next;
  }
  if (isUpsellProduct(bought)) return upsellSteps[bought].next;
  if (currentOfferSettings().sellIn !== "product") return "/dashboard";
  const [row] = await rowsOf<{ held: unknown }>(db, sql`select ${holdingsSql(user.id)} as held`);
  const held = holdingsOf(row?.held);
  if (held.isAdmin) return "/dashboard";
  const offered = upsellProducts.find((product) => !held.products.includes(product));
  return offered ? upsellSteps[offered].page : "/dashboard";
}

/**
 * Whether the member asking for an upsell's page holds it already: the page
 * says so instead of selling it. A visitor (no session cookie: the page is
 * served from memory) holds nothing.
 */
export async function ownsUpsell(request: Request, product: UpsellProduct): Promise<boolean> {
  const user = await getSessionUser(request);
  return user !== null && (await holdsProduct(await getDb(), user, product));
}
