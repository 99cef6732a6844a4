import { createHash, timingSafeEqual } from "node:crypto";
import { and, eq, ne } from "drizzle-orm";
import { productPrice } from "~/lib/offer";
import type { FunnelProductKey } from "../../config/site";
import { parseForm } from "../../lib/forms";
import { z } from "../../lib/zod";
import { createSetPasswordToken } from "../auth/password-reset.server";
import { hasWorkingResetLink } from "../auth/reset-links.server";
import type { Db, Tx } from "../db/client.server";
import { purchase as purchaseTable, session, user, webhookEvent } from "../db/schema";
import type { WarriorPlusConfig } from "../env.server";
import { logger } from "../logger.server";
import { enqueueLoginDetails } from "../mail/notices.server";
import { countWebhook } from "../metrics/metrics.server";
import { readOfferSettings } from "../settings/offer-settings.server";
import {
  fulfilPurchase,
  isRevokedBeforePurchase,
  recordPurchase,
  revokePurchase,
} from "./purchases.server";

// WarriorPlus IPN: a form POST per sale, refund or dispute. Fields as documented at
// https://help.warriorplus.com/en/articles/1658556-advanced-variables-sent-to-your-ipn-and-or-keygen-script

/** How long the set-password link in a new buyer's login details is valid. */
export const setPasswordLinkSeconds = 24 * 60 * 60;

const field = z.string().trim().min(1).max(255);

export const warriorPlusIpnSchema = z.object({
  WP_ACTION: field,
  WP_ITEM_NUMBER: field,
  WP_SALEID: field,
  WP_TXNID: field.optional(),
  WP_BUYER_EMAIL: z
    .email()
    .max(254)
    .transform((v) => v.toLowerCase()),
  WP_BUYER_NAME: z.string().trim().max(200).optional(),
  WP_SALE_AMOUNT: z.string().trim().optional(),
  WP_SALE_CURRENCY: z.string().trim().optional(),
  /** The unique id of this notification: it is applied once. */
  IPN_ID: field,
  /** 'vend' for the vendor (us), 'aff' for an affiliate's copy. */
  IPN_RCPT_TYPE: z.string().trim().optional(),
});

export type WarriorPlusIpn = z.infer<typeof warriorPlusIpnSchema>;

export type IpnOutcome =
  | "sale"
  | "new-buyer-sale"
  | "revoked"
  | "refunded-sale"
  | "duplicate"
  | "unknown-product"
  | "ignored";

/** Compares the posted security key with ours in constant time (hashes hide the length too). */
export function isWarriorPlusKeyValid(given: string | null | undefined, expected: string): boolean {
  if (!given) return false;
  const digest = (v: string) => createHash("sha256").update(v).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * The IPN endpoint: off (404) without WARRIORPLUS_SECURITY_KEY; a wrong or
 * missing key gets 401 and stores nothing; a malformed notification 400;
 * otherwise 200 once applied (or ignored), 500 on a failure so WarriorPlus
 * sends it again.
 */
export async function receiveWarriorPlusIpn(
  request: Request,
  db: Db,
  config: WarriorPlusConfig | undefined,
): Promise<Response> {
  if (!config) return new Response("Not found", { status: 404 });
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    countWebhook("warriorplus", "bad_request");
    return new Response("Bad request", { status: 400 });
  }
  const key = form.get("WP_SECURITYKEY");
  if (!isWarriorPlusKeyValid(typeof key === "string" ? key : null, config.securityKey)) {
    logger.warn("WarriorPlus IPN refused: wrong or missing security key");
    countWebhook("warriorplus", "unauthorized");
    return new Response("Unauthorized", { status: 401 });
  }
  // parseForm also refuses a NUL in any field (PostgreSQL stores none in text).
  const parsed = parseForm(warriorPlusIpnSchema, form);
  if (!parsed.ok) {
    const fields = Object.keys(parsed.fieldErrors);
    logger.warn({ fields }, "WarriorPlus IPN refused: missing or invalid fields");
    countWebhook("warriorplus", "bad_request");
    return new Response("Bad request", { status: 400 });
  }
  try {
    const outcome = await applyWarriorPlusIpn(db, config, parsed.data);
    countWebhook("warriorplus", outcome);
    return new Response(outcome, { status: 200 });
  } catch (error) {
    logger.error({ err: error, ipn: parsed.data.IPN_ID }, "WarriorPlus IPN failed");
    countWebhook("warriorplus", "failed");
    return new Response("Error", { status: 500 });
  }
}

