import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as successRoute from "~/routes/checkout/success";
import {
  appRequest,
  createUser,
  origin,
  purchasesOf,
  type TestUser,
  withEnv,
} from "~/test/helpers";
import { planPrice, randomId, stripeEvent, webhookRequest } from "~/test/stripe-stand-in";
import { hasPaidAccess } from "../access.server";
import { adminActor } from "../admin/audit.server";
import { checkoutReturnsPerWindow } from "../auth/rate-limit.server";
import { getDb } from "../db/db.server";
import { purchase, stripeCustomer } from "../db/schema";
import {
  currentOfferSettings,
  readOfferSettings,
  refreshOfferSettings,
  writeOfferSettings,
} from "../settings/offer-settings.server";
import { type CheckoutRequest, createCheckout } from "./checkout.server";
import { setUpStripeStandIn, stand } from "./fixtures";
import { openPaymentIssues } from "./payment-issues.server";
import { reconcileStripeCheckout } from "./stripe-checkout.server";
import { handleStripeWebhook } from "./stripe-webhook.server";

setUpStripeStandIn();
beforeEach(() => {
  stand.requests.length = 0;
});

async function checkout(u: Pick<TestUser, "id" | "email">, change: Partial<CheckoutRequest> = {}) {
  return createCheckout(await getDb(), {
    user: { id: u.id, email: u.email },
    productId: "lifetime-access",
    origin,
    // On, to show that Stripe, when configured, takes its place.
    testCheckout: true,
    stripe: stand.config,
    ...change,
  });
}

const sessionIdOf = (url: string) => url.split("/").pop() ?? "";
const sessionCreations = () =>
  stand.requests.filter((r) => r.method === "POST" && r.path === "/v1/checkout/sessions");
const customerCreations = () =>
  stand.requests.filter((r) => r.method === "POST" && r.path === "/v1/customers");

/** A completed, paid Checkout Session of the user's, as Stripe sends it. */
function paidSession(
  userId: string,
  paid: { metadata: Record<string, string>; amount_total: number },
) {
  return {
    id: randomId("cs_test"),
    object: "checkout.session" as const,
    mode: "payment" as const,
    client_reference_id: userId,
    status: "complete" as const,
    payment_status: "paid" as const,
    payment_intent: randomId("pi"),
    currency: "usd",
    ...paid,
  };
}

describe("Stripe checkout (docs/product.md, Stripe)", () => {
  it("creates a Checkout Session with exactly its documented parameters and goes to its url", async () => {
    const u = await createUser();
    const { url } = await checkout(u);
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_\w+$/);

    const [customer] = customerCreations();
    expect(customer?.params).toEqual({ email: u.email, "metadata[user_id]": u.id });
    const [stored] = await (await getDb())
      .select()
      .from(stripeCustomer)
      .where(eq(stripeCustomer.userId, u.id));
    expect(stored?.customerId).toMatch(/^cus_/);

    const [session] = sessionCreations();
    expect(session?.params).toEqual({
      mode: "payment",
      "line_items[0][price]": "price_test_lifetime",
      "line_items[0][quantity]": "1",
      success_url: "http://localhost:3000/success?session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "http://localhost:3000/cancel",
      allow_promotion_codes: "true",
      client_reference_id: u.id,
      customer: stored?.customerId,
      // The card is kept for the one-click upsells (the plan page says so).
      "payment_intent_data[setup_future_usage]": "off_session",
      "metadata[user_id]": u.id,
      "metadata[product_id]": "lifetime-access",
      "metadata[plan_price_cents]": "2500",
    });
    // Nothing is granted before Stripe says the session is paid.
    expect(await purchasesOf(u.id)).toHaveLength(0);
  });

  it("reuses the user's Stripe customer on a second checkout", async () => {
    const u = await createUser();
    await checkout(u);
    await checkout(u);
    expect(customerCreations()).toHaveLength(1);
    const [first, second] = sessionCreations();
    expect(second?.params.customer).toBe(first?.params.customer);
  });

  it("two first checkouts at once both use the one customer stored", async () => {
    const u = await createUser();
    await Promise.all([checkout(u), checkout(u)]);
    const rows = await (await getDb())
      .select()
      .from(stripeCustomer)
      .where(eq(stripeCustomer.userId, u.id));
    expect(rows).toHaveLength(1);
    for (const session of sessionCreations()) {
      expect(session.params.customer).toBe(rows[0]?.customerId);
    }
  });

  it("answers 'Failed to create checkout session' when Stripe's API refuses", async () => {
    const u = await createUser();
    for (const status of [400, 500]) {
      stand.failNextSession(status);
      await expect(checkout(u)).rejects.toMatchObject({
        message: "Failed to create checkout session",
        status: 502,
      });
    }
  });

  it("answers 'Failed to create checkout session' when Stripe cannot be reached", async () => {
    const u = await createUser();
    const unreachable = { ...stand.config, apiUrl: "http://127.0.0.1:9" };
    await expect(checkout(u, { testCheckout: false, stripe: unreachable })).rejects.toMatchObject({
      message: "Failed to create checkout session",
    });
  });

  it("answers 'No checkout URL received' when the session has no url", async () => {
    const u = await createUser();
    stand.omitNextUrl();
    await expect(checkout(u)).rejects.toMatchObject({
      message: "No checkout URL received",
      status: 502,
    });
  });

  it("still answers 'Invalid product ID' before calling Stripe", async () => {
    const u = await createUser();
    const goldPlan = { user: { id: u.id }, productId: "gold-plan", testCheckout: false };
    await expect(checkout(u, goldPlan)).rejects.toMatchObject({ message: "Invalid product ID" });
    expect(stand.requests).toHaveLength(0);
  });
});

