// The owner's console, refunds: paying back a purchase, in full or in part,
// from a member's page. With Stripe the money goes back at Stripe first and
// the refund is recorded with Stripe's refund id; a test checkout purchase is
// recorded alone; a marketplace purchase is refunded on the marketplace, whose
// notification closes its access (warriorplus.server.ts). A purchase paid back
// in full is refunded: it no longer counts for access, from the member's next
// request. docs/decisions/036-refunds-as-rows.md

import { and, eq, sql } from "drizzle-orm";
import { formatAmount } from "~/config/site";
import { type Actor, recordAudit } from "../audit-log.server";
import { type Db, rowsOf } from "../db/client.server";
import { purchase, refund } from "../db/schema";
import { logger } from "../logger.server";
import { type StripeConfig, stripeClient, stripeErrorLog } from "../payments/stripe.server";
import { productName } from "../settings/offer-settings.server";

export type RefundRequest = {
  userId: string;
  purchaseId: string;
  amountCents: number;
  /** What had been paid back when the form was shown: a form sent twice refunds once. */
  refundedBefore: number;
};

const refundedMeanwhile =
  "This purchase was refunded meanwhile: look at what is left and try again.";

export type RefundResult = { ok: true; message: string } | { ok: false; error: string };

/** A purchase and what has been paid back on it. */
export type Refundable = {
  id: string;
  provider: string;
  providerRef: string;
  product: string;
  orderNumber: string;
  amountCents: number;
  currency: string;
  status: string;
  refundedCents: number;
};

/** The member's purchase `purchaseId` with what was paid back on it, or undefined. */
export async function refundableOf(
  db: Db,
  userId: string,
  purchaseId: string,
): Promise<Refundable | undefined> {
  const [row] = await rowsOf(
    db,
    sql`select p.id, p.provider, p.provider_ref, p.product, p.order_number, p.amount_cents,
        p.currency, p.status,
        (select coalesce(sum(r.amount_cents), 0) from ${refund} r where r.purchase_id = p.id) as refunded
      from ${purchase} p where p.id = ${purchaseId} and p.user_id = ${userId}`,
  );
  if (!row) return undefined;
  return {
    id: String(row.id),
    provider: String(row.provider),
    providerRef: String(row.provider_ref),
    product: String(row.product),
    orderNumber: String(row.order_number),
    amountCents: Number(row.amount_cents),
    currency: String(row.currency),
    status: String(row.status),
    refundedCents: Number(row.refunded),
  };
}

/**
 * Why this purchase cannot be refunded from the console, or undefined when it
 * can (what is left of it, at most, can be paid back).
 */
export function whyNotRefundable(
  p: Pick<Refundable, "provider" | "providerRef" | "status" | "amountCents" | "refundedCents">,
  stripe: StripeConfig | undefined,
): string | undefined {
  if (p.provider === "manual") {
    return "Access given by hand: nothing was paid, so there is nothing to refund. Revoke access ends it.";
  }
  if (p.provider === "warriorplus") {
    return "Paid on WarriorPlus: refund it there. Access closes when WarriorPlus's refund notification arrives.";
  }
  if (p.status === "refunded" || p.refundedCents >= p.amountCents) return "Refunded in full.";
  if (p.provider === "stripe" && !stripeIntentOf(p))
    return "Nothing was charged for this purchase.";
  if (p.provider === "stripe" && !stripe) {
    return "Paid with Stripe, which is not configured here: refund it in the Stripe dashboard.";
  }
  return undefined;
}

/** The Stripe Payment Intent that paid a purchase (a bump's reference is the plan's and its product). */
const stripeIntentOf = (p: Pick<Refundable, "providerRef">) => {
  const intent = p.providerRef.split(":")[0] ?? "";
  return intent.startsWith("pi_") ? intent : undefined;
};

/**
 * Pays back `amountCents` of a member's purchase, once per form shown: the
 * idempotency key is the purchase, what had been paid back when the form was
 * shown and the amount, sent to Stripe and kept with the refund
 * (refund_request_key_idx). Two forms at once never pay back more than was
 * paid: the sum is checked again with the purchase row locked.
 * Returns null for no such purchase of this member.
 */
