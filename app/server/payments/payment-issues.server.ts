import { asc, isNull } from "drizzle-orm";
import type { Db, Tx } from "../db/client.server";
import { type PaymentIssueReason, type PurchaseProvider, paymentIssue } from "../db/schema";
import { logger } from "../logger.server";

export type PaymentIssue = typeof paymentIssue.$inferSelect;

export type PaymentIssueInput = {
  provider: PurchaseProvider;
  providerRef: string;
  reason: PaymentIssueReason;
  userRef: string | null;
  amountCents: number;
  currency: string;
};

const reasonText: Record<PaymentIssueReason, string> = {
  "not-the-plan": "a paid checkout for something other than the plan granted nothing",
  "unknown-user": "a paid checkout names no user of this product and granted nothing",
  "already-bought":
    "a paid upsell whose order already holds the product granted nothing: refund it",
};

/**
 * Records a paid payment that granted nothing, once (a delivery again changes
 * nothing), for the operator to resolve, and says so in the log (ids only).
 */
export async function recordPaymentIssue(db: Db | Tx, input: PaymentIssueInput): Promise<void> {
  const [created] = await db
    .insert(paymentIssue)
    .values(input)
    .onConflictDoNothing()
    .returning({ providerRef: paymentIssue.providerRef });
  if (created) {
    logger.warn(
      { provider: input.provider, providerRef: input.providerRef, reason: input.reason },
      `payment needs the operator: ${reasonText[input.reason]}`,
    );
  }
}

/** The payments that granted nothing and are not resolved yet, oldest first. */
export function openPaymentIssues(db: Db | Tx): Promise<PaymentIssue[]> {
  return db
    .select()
    .from(paymentIssue)
    .where(isNull(paymentIssue.resolvedAt))
    .orderBy(asc(paymentIssue.createdAt));
}
