import { and, eq } from "drizzle-orm";
import type Stripe from "stripe";
import { z } from "../../lib/zod";
import type { Db, Tx } from "../db/client.server";
import { purchase, webhookEvent } from "../db/schema";
import { logger } from "../logger.server";
import { countWebhook } from "../metrics/metrics.server";
import { bumpRef, purchaseOf, revokePurchase } from "./purchases.server";
import { type StripeConfig, stripeClient, stripeErrorLog } from "./stripe.server";
import {
  fulfilCheckoutSession,
  idOf,
  purchaseOfSession,
  retrieveCheckoutSession,
} from "./stripe-checkout.server";
import { fulfilUpsell, purchaseOfIntent } from "./upsell-orders.server";

const answer = (status: number, text: string) =>
  new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/**
 * POST /api/webhooks/stripe. Verifies the signature on the raw body (400 when
 * missing or wrong, nothing stored), then records the event id and applies it
 * in one transaction: idempotent (an event already recorded is answered 200
 * and not applied again), and a failure answers 500 with nothing recorded, so
 * Stripe retries. A verified event whose fields are not in the documented
 * shape is answered 200 and logged, as a retry would bring the same bytes.
 * 404 when Stripe is not configured.
 */
export async function handleStripeWebhook(
  db: Db,
  config: StripeConfig | undefined,
  request: Request,
): Promise<Response> {
  if (!config) return answer(404, "Not found");
  if (request.method !== "POST") return answer(405, "Method not allowed");
  const signature = request.headers.get("stripe-signature");
  if (!signature) {
    countWebhook("stripe", "bad_signature");
    return answer(400, "Missing Stripe-Signature header");
  }
  const body = await request.text();
  let event: Stripe.Event;
  try {
    event = stripeClient(config).webhooks.constructEvent(body, signature, config.webhookSecret);
  } catch {
    countWebhook("stripe", "bad_signature");
    return answer(400, "Invalid signature");
  }
  const malformed = malformedFields(event);
  if (malformed) {
    // Signed by Stripe but not in the shape its API documents: retrying cannot
    // change it, so it is acknowledged and logged (paths only, never values).
    const said = (event ?? {}) as { id?: unknown; type?: unknown };
    logger.warn(
      {
        eventId: typeof said.id === "string" ? said.id.slice(0, 100) : undefined,
        eventType: typeof said.type === "string" ? said.type.slice(0, 100) : undefined,
        fields: malformed,
      },
      "Stripe event acknowledged without effect: fields missing or malformed",
    );
    countWebhook("stripe", "malformed");
    return answer(200, "ok");
  }
  let applied = false;
  try {
    // A paid checkout is checked against the plan: its line items come from
    // Stripe, asked before the transaction (a failure answers 500: Stripe retries).
    // So are Stripe's fee and what was refunded outside the console: no call to
    // Stripe holds the transaction open.
    const checkout = await paidCheckoutOf(config, event);
    const fee = await feeOf(config, event, checkout).catch((error: unknown) => {
      // The fee is what Stripe says when it can: without it the payment is still recorded.
      logger.warn({ ...stripeErrorLog(error), eventId: event.id }, "Stripe fee not read");
      return undefined;
    });
    const refundedOutside = await refundedOutsideConsoleOf(config, event);
    await db.transaction(async (tx) => {
      const recorded = await tx
        .insert(webhookEvent)
        .values({ provider: "stripe", eventId: event.id })
        .onConflictDoNothing()
        .returning({ eventId: webhookEvent.eventId });
      applied = recorded.length > 0;
      if (!applied) return;
      await applyStripeEvent(tx, config, event, { checkout, refundedOutside });
      if (fee) await recordFee(tx, fee);
    });
  } catch (error) {
    logger.error(
      { ...stripeErrorLog(error), eventId: event.id, eventType: event.type },
      "Stripe webhook failed; Stripe will retry it",
    );
    countWebhook("stripe", "failed");
    return answer(500, "Webhook failed");
  }
  countWebhook("stripe", applied ? "applied" : "duplicate");
  return answer(200, "ok");
}