describe("return to /success (reconcileStripeCheckout)", () => {
  it("fulfils a paid session of this user before the webhook arrives", async () => {
    const u = await createUser();
    const sessionId = sessionIdOf((await checkout(u)).url);
    const paymentIntent = randomId("pi");
    stand.paySession(sessionId, paymentIntent);
    const db = await getDb();
    expect(await reconcileStripeCheckout(db, stand.config, { userId: u.id, sessionId })).toBe(
      "paid",
    );
    // Reloading the page changes nothing.
    expect(await reconcileStripeCheckout(db, stand.config, { userId: u.id, sessionId })).toBe(
      "paid",
    );
    const rows = await purchasesOf(u.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      provider: "stripe",
      providerRef: paymentIntent,
      product: "lifetime-access",
      amountCents: 2500,
      currency: "usd",
      status: "completed",
    });
    expect(await hasPaidAccess(db, { id: u.id, isAdmin: false })).toBe(true);
  });

  it("says pending and grants nothing while the session is unpaid", async () => {
    const u = await createUser();
    const sessionId = sessionIdOf((await checkout(u)).url);
    expect(
      await reconcileStripeCheckout(await getDb(), stand.config, { userId: u.id, sessionId }),
    ).toBe("pending");
    expect(await purchasesOf(u.id)).toHaveLength(0);
  });

  it("does nothing for someone else's session", async () => {
    const owner = await createUser();
    const other = await createUser();
    const sessionId = sessionIdOf((await checkout(owner)).url);
    stand.paySession(sessionId);
    expect(
      await reconcileStripeCheckout(await getDb(), stand.config, { userId: other.id, sessionId }),
    ).toBe("unknown");
    expect(await purchasesOf(other.id)).toHaveLength(0);
    expect(await purchasesOf(owner.id)).toHaveLength(0);
  });

  it("asks Stripe about one session at most once per few seconds, however often the page loads", async () => {
    const u = await createUser();
    const sessionId = sessionIdOf((await checkout(u)).url);
    stand.paySession(sessionId);
    const db = await getDb();
    const lookups = () =>
      stand.requests.filter((r) => r.method === "GET" && r.path.endsWith(sessionId)).length;
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () =>
        reconcileStripeCheckout(db, stand.config, { userId: u.id, sessionId }),
      ),
    );
    expect(outcomes).toEqual(["paid", "paid", "paid", "paid", "paid"]);
    expect(await reconcileStripeCheckout(db, stand.config, { userId: u.id, sessionId })).toBe(
      "paid",
    );
    expect(lookups()).toBe(1);
  });

  it("grants nothing for a paid session of another price, and records it for the operator", async () => {
    const u = await createUser();
    const session = stand.addSession(
      paidSession(u.id, { metadata: {}, amount_total: 500 }),
      "price_payment_link",
    );
    const db = await getDb();
    expect(
      await reconcileStripeCheckout(db, stand.config, { userId: u.id, sessionId: session.id }),
    ).toBe("unknown");
    expect(await purchasesOf(u.id)).toHaveLength(0);
    expect((await openPaymentIssues(db)).find((i) => i.providerRef === session.id)?.reason).toBe(
      "not-the-plan",
    );
  });

  it("says unknown for a session Stripe does not know, and asks nothing for a malformed id", async () => {
    const u = await createUser();
    const db = await getDb();
    expect(
      await reconcileStripeCheckout(db, stand.config, { userId: u.id, sessionId: "cs_test_nope" }),
    ).toBe("unknown");
    stand.requests.length = 0;
    expect(
      await reconcileStripeCheckout(db, stand.config, { userId: u.id, sessionId: "../customers" }),
    ).toBe("unknown");
    expect(stand.requests).toHaveLength(0);
  });
});

