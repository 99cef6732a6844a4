// Test fixtures for the payment tests.
import { afterAll, beforeAll, expect } from "vitest";
import { createUser, origin, purchasesOf } from "~/test/helpers";
import {
  randomId,
  type StripeStandIn,
  startStripeStandIn,
  type TestCard,
  testCards,
} from "~/test/stripe-stand-in";
import { getDb } from "../db/db.server";
import { createCheckout } from "./checkout.server";
import { reconcileStripeCheckout } from "./stripe-checkout.server";

/** The Stripe stand-in of the running test file, from setUpStripeStandIn. */
export let stand: StripeStandIn;

/** Starts a Stripe stand-in (as `stand`) before the file's tests and closes it after them. */
export function setUpStripeStandIn(): void {
  beforeAll(async () => {
    stand = await startStripeStandIn();
  });
  afterAll(() => stand.close());
}

/**
 * A new member who paid the plan (and the order bump with `bump`) through a
 * Stripe Checkout Session on the stand-in, with `card`, the payment seen as
 * paid: the member, the Payment Intent, and their purchases.
 */
export async function stripePaidMember(options: { bump?: boolean; card?: TestCard } = {}) {
  const u = await createUser();
  const db = await getDb();
  const { url } = await createCheckout(db, {
    user: { id: u.id, email: u.email },
    productId: "lifetime-access",
    origin,
    testCheckout: false,
    stripe: stand.config,
    bump: options.bump ?? false,
  });
  const sessionId = url.split("/").pop() ?? "";
  const paymentIntent = randomId("pi");
  stand.paySession(sessionId, paymentIntent, options.card ?? testCards.visa);
  expect(await reconcileStripeCheckout(db, stand.config, { userId: u.id, sessionId })).toBe("paid");
  const purchases = await purchasesOf(u.id);
  const of = (product: string) => {
    const found = purchases.find((p) => p.product === product);
    if (!found) throw new Error(`no ${product}`);
    return found;
  };
  return { u, paymentIntent, purchases, of };
}