/**
 * Applies one verified notification. Idempotent: the webhook_event row
 * (warriorplus, IPN_ID), the user, the purchase and the e-mails are written
 * in one transaction, so a notification applies once however often it comes.
 * Convergent: a refund that arrives before its sale records only the
 * revocation; the late sale then grants nothing and creates no account.
 */
export async function applyWarriorPlusIpn(
  db: Db,
  config: WarriorPlusConfig,
  ipn: WarriorPlusIpn,
): Promise<IpnOutcome> {
  const action = ipn.WP_ACTION.toLowerCase();
  const log = { ipn: ipn.IPN_ID, action, item: ipn.WP_ITEM_NUMBER };
  if (ipn.IPN_RCPT_TYPE && ipn.IPN_RCPT_TYPE !== "vend") {
    logger.info(log, "WarriorPlus IPN ignored: not addressed to the vendor");
    return "ignored";
  }
  if (action !== "sale" && action !== "refund" && action !== "dispute") {
    logger.info(log, "WarriorPlus IPN ignored: action not handled");
    return "ignored";
  }
  const product = config.products.get(ipn.WP_ITEM_NUMBER);
  if (!product) {
    logger.warn(log, "WarriorPlus IPN ignored: item not in WARRIORPLUS_PRODUCTS");
    return "unknown-product";
  }
  return db.transaction(async (tx) => {
    const [event] = await tx
      .insert(webhookEvent)
      .values({ provider: "warriorplus", eventId: ipn.IPN_ID })
      .onConflictDoNothing()
      .returning();
    if (!event) return "duplicate";
    const outcome =
      action === "sale" ? await applySale(tx, ipn, product) : await applyRefund(tx, ipn);
    logger.info({ ...log, product, outcome }, "WarriorPlus IPN applied");
    return outcome;
  });
}

async function applySale(
  tx: Tx,
  ipn: WarriorPlusIpn,
  product: FunnelProductKey,
): Promise<IpnOutcome> {
  const ref = { provider: "warriorplus" as const, providerRef: ipn.WP_SALEID };
  if (await isRevokedBeforePurchase(tx, ref)) {
    // Refunded before it arrived: it gives nothing, so it makes no account and
    // sends no e-mail. An existing buyer gets it in their history, refunded.
    const existing = await findBuyer(tx, ipn.WP_BUYER_EMAIL);
    if (existing)
      await fulfilPurchase(tx, {
        ...ref,
        ...(await purchaseOf(tx, ipn, product)),
        userId: existing.id,
      });
    return "refunded-sale";
  }
  const buyer = await findOrCreateBuyer(tx, ipn);
  // An account someone made before the sale without ever proving the address
  // (anyone can sign up with someone else's e-mail): the sale is recorded but
  // opens nothing until the address is proved.
  const unproved = !buyer.created && !buyer.emailVerified;
  const { purchase, created } = await recordPurchase(tx, {
    ...ref,
    ...(await purchaseOf(tx, ipn, product)),
    userId: buyer.id,
    awaitsAddressProof: unproved,
  });
  // Once per sale, decided by the purchase's unique key: the same sale notified
  // again (under a new IPN id, or in parallel) ends and sends nothing more.
  if (created && purchase.status === "completed") {
    // Whoever is signed in to it may not be the buyer: signed out at once.
    if (unproved) await endSessionsOfUnprovedAccount(tx, buyer.id);
    // The buyer gets a link to set the password. Using it proves the mailbox,
    // signs every other session out and so gives the account, and the access,
    // to whoever holds the mailbox. Not again for a later sale while an earlier
    // sale's link still works (a new link would end it): its receipt is enough.
    if (!buyer.emailVerified && !(await earlierSaleLinkWorks(tx, buyer.id, purchase.id))) {
      const token = await createSetPasswordToken(tx, buyer.id, setPasswordLinkSeconds);
      await enqueueLoginDetails(tx, buyer, token);
    }
  }
  return buyer.created ? "new-buyer-sale" : "sale";
}

