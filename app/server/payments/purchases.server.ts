import { randomUUID } from "node:crypto";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { accessProduct, orderBump } from "~/config/site";
import type { Db, Tx } from "../db/client.server";
import { type PurchaseProvider, purchase, purchaseRevocation } from "../db/schema";
import { enqueuePurchaseReceipt } from "../mail/notices.server";
import { startSequence } from "../mail/sequences.server";

export type Purchase = typeof purchase.$inferSelect;

export type PaymentRef = {
  provider: PurchaseProvider;
  /** The provider's id for this payment: unique per provider. */
  providerRef: string;
};

export type PurchaseInput = PaymentRef & {
  userId: string;
  product: string;
  amountCents: number;
  currency: string;
  /** A marketplace sale to an account whose address is not proved yet (access.server.ts). */
  awaitsAddressProof?: boolean;
  /** When it was paid, when that was before it is recorded (an unmatched payment attached later). */
  paidAt?: Date;
  /** The order it was added to: the plan's purchase, for the bump and the upsells. */
  firstPurchaseId?: string;
  /** The coupon taken at our checkout, if any. */
  couponCode?: string | null;
};

/**
 * The provider reference of a product added to a payment's order without a
 * payment of its own at the provider: the order bump paid with the plan, and
 * an upsell charged to the test checkout's saved card. A purchase of its own,
 * beside the plan's (which has the payment's own reference).
 */
export const addOnRef = (paymentRef: string, product: string) => `${paymentRef}:${product}`;

/** The provider reference of the order bump bought with a payment (addOnRef). */
export const bumpRef = (paymentRef: string) => addOnRef(paymentRef, orderBump);

/** Thrown when a payment is already recorded for another user: never moved silently. */
export class PurchaseOwnerMismatchError extends Error {}

/**
 * Serializes fulfilment and revocation of one payment until the transaction
 * ends, so a refund racing its payment cannot miss the purchase row.
 */
