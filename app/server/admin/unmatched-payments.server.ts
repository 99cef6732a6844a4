// The owner's console, the payments that granted nothing (payment_issue):
// attach one to an account, or dismiss it; each written to the audit log.

import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { type FunnelProductKey, formatAmount, funnelProductKeys } from "~/config/site";
import { type OfferSettings, productPrice } from "~/lib/offer";
import { holdsProduct } from "../access.server";
import { type Actor, recordAudit } from "../audit-log.server";
import type { Db } from "../db/client.server";
import { paymentIssue, user } from "../db/schema";
import { fulfilPurchase } from "../payments/purchases.server";
import { productName } from "../settings/offer-settings.server";
import type { MemberActionResult } from "./member-actions.server";

/** The payments that granted nothing, newest first, for the owner to attach or dismiss. */
export function unmatchedPayments(db: Db) {
  return db
    .select()
    .from(paymentIssue)
    .where(isNull(paymentIssue.resolvedAt))
    .orderBy(desc(paymentIssue.createdAt))
    .limit(100);
}

/**
 * The product an unmatched payment most likely paid for: the first whose
 * price (the offer settings) is its amount; else Lifetime Access.
 */
export function likelyProduct(
  offer: OfferSettings,
  payment: { amountCents: number; currency: string },
): FunnelProductKey {
  if (payment.currency !== "usd") return "lifetime-access";
  return (
    funnelProductKeys.find((key) => productPrice(offer, key).priceCents === payment.amountCents) ??
    "lifetime-access"
  );
}

/** An attach refused because the account already holds the product: the owner may go on. */
export type AttachResult = MemberActionResult | { ok: false; error: string; alreadyHeld: true };

/**
 * Attaches an unmatched payment to the account with this e-mail: a purchase
 * of `product` (what the owner says it paid for) at the amount paid, dated
 * when it was paid, under the payment's own reference (so a refund from the
 * provider later finds it), and the issue resolved. When the account already
 * holds that product it is refused with `alreadyHeld` unless `anyway`.
 */
export async function attachPayment(
  db: Db,
  actor: Actor,
  ref: { provider: string; providerRef: string },
  email: string,
  product: FunnelProductKey = "lifetime-access",
  anyway = false,
): Promise<AttachResult> {
  const [issue] = await db
    .select()
    .from(paymentIssue)
    .where(
      and(
        eq(paymentIssue.provider, ref.provider as "stripe"),
        eq(paymentIssue.providerRef, ref.providerRef),
        isNull(paymentIssue.resolvedAt),
      ),
    )
    .limit(1);
  if (!issue) return { ok: false, error: "This payment is already resolved." };
  const [owner] = await db
    .select({ id: user.id, email: user.email })
    .from(user)
    .where(eq(sql`lower(${user.email})`, email))
    .limit(1);
  if (!owner) return { ok: false, error: `No account with e-mail ${email}.` };
  const name = productName(product);
  if (!anyway && (await holdsProduct(db, { id: owner.id, isAdmin: false }, product))) {
    return {
      ok: false,
      alreadyHeld: true,
      error: `${owner.email} already holds ${name}. Attach it anyway to record this payment as a second purchase, or dismiss it.`,
    };
  }
  await db.transaction(async (tx) => {
    await fulfilPurchase(tx, {
      userId: owner.id,
      provider: issue.provider,
      providerRef: issue.providerRef,
      product,
      amountCents: issue.amountCents,
      currency: issue.currency,
      // Paid when the provider told us, not when the owner attached it.
      paidAt: issue.createdAt,
    });
    await tx
      .update(paymentIssue)
      .set({ resolvedAt: sql`now()` })
      .where(
        and(
          eq(paymentIssue.provider, issue.provider),
          eq(paymentIssue.providerRef, issue.providerRef),
        ),
      );
    await recordAudit(tx, actor, {
      kind: "payment.attach",
      target: owner.email,
      detail: `${issue.provider} ${issue.providerRef}: ${product}`,
    });
  });
  const day = issue.createdAt.toISOString().slice(0, 10);
  return {
    ok: true,
    message: `Attached the ${formatAmount(issue.amountCents, issue.currency)} payment of ${day} to ${owner.email} as ${name}.`,
  };
}

export async function dismissPayment(
  db: Db,
  actor: Actor,
  ref: { provider: string; providerRef: string },
): Promise<MemberActionResult> {
  const done = await db.transaction(async (tx) => {
    const rows = await tx
      .update(paymentIssue)
      .set({ resolvedAt: sql`now()` })
      .where(
        and(
          eq(paymentIssue.provider, ref.provider as "stripe"),
          eq(paymentIssue.providerRef, ref.providerRef),
          isNull(paymentIssue.resolvedAt),
        ),
      )
      .returning({ ref: paymentIssue.providerRef });
    if (rows.length === 0) return false;
    await recordAudit(tx, actor, {
      kind: "payment.dismiss",
      target: `${ref.provider} ${ref.providerRef}`,
    });
    return true;
  });
  return done
    ? { ok: true, message: "Dismissed the payment." }
    : { ok: false, error: "This payment is already resolved." };
}
