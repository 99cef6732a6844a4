import { and, desc, eq } from "drizzle-orm";
import { formatAmount } from "~/config/site";
import type { Db } from "../db/client.server";
import { type PurchaseProvider, type PurchaseStatus, purchase, user } from "../db/schema";
import { currentOfferSettings, productName } from "../settings/offer-settings.server";

// What a member bought (/account, My purchases) and the printable receipt of
// each (/account/receipts/:orderNumber): read from the purchases as recorded,
// the seller's name and postal address from the offer settings.

/** A purchase as its buyer sees it. */
export type MemberPurchase = {
  orderNumber: string;
  /** The product's display name. */
  product: string;
  amountCents: number;
  currency: string;
  /** The amount as the receipt shows it ($25). */
  amount: string;
  provider: PurchaseProvider;
  /** How it was paid, as the receipt names it. */
  paidWith: string;
  status: PurchaseStatus;
  createdAt: Date;
  refundedAt: Date | null;
  /** The days as the receipt shows them, in UTC (June 6, 2025). */
  day: string;
  refundedDay: string | null;
};

const shown = {
  orderNumber: purchase.orderNumber,
  product: purchase.product,
  amountCents: purchase.amountCents,
  currency: purchase.currency,
  provider: purchase.provider,
  status: purchase.status,
  createdAt: purchase.createdAt,
  refundedAt: purchase.refundedAt,
};

/** A purchase row as its buyer sees it: the product's name, how it was paid. */
function asBought<T extends ShownRow>(row: T) {
  return {
    ...row,
    product: productName(row.product),
    paidWith: providerLabels[row.provider],
    amount: formatAmount(row.amountCents, row.currency),
    day: dayOf(row.createdAt),
    refundedDay: row.refundedAt ? dayOf(row.refundedAt) : null,
  };
}

type ShownRow = Omit<MemberPurchase, "paidWith" | "amount" | "day" | "refundedDay">;

const dayOf = (at: Date) =>
  at.toLocaleDateString("en-US", {
    timeZone: "UTC",
    month: "long",
    day: "numeric",
    year: "numeric",
  });

/** The member's purchases, newest first (one query, on purchase_user_status_idx). */
export async function purchasesOf(db: Db, userId: string): Promise<MemberPurchase[]> {
  const rows = await db
    .select(shown)
    .from(purchase)
    .where(eq(purchase.userId, userId))
    .orderBy(desc(purchase.createdAt), desc(purchase.orderNumber));
  return rows.map(asBought);
}

export type Receipt = MemberPurchase & {
  buyer: { name: string; email: string };
  seller: { name: string; address: string[] };
  supportEmail: string;
};

/**
 * The receipt of one order: its buyer's own, or any for an admin (who answers
 * the buyers' questions); null for an order number that is not theirs, so a
 * guessed number tells nothing.
 */
export async function receiptFor(
  db: Db,
  viewer: { id: string; isAdmin: boolean },
  orderNumber: string,
): Promise<Receipt | null> {
  const [row] = await db
    .select({ ...shown, buyerName: user.name, buyerEmail: user.email })
    .from(purchase)
    .innerJoin(user, eq(user.id, purchase.userId))
    .where(
      and(
        eq(purchase.orderNumber, orderNumber),
        viewer.isAdmin ? undefined : eq(purchase.userId, viewer.id),
      ),
    )
    .limit(1);
  if (!row) return null;
  const { buyerName, buyerEmail, ...bought } = row;
  const settings = currentOfferSettings();
  return {
    ...asBought(bought),
    buyer: { name: buyerName, email: buyerEmail },
    seller: {
      name: settings.sellerName,
      address: settings.sellerAddress.split("\n").filter((line) => line.trim() !== ""),
    },
    supportEmail: settings.supportEmail,
  };
}

/** How each provider is named on a receipt. */
const providerLabels: Record<PurchaseProvider, string> = {
  stripe: "Card payment (Stripe)",
  warriorplus: "WarriorPlus",
  test: "Test checkout",
  manual: "Granted by the seller",
};