describe("/success", () => {
  const load = (u: TestUser, sessionId: string) =>
    successRoute.loader({
      request: appRequest(`/success?session_id=${sessionId}`, { cookie: u.cookie }),
      params: {},
      context: {},
    } as never);

  it("looks sessions up at Stripe for one user a limited number of times per window", async () => {
    await withEnv({ stripe: stand.config }, async () => {
      const u = await createUser();
      for (let i = 0; i < checkoutReturnsPerWindow; i++) {
        expect((await load(u, randomId("cs_test"))).outcome).toBe("unknown");
      }
      const lookups = () => stand.requests.filter((r) => r.method === "GET").length;
      expect(lookups()).toBe(checkoutReturnsPerWindow);
      // Past the limit: no more lookups for this user, even of a paid session of theirs.
      const sessionId = sessionIdOf((await checkout(u)).url);
      stand.paySession(sessionId);
      expect((await load(u, sessionId)).outcome).toBe("unknown");
      expect(lookups()).toBe(checkoutReturnsPerWindow);
      // Another user is not held back by it.
      const other = await createUser();
      const theirs = sessionIdOf((await checkout(other)).url);
      stand.paySession(theirs);
      expect((await load(other, theirs)).outcome).toBe("paid");
    });
  });
});

describe("the launch coupon typed at our checkout is a Stripe promotion code", () => {
  const promotionCodeCreations = () =>
    stand.requests.filter((r) => r.method === "POST" && r.path === "/v1/promotion_codes");
  const code = () => `SAVE${randomId("c").slice(-6).toUpperCase()}`;

  it("creates the coupon and its code once, applies it to the session, and the purchase records what was paid", async () => {
    const coupon = { code: code(), savingCents: 300 };
    const u = await createUser();
    const sessionId = sessionIdOf((await checkout(u, { coupon })).url);
    const [promo] = stand.promotionCodes().filter((p) => p.code === coupon.code);
    expect(promo).toMatchObject({
      active: true,
      expires_at: null,
      promotion: { coupon: { amount_off: 300, currency: "usd", duration: "once" } },
    });
    const [session] = sessionCreations();
    expect(session?.params).toMatchObject({
      "discounts[0][promotion_code]": promo?.id,
      "line_items[0][price]": "price_test_lifetime",
      "metadata[plan_price_cents]": "2500",
    });
    // Stripe takes a promotion code either from the session or from its own page, not both.
    expect(session?.params.allow_promotion_codes).toBeUndefined();

    // A second checkout in this process asks Stripe nothing more about the coupon.
    stand.requests.length = 0;
    await checkout(await createUser(), { coupon });
    expect(stand.requests.filter((r) => r.path.includes("promotion_codes"))).toEqual([]);

    const db = await getDb();
    const paid = stripeEvent("checkout.session.completed", stand.paySession(sessionId));
    const response = await handleStripeWebhook(
      db,
      stand.config,
      webhookRequest(paid, stand.config.webhookSecret),
    );
    expect(response.status).toBe(200);
    expect(await purchasesOf(u.id)).toMatchObject([{ amountCents: 2200, status: "completed" }]);
    expect(await hasPaidAccess(db, { id: u.id, isAdmin: false })).toBe(true);
  });

  it("finds the promotion code another process made, and replaces one whose saving changed", async () => {
    const typed = code();
    await checkout(await createUser(), { coupon: { code: typed, savingCents: 300 } });
    // Another server process: its own client and memory, the same Stripe account.
    const other = { ...stand.config };
    stand.requests.length = 0;
    await checkout(await createUser(), {
      stripe: other,
      coupon: { code: typed, savingCents: 300 },
    });
    expect(promotionCodeCreations()).toEqual([]);
    expect(stand.requests.some((r) => r.method === "GET" && r.path === "/v1/promotion_codes")).toBe(
      true,
    );

    // The owner changed the saving: the old code is turned off, a new one takes its place.
    await checkout(await createUser(), {
      stripe: other,
      coupon: { code: typed, savingCents: 500 },
    });
    const codes = stand.promotionCodes().filter((p) => p.code === typed);
    expect(codes.map((p) => p.active)).toEqual([false, true]);
    const active = codes.find((p) => p.active);
    expect(active?.promotion.coupon).toMatchObject({ amount_off: 500 });
    expect(sessionCreations().at(-1)?.params["discounts[0][promotion_code]"]).toBe(active?.id);
  });
});

