// The owner's console, the payments that granted nothing (payment_issue):
// attach one to an account, or dismiss it; each written to the audit log.

import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { accessProduct } from "~/config/site";
import { type Actor, recordAudit } from "../audit-log.server";
import type { Db } from "../db/client.server";
import { paymentIssue, user } from "../db/schema";
import { fulfilPurchase } from "../payments/purchases.server";
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
 * Attaches an unmatched payment to the account with this e-mail: a purchase
 * of the plan under the payment's own reference (so a refund from the
 * provider later finds it), and the issue resolved.
 */
export async function attachPayment(
  db: Db,
  actor: Actor,
  ref: { provider: string; providerRef: string },
  email: string,
): Promise<MemberActionResult> {
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
  await db.transaction(async (tx) => {
    await fulfilPurchase(tx, {
      userId: owner.id,
      provider: issue.provider,
      providerRef: issue.providerRef,
      product: accessProduct,
      amountCents: issue.amountCents,
      currency: issue.currency,
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
      detail: `${issue.provider} ${issue.providerRef}`,
    });
  });
  return {
    ok: true,
    message: `Attached the payment to ${owner.email}: they have Lifetime Access.`,
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