async function lockPayment(tx: Tx, ref: PaymentRef): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`${ref.provider}:${ref.providerRef}`}, 0))`,
  );
}

const samePayment = (ref: PaymentRef) =>
  and(eq(purchase.provider, ref.provider), eq(purchase.providerRef, ref.providerRef));

/** The purchase a payment made, if it is recorded. */
export async function purchaseOf(db: Db | Tx, ref: PaymentRef): Promise<Purchase | undefined> {
  const [found] = await db.select().from(purchase).where(samePayment(ref)).limit(1);
  return found;
}

/** The refund or dispute of this payment recorded before the payment itself, if any. */
async function earlyRevocation(db: Db | Tx, ref: PaymentRef) {
  const [revocation] = await db
    .select({ revokedAt: purchaseRevocation.revokedAt })
    .from(purchaseRevocation)
    .where(
      and(
        eq(purchaseRevocation.provider, ref.provider),
        eq(purchaseRevocation.providerRef, ref.providerRef),
      ),
    )
    .limit(1);
  return revocation;
}

/**
 * Turns a provider's payment into a purchase. Idempotent and convergent; runs
 * in one transaction (a savepoint inside the caller's). The same (provider,
 * providerRef) gives one purchase however often and however concurrently it
 * arrives; a payment refunded before or after it arrives stays refunded (a late
 * duplicate never re-grants access); a payment already recorded for another
 * user throws PurchaseOwnerMismatchError. A newly completed purchase enqueues
 * its receipt in the same transaction; a duplicate sends nothing.
 */
export async function fulfilPurchase(db: Db | Tx, input: PurchaseInput): Promise<Purchase> {
  return (await recordPurchase(db, input)).purchase;
}

/**
 * Gives `product` to a user by hand: a completed manual purchase of $0 under a
 * fresh reference, which no sales figure counts (reports show it as a grant).
 */
export function grantByHand(db: Db | Tx, userId: string, product: string): Promise<Purchase> {
  return fulfilPurchase(db, {
    userId,
    provider: "manual",
    providerRef: randomUUID(),
    product,
    amountCents: 0,
    currency: "usd",
  });
}

/**
 * fulfilPurchase, saying whether this call recorded the payment (`created`):
 * true for exactly one of any number of calls for one payment, however
 * concurrent (the unique key on provider and reference decides), so what is
 * done once per payment can hang on it.
 */
export async function recordPurchase(
  db: Db | Tx,
  input: PurchaseInput,
): Promise<{ purchase: Purchase; created: boolean }> {
  return db.transaction(async (tx) => {
    await lockPayment(tx, input);
    const revocation = await earlyRevocation(tx, input);
    const { paidAt, ...recorded } = input;
    const inserted = await tx
      .insert(purchase)
      .values({
        ...recorded,
        ...(paidAt ? { createdAt: paidAt } : {}),
        status: revocation ? "refunded" : "completed",
        refundedAt: revocation?.revokedAt ?? null,
      })
      .onConflictDoNothing({ target: [purchase.provider, purchase.providerRef] })
      .returning();
    const created = inserted[0];
    if (created) {
      if (created.status === "completed") {
        await enqueuePurchaseReceipt(tx, created);
        if (created.product === accessProduct) {
          // From now, when access opens (a purchase may be dated when it was paid).
          await startSequence(tx, created.userId, "welcome", new Date());
        }
      }
      return { purchase: created, created: true };
    }
    const existing = await purchaseOf(tx, input);
    if (!existing) throw new Error("purchase vanished between insert and select");
    if (existing.userId !== input.userId) {
      throw new PurchaseOwnerMismatchError(
        `${input.provider} payment ${input.providerRef} is recorded for another user`,
      );
    }
    return { purchase: existing, created: false };
  });
}

/**
 * Marks a payment refunded, which ends the access it gave. Idempotent and
 * convergent; runs in one transaction. When the payment has no purchase yet
 * (the refund overtook it), the revocation is recorded and fulfilPurchase
 * later records the purchase as refunded. Returns the purchase, or undefined
 * when there is none yet.
 */
export async function revokePurchase(db: Db | Tx, ref: PaymentRef): Promise<Purchase | undefined> {
  return db.transaction(async (tx) => {
    await lockPayment(tx, ref);
    const [updated] = await tx
      .update(purchase)
      .set({ status: "refunded", refundedAt: new Date() })
      .where(and(samePayment(ref), eq(purchase.status, "completed")))
      .returning();
    if (updated) return updated;
    const existing = await purchaseOf(tx, ref);
    if (!existing) {
      await tx
        .insert(purchaseRevocation)
        .values({ provider: ref.provider, providerRef: ref.providerRef })
        .onConflictDoNothing();
    }
    return existing;
  });
}

/** Whether a refund or dispute of this payment arrived before the payment itself. */
export async function isRevokedBeforePurchase(db: Db | Tx, ref: PaymentRef): Promise<boolean> {
  return (await earlyRevocation(db, ref)) !== undefined;
}

/**
 * Ends the access these users' purchases give ("Revoke access"): each
 * completed purchase not revoked yet is marked revoked now. Nothing is
 * refunded: the purchases stay completed sales in every money figure, and a
 * refund from the provider later still marks them refunded. With `product`,
 * only that product's purchases. Returns the purchases it revoked.
 */
export async function revokeUserAccess(
  db: Db | Tx,
  userIds: readonly string[],
  product?: string,
): Promise<Purchase[]> {
  if (userIds.length === 0) return [];
  return db
    .update(purchase)
    .set({ accessRevokedAt: sql`now()` })
    .where(
      and(
        inArray(purchase.userId, [...userIds]),
        product === undefined ? undefined : eq(purchase.product, product),
        eq(purchase.status, "completed"),
        isNull(purchase.accessRevokedAt),
      ),
    )
    .returning();
}