describe("the plan's price in the offer settings is what Stripe charges (decision 023)", () => {
  /**
   * The owner sets the plan's price on /admin/settings. Written and read into
   * this process's memory inside a transaction that is then rolled back: other
   * test files share the settings' one row.
   */
  async function setPlanPrice(cents: number) {
    const db = await getDb();
    const admin = await createUser({ isAdmin: true });
    const rollback = new Error("rollback");
    const saved = db.transaction(async (tx) => {
      const { settings } = await readOfferSettings(tx);
      await writeOfferSettings(tx, adminActor(admin), { ...settings, planPriceCents: cents });
      await refreshOfferSettings(tx);
      throw rollback;
    });
    await expect(saved).rejects.toBe(rollback);
    expect(currentOfferSettings().planPriceCents).toBe(cents);
  }
  afterEach(async () => {
    await refreshOfferSettings(await getDb());
  });

  const paidEvent = (sessionId: string) =>
    stripeEvent("checkout.session.completed", stand.paySession(sessionId, randomId("pi")));

  it("a changed price is what the Checkout Session charges, and what the purchase records", async () => {
    await setPlanPrice(1700);
    const u = await createUser();
    const sessionId = sessionIdOf((await checkout(u)).url);
    const [created] = sessionCreations();
    expect(created?.params).toMatchObject({
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][unit_amount]": "1700",
      "line_items[0][price_data][product]": planPrice.product,
      "line_items[0][quantity]": "1",
      "metadata[plan_price_cents]": "1700",
    });
    expect(created?.params["line_items[0][price]"]).toBeUndefined();

    const db = await getDb();
    const response = await handleStripeWebhook(
      db,
      stand.config,
      webhookRequest(paidEvent(sessionId), stand.config.webhookSecret),
    );
    expect(response.status).toBe(200);
    expect(await purchasesOf(u.id)).toMatchObject([{ amountCents: 1700, status: "completed" }]);
    expect(await hasPaidAccess(db, { id: u.id, isAdmin: false })).toBe(true);
    // The plan's Price is asked of Stripe once, not per checkout or payment.
    const priceLookups = stand.requests.filter((r) => r.path.startsWith("/v1/prices/"));
    expect(priceLookups.length).toBeLessThanOrEqual(1);
  });

  it("a session started before the owner changed the price is fulfilled at what it charged", async () => {
    await setPlanPrice(1900);
    const u = await createUser();
    const sessionId = sessionIdOf((await checkout(u)).url);
    await setPlanPrice(3100);
    stand.paySession(sessionId);
    const db = await getDb();
    expect(await reconcileStripeCheckout(db, stand.config, { userId: u.id, sessionId })).toBe(
      "paid",
    );
    expect(await purchasesOf(u.id)).toMatchObject([{ amountCents: 1900, status: "completed" }]);
  });

  it("a session that charged more than the page showed grants access and records what was paid", async () => {
    // Started at the Stripe Price ($25) while the page showed $17: the case that granted nothing.
    await setPlanPrice(1700);
    const u = await createUser();
    const session = stand.addSession(
      paidSession(u.id, {
        metadata: { user_id: u.id, product_id: "lifetime-access" },
        amount_total: 2500,
      }),
      planPrice.id,
    );
    const db = await getDb();
    expect(
      await reconcileStripeCheckout(db, stand.config, { userId: u.id, sessionId: session.id }),
    ).toBe("paid");
    expect(await purchasesOf(u.id)).toMatchObject([{ amountCents: 2500, status: "completed" }]);
  });

  it("a paid session of the plan's product below the price it was started at grants nothing and is recorded with what was paid", async () => {
    const u = await createUser();
    const session = stand.addSession(
      paidSession(u.id, {
        metadata: { user_id: u.id, product_id: "lifetime-access", plan_price_cents: "1700" },
        amount_total: 900,
      }),
      planPrice.id,
      900,
    );
    const db = await getDb();
    expect(
      await reconcileStripeCheckout(db, stand.config, { userId: u.id, sessionId: session.id }),
    ).toBe("unknown");
    expect(await purchasesOf(u.id)).toHaveLength(0);
    expect((await openPaymentIssues(db)).find((i) => i.providerRef === session.id)).toMatchObject({
      reason: "not-the-plan",
      amountCents: 900,
    });
  });
});