const stripeId = z.string().min(1).max(255);
/** An expandable reference: an id, the object with its id, or nothing. */
const reference = z.union([stripeId, z.object({ id: stripeId }), z.null()]).optional();
const amount = z.number().int().nonnegative();
const checkoutSession = z.object({
  id: stripeId,
  mode: z.string().nullish(),
  payment_status: z.string().nullish(),
  client_reference_id: stripeId.nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  payment_intent: reference,
  amount_total: amount.nullish(),
  currency: z.string().nullish(),
});

/** What this product reads of each event type it applies (Stripe's API reference). */
const appliedShapes: Partial<Record<string, z.ZodType>> = {
  "checkout.session.completed": checkoutSession,
  "checkout.session.async_payment_succeeded": checkoutSession,
  "payment_intent.succeeded": z.object({
    id: stripeId,
    status: z.string(),
    amount_received: amount.nullish(),
    currency: z.string().nullish(),
    metadata: z.record(z.string(), z.string()).nullish(),
  }),
  "charge.refunded": z.object({ payment_intent: reference, amount, amount_refunded: amount }),
  "charge.dispute.closed": z.object({ payment_intent: reference, status: z.string() }),
  "charge.succeeded": z.object({ payment_intent: reference, balance_transaction: reference }),
  "charge.updated": z.object({ payment_intent: reference, balance_transaction: reference }),
};