/**
 * Whether an earlier marketplace sale of this buyer already mailed login
 * details and a reset or set-password link of the account still works: the
 * buyer has a way in, which a new link would end.
 */
async function earlierSaleLinkWorks(tx: Tx, userId: string, purchaseId: string): Promise<boolean> {
  const [earlier] = await tx
    .select({ id: purchaseTable.id })
    .from(purchaseTable)
    .where(
      and(
        eq(purchaseTable.userId, userId),
        eq(purchaseTable.provider, "warriorplus"),
        eq(purchaseTable.status, "completed"),
        ne(purchaseTable.id, purchaseId),
      ),
    )
    .limit(1);
  return earlier !== undefined && (await hasWorkingResetLink(tx, userId));
}

/**
 * Ends every session of an account whose address is not proved, in the
 * caller's transaction. The member page cache holds no page for a session
 * that is gone (its stamp is read from the session row,
 * db/page-version.server.ts), so nothing rendered for it is served again.
 */
export async function endSessionsOfUnprovedAccount(tx: Db | Tx, userId: string): Promise<number> {
  const ended = await tx
    .delete(session)
    .where(eq(session.userId, userId))
    .returning({ id: session.id });
  if (ended.length > 0) {
    logger.info(
      { userId, sessions: ended.length },
      "signed out an account whose address is not proved",
    );
  }
  return ended.length;
}

async function applyRefund(tx: Tx, ipn: WarriorPlusIpn): Promise<IpnOutcome> {
  // Before its sale, this records the revocation only (no account): the sale,
  // when it comes, then grants nothing.
  await revokePurchase(tx, { provider: "warriorplus", providerRef: ipn.WP_SALEID });
  return "revoked";
}

async function purchaseOf(tx: Tx, ipn: WarriorPlusIpn, product: FunnelProductKey) {
  return {
    product,
    amountCents: amountCents(ipn.WP_SALE_AMOUNT) ?? (await listPrice(tx, product)),
    currency: currency(ipn.WP_SALE_CURRENCY),
  };
}

/**
 * What a sale without an amount is recorded at, from the offer settings: the
 * front end at the marketplace sales page's price (/ailabs-offer2), the add-ons
 * at their prices (set on /admin/products).
 */
async function listPrice(tx: Tx, product: FunnelProductKey): Promise<number> {
  const { settings } = await readOfferSettings(tx);
  if (product === "lifetime-access") return settings.offer2PriceCents;
  return productPrice(settings, product).priceCents;
}

type Buyer = {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  created: boolean;
};

/**
 * The user with the buyer's e-mail, or a new one named from WP_BUYER_NAME.
 * A new user has no password (no credential account) until they set one
 * with the link in their login details.
 */
async function findBuyer(tx: Tx, email: string): Promise<Omit<Buyer, "created"> | undefined> {
  const [existing] = await tx
    .select({ id: user.id, name: user.name, email: user.email, emailVerified: user.emailVerified })
    .from(user)
    .where(eq(user.email, email))
    .limit(1);
  return existing;
}

async function findOrCreateBuyer(tx: Tx, ipn: WarriorPlusIpn): Promise<Buyer> {
  const email = ipn.WP_BUYER_EMAIL;
  const name = ipn.WP_BUYER_NAME || email.split("@")[0] || "Customer";
  const [created] = await tx
    .insert(user)
    .values({ id: crypto.randomUUID(), name, email })
    .onConflictDoNothing({ target: user.email })
    .returning({
      id: user.id,
      name: user.name,
      email: user.email,
      emailVerified: user.emailVerified,
    });
  if (created) return { ...created, created: true };
  const existing = await findBuyer(tx, email);
  if (!existing) throw new Error("buyer vanished between insert and select");
  return { ...existing, created: false };
}

/** "17.00" -> 1700; undefined for anything that is not a plain amount. */
function amountCents(value: string | undefined): number | undefined {
  const match = value?.match(/^(\d{1,7})(?:\.(\d{1,2}))?$/);
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0"));
}

function currency(value: string | undefined): string {
  return value && /^[a-z]{3}$/i.test(value) ? value.toLowerCase() : "usd";
}
