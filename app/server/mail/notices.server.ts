import { eq } from "drizzle-orm";
import type { Db, Tx } from "../db/client.server";
import { user } from "../db/schema";
import { getEnv } from "../env.server";
import {
  confirmNewEmailMessage,
  emailChangeAskedMessage,
  emailChangedMessage,
  loginDetailsMessage,
  passwordChangedMessage,
  passwordResetMessage,
  purchaseReceiptMessage,
  signInLinkMessage,
} from "./messages.server";
import { enqueueEmail } from "./outbox.server";

// The messages the product sends, each enqueued in the caller's transaction.

type Recipient = { name: string; email: string };

/** Enqueues the receipt of a newly completed purchase. Runs in the caller's transaction. */
export async function enqueuePurchaseReceipt(
  tx: Db | Tx,
  purchase: {
    userId: string;
    product: string;
    amountCents: number;
    currency: string;
    orderNumber: string;
    providerRef: string;
    createdAt: Date;
  },
): Promise<void> {
  const [buyer] = await tx
    .select({ name: user.name, email: user.email })
    .from(user)
    .where(eq(user.id, purchase.userId))
    .limit(1);
  if (!buyer) throw new Error("purchase of an unknown user");
  const origin = getEnv().publicOrigin;
  await enqueueEmail(tx, {
    to: buyer.email,
    ...purchaseReceiptMessage({
      name: buyer.name,
      product: purchase.product,
      amountCents: purchase.amountCents,
      currency: purchase.currency,
      orderNumber: purchase.orderNumber,
      reference: purchase.providerRef,
      date: purchase.createdAt,
      receiptUrl: receiptUrl(purchase.orderNumber),
      dashboardUrl: `${origin}/dashboard`,
    }),
  });
}

/** A purchase's printable receipt (/account/receipts/:orderNumber), for its buyer. */
export function receiptUrl(orderNumber: string): string {
  return `${getEnv().publicOrigin}/account/receipts/${encodeURIComponent(orderNumber)}`;
}

/** Tells a user their password was changed from the account page, with a way back in if not them. */
export async function enqueuePasswordChanged(db: Db | Tx, to: Recipient) {
  await enqueueEmail(db, {
    to: to.email,
    ...passwordChangedMessage({
      name: to.name,
      when: new Date(),
      forgotPasswordUrl: `${getEnv().publicOrigin}/forgot-password`,
    }),
  });
}

/** The link confirming a new address goes to it; the current address is told, with a way back in. */
export async function enqueueEmailChangeAsked(
  db: Db | Tx,
  to: Recipient,
  newEmail: string,
  token: string,
) {
  const origin = getEnv().publicOrigin;
  const confirmUrl = `${origin}/account/confirm-email?token=${encodeURIComponent(token)}`;
  await enqueueEmail(db, {
    to: newEmail,
    ...confirmNewEmailMessage({ name: to.name, newEmail, confirmUrl }),
  });
  await enqueueEmail(db, {
    to: to.email,
    ...emailChangeAskedMessage({
      name: to.name,
      newEmail,
      forgotPasswordUrl: `${origin}/forgot-password`,
    }),
  });
}

/** Tells the former address that the account's address changed. */
export async function enqueueEmailChanged(db: Db | Tx, before: Recipient, newEmail: string) {
  await enqueueEmail(db, {
    to: before.email,
    ...emailChangedMessage({ name: before.name, newEmail }),
  });
}

/** The page where a reset or set-password token is used. */
export function resetPasswordUrl(token: string): string {
  return `${getEnv().publicOrigin}/reset-password?token=${encodeURIComponent(token)}`;
}

/** Enqueues the password reset link (valid 1 hour) a user asked for. */
export async function enqueuePasswordReset(db: Db | Tx, to: Recipient, token: string) {
  const resetUrl = resetPasswordUrl(token);
  await enqueueEmail(db, { to: to.email, ...passwordResetMessage({ name: to.name, resetUrl }) });
}

/** Enqueues the login details of an account a marketplace sale created (link valid 24 hours). */
export async function enqueueLoginDetails(tx: Db | Tx, to: Recipient, token: string) {
  await enqueueEmail(tx, {
    to: to.email,
    ...loginDetailsMessage({
      name: to.name,
      email: to.email,
      setPasswordUrl: resetPasswordUrl(token),
      loginUrl: `${getEnv().publicOrigin}/login`,
    }),
  });
}

/** Enqueues a one-time sign-in link (valid 1 hour): /login?link=… lets its holder past the account's limit once. */
export async function enqueueSignInLink(db: Db | Tx, to: Recipient, token: string) {
  const signInUrl = `${getEnv().publicOrigin}/login?link=${encodeURIComponent(token)}`;
  await enqueueEmail(db, { to: to.email, ...signInLinkMessage({ name: to.name, signInUrl }) });
}