export async function refundPurchase(
  db: Db,
  actor: Actor,
  request: RefundRequest,
  stripe: StripeConfig | undefined,
): Promise<RefundResult | null> {
  const requestKey = `refund:${request.purchaseId}:${request.refundedBefore}:${request.amountCents}`;
  const p = await refundableOf(db, request.userId, request.purchaseId);
  if (!p) return null;
  const what = `${productName(p.product)} (order ${p.orderNumber})`;
  const [done] = await db
    .select({ amountCents: refund.amountCents })
    .from(refund)
    .where(eq(refund.requestKey, requestKey));
  if (done) return { ok: true, message: refundedMessage(p, what, done.amountCents) };
  const why = whyNotRefundable(p, stripe);
  if (why) return { ok: false, error: why };
  if (p.refundedCents !== request.refundedBefore) {
    return { ok: false, error: refundedMeanwhile };
  }
  const left = p.amountCents - p.refundedCents;
  if (request.amountCents > left) {
    return { ok: false, error: `At most ${formatAmount(left, p.currency)} can be refunded.` };
  }
  let providerRef: string | null = null;
  const intent = stripeIntentOf(p);
  if (p.provider === "stripe" && stripe && intent) {
    try {
      const made = await stripeClient(stripe).refunds.create(
        {
          payment_intent: intent,
          amount: request.amountCents,
          metadata: { purchase_id: p.id },
        },
        { idempotencyKey: requestKey },
      );
      providerRef = made.id;
    } catch (error) {
      logger.error({ ...stripeErrorLog(error), purchaseId: p.id }, "refund at Stripe failed");
      return {
        ok: false,
        error: "Stripe did not make the refund: nothing was refunded. Try again.",
      };
    }
  }
  const recorded = await db.transaction(async (tx) => {
    // The purchase row locked: refunds of one purchase are recorded one at a time.
    await tx.execute(sql`select 1 from ${purchase} where id = ${p.id} for update`);
    const [sum] = await rowsOf<{ paid: number }>(
      tx,
      sql`select coalesce(sum(amount_cents), 0)::int as paid from ${refund} where purchase_id = ${p.id}`,
    );
    const before = Number(sum?.paid ?? 0);
    // Another form's refund was recorded meanwhile: the test checkout's is refused (no
    // money moved); one Stripe made is recorded, as the money went back.
    if (!providerRef && before + request.amountCents > p.amountCents) return false;
    const [made] = await tx
      .insert(refund)
      .values({
        purchaseId: p.id,
        amountCents: request.amountCents,
        providerRef,
        requestKey,
        // As the database copies them from the purchase (refund_sale_columns).
        userId: request.userId,
        product: p.product,
        provider: p.provider,
        currency: p.currency,
      })
      .onConflictDoNothing()
      .returning({ id: refund.id });
    if (!made) return true;
    const full = before + request.amountCents >= p.amountCents;
    if (full) {
      await tx
        .update(purchase)
        .set({ status: "refunded", refundedAt: new Date() })
        .where(and(eq(purchase.id, p.id), eq(purchase.status, "completed")));
    }
    await recordAudit(tx, actor, {
      kind: "purchase.refund",
      target: what,
      detail: `${formatAmount(request.amountCents, p.currency)} of ${formatAmount(p.amountCents, p.currency)} paid back${
        full ? ": refunded in full, access from it ends" : ""
      }${providerRef ? ` (Stripe ${providerRef})` : ""}`,
    });
    return true;
  });
  if (!recorded) return { ok: false, error: refundedMeanwhile };
  return { ok: true, message: refundedMessage(p, what, request.amountCents) };
}

function refundedMessage(p: Refundable, what: string, amountCents: number): string {
  const full = p.refundedCents + amountCents >= p.amountCents || p.status === "refunded";
  return `Refunded ${formatAmount(amountCents, p.currency)} of ${what}.${
    full ? " It is refunded in full: it no longer gives access." : ""
  }`;
}