const envelope = z.object({
  id: stripeId,
  type: stripeId,
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

/**
 * The paths of the fields this product reads that a verified event lacks or
 * holds in another shape (an empty body, `data: null`, an object where an
 * id belongs), or undefined when it is well formed.
 */
function malformedFields(event: unknown): string[] | undefined {
  const paths = (error: z.ZodError, prefix: string[] = []) => [
    ...new Set(error.issues.map((issue) => [...prefix, ...issue.path.map(String)].join("."))),
  ];
  const outer = envelope.safeParse(event);
  if (!outer.success) return paths(outer.error);
  const shape = appliedShapes[outer.data.type];
  const inner = shape?.safeParse(outer.data.data.object);
  return inner && !inner.success ? paths(inner.error, ["data", "object"]) : undefined;
}

/** For a paid checkout event, the session with its line items; otherwise undefined. */
async function paidCheckoutOf(
  config: StripeConfig,
  event: Stripe.Event,
): Promise<Stripe.Checkout.Session | undefined> {
  if (
    event.type !== "checkout.session.completed" &&
    event.type !== "checkout.session.async_payment_succeeded"
  ) {
    return undefined;
  }
  if (!purchaseOfSession(event.data.object)) return undefined;
  return retrieveCheckoutSession(config, event.data.object.id);
}

/** Closes what a Stripe payment bought: the plan, and the order bump bought with it if any. */
async function revokePayment(tx: Tx, paymentIntent: string): Promise<void> {
  await revokePurchase(tx, { provider: "stripe", providerRef: paymentIntent });
  // Whether or not a bump was bought: a refund that overtakes its payment closes the
  // bump recorded after it too (an order without one leaves an unused revocation).
  await revokePurchase(tx, { provider: "stripe", providerRef: bumpRef(paymentIntent) });
}

/**
 * What was refunded of a payment other than from the console (the Stripe
 * dashboard): the refunds without the purchase the console names in their
 * metadata (admin/refunds.server.ts records its own, on its purchase).
 */
async function refundedOutsideConsoleOf(
  config: StripeConfig,
  event: Stripe.Event,
): Promise<number> {
  if (event.type !== "charge.refunded") return 0;
  const charge = event.data.object;
  const paymentIntent = idOf(charge.payment_intent);
  // Only a partial refund is attributed: all of it closes everything the payment bought.
  if (!paymentIntent || charge.amount_refunded >= charge.amount) return 0;
  const refunds = await stripeClient(config).refunds.list({
    payment_intent: paymentIntent,
    limit: 100,
  });
  return refunds.data
    .filter((r) => r.status !== "failed" && r.status !== "canceled" && !r.metadata?.purchase_id)
    .reduce((sum, r) => sum + r.amount, 0);
}

type Fee = { paymentIntent: string; feeCents: number };

/**
 * Stripe's fee on the payment an event is about, where Stripe gives it: the
 * balance transaction of a charge (charge.succeeded, charge.updated once it is
 * set), or of a paid checkout's or upsell's Payment Intent's latest charge.
 */
async function feeOf(
  config: StripeConfig,
  event: Stripe.Event,
  checkout: Stripe.Checkout.Session | undefined,
): Promise<Fee | undefined> {
  const stripe = stripeClient(config);
  const feeOfTransaction = async (
    paymentIntent: string | undefined,
    transaction: string | Stripe.BalanceTransaction | null | undefined,
  ): Promise<Fee | undefined> => {
    if (!paymentIntent || !transaction) return undefined;
    const found =
      typeof transaction === "string"
        ? await stripe.balanceTransactions.retrieve(transaction)
        : transaction;
    return { paymentIntent, feeCents: found.fee };
  };
  if (event.type === "charge.succeeded" || event.type === "charge.updated") {
    const charge = event.data.object;
    return feeOfTransaction(idOf(charge.payment_intent), charge.balance_transaction);
  }
  const paymentIntent =
    event.type === "payment_intent.succeeded"
      ? purchaseOfIntent(event.data.object)?.providerRef
      : idOf(checkout?.payment_intent);
  if (!paymentIntent) return undefined;
  const intent = await stripe.paymentIntents.retrieve(paymentIntent, {
    expand: ["latest_charge.balance_transaction"],
  });
  const charge = intent.latest_charge;
  return feeOfTransaction(
    paymentIntent,
    charge && typeof charge !== "string" ? charge.balance_transaction : undefined,
  );
}

/** Stripe's fee, on the purchase of the payment's own reference (the plan's, for a plan and its bump). */
async function recordFee(tx: Tx, fee: Fee): Promise<void> {
  await tx
    .update(purchase)
    .set({ feeCents: fee.feeCents })
    .where(and(eq(purchase.provider, "stripe"), eq(purchase.providerRef, fee.paymentIntent)));
}

/**
 * Applies one verified event inside the caller's transaction. Events may come
 * late, twice or out of order: each step is idempotent and a refund that
 * overtakes its payment still wins (see revokePurchase).
 */
async function applyStripeEvent(
  tx: Tx,
  config: StripeConfig,
  event: Stripe.Event,
  asked: { checkout: Stripe.Checkout.Session | undefined; refundedOutside: number },
): Promise<void> {
  const { checkout } = asked;
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      // An unpaid session (a delayed payment method) is fulfilled by async_payment_succeeded.
      if (checkout) await fulfilCheckoutSession(tx, config, checkout);
      return;
    case "payment_intent.succeeded": {
      // An upsell charged off-session (upsell.server.ts); a Checkout Session's own
      // payment has no such metadata and is fulfilled by its session's events.
      const upsell = purchaseOfIntent(event.data.object);
      if (upsell) await fulfilUpsell(tx, upsell);
      return;
    }
    case "charge.refunded": {
      const charge = event.data.object;
      const paymentIntent = idOf(charge.payment_intent);
      if (!paymentIntent) return;
      // Paid in full back: the plan and the bump bought with it, if any, close. Less: what
      // the console's refunds of this payment do not explain was refunded in the Stripe
      // dashboard; it closes the bump alone when at least its price, else nothing yet (the
      // event comes again when more is refunded). A console refund closes its own purchase.
      if (charge.amount_refunded >= charge.amount) {
        await revokePayment(tx, paymentIntent);
      } else {
        const bump = { provider: "stripe" as const, providerRef: bumpRef(paymentIntent) };
        const held = await purchaseOf(tx, bump);
        if (held?.status === "completed" && asked.refundedOutside >= held.amountCents) {
          await revokePurchase(tx, bump);
        }
      }
      return;
    }
    case "charge.dispute.closed": {
      const dispute = event.data.object;
      const paymentIntent = idOf(dispute.payment_intent);
      if (paymentIntent && dispute.status === "lost") await revokePayment(tx, paymentIntent);
      return;
    }
    default:
      // Event types this product does not use are acknowledged and ignored.
      return;
  }
}