describe("the order bump with Stripe: a second line, its own purchase", () => {
  const deliver = async (event: unknown) =>
    handleStripeWebhook(
      await getDb(),
      stand.config,
      webhookRequest(event, stand.config.webhookSecret),
    );
  const refund = (pi: string, amount: number, refunded: number) =>
    stripeEvent("charge.refunded", {
      id: randomId("ch"),
      object: "charge",
      payment_intent: pi,
      amount,
      amount_refunded: refunded,
    });
  const byProduct = async (userId: string) =>
    Object.fromEntries(
      (await purchasesOf(userId)).map((p) => [p.product, [p.amountCents, p.status]]),
    );

  it("adds the bump as a line at its price and name; paid, each product is its own purchase, coupon spread as Stripe spreads it", async () => {
    const u = await createUser();
    const code = `BUMP${randomId("c").slice(-6).toUpperCase()}`;
    const { url } = await checkout(u, { bump: true, coupon: { code, savingCents: 300 } });
    const [created] = sessionCreations();
    const { bumpPriceCents, bumpName } = currentOfferSettings();
    expect(created?.params).toMatchObject({
      "line_items[0][price]": "price_test_lifetime",
      "line_items[1][price_data][unit_amount]": String(bumpPriceCents),
      "line_items[1][price_data][currency]": "usd",
      "line_items[1][price_data][product_data][name]": bumpName,
      "line_items[1][price_data][product_data][metadata][product_id]": "bump-vip",
      "metadata[bump_price_cents]": String(bumpPriceCents),
    });
    const pi = randomId("pi");
    const paid = stripeEvent("checkout.session.completed", stand.paySession(sessionIdOf(url), pi));
    expect((await deliver(paid)).status).toBe(200);
    // Delivered again: nothing more.
    expect((await deliver(paid)).status).toBe(200);
    const total = 2500 + bumpPriceCents - 300;
    const rows = await purchasesOf(u.id);
    expect(rows).toHaveLength(2);
    expect(rows.reduce((sum, p) => sum + p.amountCents, 0)).toBe(total);
    const bumpShare = Math.round((300 * bumpPriceCents) / (2500 + bumpPriceCents));
    expect(await byProduct(u.id)).toEqual({
      "lifetime-access": [2500 - (300 - bumpShare), "completed"],
      "bump-vip": [bumpPriceCents - bumpShare, "completed"],
    });
    expect(rows.find((p) => p.product === "bump-vip")?.providerRef).toBe(`${pi}:bump-vip`);
  });

  it("records Stripe's fee on the payment's own purchase and the coupon typed at our checkout", async () => {
    const u = await createUser();
    const code = `FEE${randomId("c").slice(-6).toUpperCase()}`;
    const { url } = await checkout(u, { bump: true, coupon: { code, savingCents: 300 } });
    const pi = randomId("pi");
    const paid = stand.paySession(sessionIdOf(url), pi);
    stand.chargeFee(pi, 117);
    expect((await deliver(stripeEvent("checkout.session.completed", paid))).status).toBe(200);
    const rows = await purchasesOf(u.id);
    const of = (product: string) => rows.find((p) => p.product === product);
    expect(of("lifetime-access")).toMatchObject({ feeCents: 117, couponCode: code });
    // Stripe spreads the promotion code over both lines; the fee is the payment's, once.
    expect(of("bump-vip")).toMatchObject({ feeCents: null, couponCode: code });
  });

  it("a fee Stripe gives later (charge.updated) is recorded then; without one, the payment still is", async () => {
    const u = await createUser();
    const { url } = await checkout(u);
    const pi = randomId("pi");
    const paid = stand.paySession(sessionIdOf(url), pi);
    expect((await deliver(stripeEvent("checkout.session.completed", paid))).status).toBe(200);
    expect((await purchasesOf(u.id))[0]).toMatchObject({ feeCents: null, couponCode: null });
    const transaction = stand.chargeFee(pi, 88);
    const updated = stripeEvent("charge.updated", {
      id: randomId("ch"),
      object: "charge",
      payment_intent: pi,
      balance_transaction: transaction,
    });
    expect((await deliver(updated)).status).toBe(200);
    expect((await purchasesOf(u.id))[0]?.feeCents).toBe(88);
  });

  it("a refund of the bump's amount closes the bump alone; the rest closes the plan", async () => {
    const u = await createUser();
    const { url } = await checkout(u, { bump: true });
    const pi = randomId("pi");
    await deliver(
      stripeEvent("checkout.session.completed", stand.paySession(sessionIdOf(url), pi)),
    );
    const { bumpPriceCents } = currentOfferSettings();
    const amount = 2500 + bumpPriceCents;
    // Less than the bump's price, in the Stripe dashboard: nothing closes yet.
    stand.refundInDashboard(pi, bumpPriceCents - 1);
    expect((await deliver(refund(pi, amount, bumpPriceCents - 1))).status).toBe(200);
    expect(await byProduct(u.id)).toEqual({
      "lifetime-access": [2500, "completed"],
      "bump-vip": [bumpPriceCents, "completed"],
    });
    stand.refundInDashboard(pi, 1);
    await deliver(refund(pi, amount, bumpPriceCents));
    expect(await byProduct(u.id)).toEqual({
      "lifetime-access": [2500, "completed"],
      "bump-vip": [bumpPriceCents, "refunded"],
    });
    expect(await hasPaidAccess(await getDb(), { id: u.id, isAdmin: false })).toBe(true);
    await deliver(refund(pi, amount, amount));
    expect(await byProduct(u.id)).toEqual({
      "lifetime-access": [2500, "refunded"],
      "bump-vip": [bumpPriceCents, "refunded"],
    });
  });

  it("a refund in full that overtakes the payment closes the plan and the bump", async () => {
    const u = await createUser();
    const { url } = await checkout(u, { bump: true });
    const pi = randomId("pi");
    const { bumpPriceCents } = currentOfferSettings();
    await deliver(refund(pi, 2500 + bumpPriceCents, 2500 + bumpPriceCents));
    await deliver(
      stripeEvent("checkout.session.completed", stand.paySession(sessionIdOf(url), pi)),
    );
    expect(await byProduct(u.id)).toEqual({
      "lifetime-access": [2500, "refunded"],
      "bump-vip": [bumpPriceCents, "refunded"],
    });
  });

  it("offers no bump line to a member who holds the bump already", async () => {
    const u = await createUser();
    await (await getDb()).insert(purchase).values({
      userId: u.id,
      provider: "manual",
      providerRef: randomId("grant"),
      product: "bump-vip",
      amountCents: 0,
      currency: "usd",
    });
    await checkout(u, { bump: true });
    const [created] = sessionCreations();
    expect(created?.params["line_items[1][price_data][unit_amount]"]).toBeUndefined();
    expect(created?.params["metadata[bump_price_cents]"]).toBeUndefined();
  });
});
