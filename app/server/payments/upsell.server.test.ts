import { and, eq } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { offerDefaults } from "~/lib/offer";
import * as successRoute from "~/routes/checkout/success";
import * as testCheckoutRoute from "~/routes/checkout/test-checkout";
import { createTestApp } from "~/test/app-handler";
import {
  appRequest,
  createUser,
  origin,
  purchasesOf,
  redirectTarget,
  run,
  type TestUser,
  withEnv,
} from "~/test/helpers";
import {
  randomId,
  stripeEvent,
  type TestCard,
  testCards,
  webhookRequest,
} from "~/test/stripe-stand-in";
import { cliActor } from "../audit-log.server";
import { getDb } from "../db/db.server";
import { paymentIssue, purchase } from "../db/schema";
import { refreshOfferSettings, writeOfferSettings } from "../settings/offer-settings.server";
import { setUpStripeStandIn, stand, stripePaidMember } from "./fixtures";
import { addOnRef } from "./purchases.server";
import { handleStripeWebhook } from "./stripe-webhook.server";
import { buyUpsell } from "./upsell.server";

const { app } = await createTestApp();

setUpStripeStandIn();
beforeEach(() => {
  stand.requests.length = 0;
});

afterAll(async () => {
  const db = await getDb();
  await writeOfferSettings(db, cliActor(), offerDefaults);
  await refreshOfferSettings(db);
});

/** "Yes, Upgrade My Order" on an upsell's page, as the browser posts it. */
const accept = (page: string, cookie?: string, form: Record<string, string> = { intent: "buy" }) =>
  app.fetch(appRequest(page, { cookie, form }));

const location = (response: Response) => response.headers.get("location");

const ordered = async (userId: string, product: string) =>
  (await purchasesOf(userId)).filter((p) => p.product === product);

const planOf = async (userId: string) => {
  const [plan] = await ordered(userId, "lifetime-access");
  if (!plan) throw new Error("no plan purchase");
  return plan;
};

describe("one-click upsells with the test checkout's saved card", () => {
  it("upsell 1 is charged in one click, added to the plan's order, and leads to upsell 2", async () => {
    const u = await createUser({ paid: true });
    const plan = await planOf(u.id);
    const answer = await accept("/white-label-upsell", u.cookie);
    expect(answer.status).toBe(302);
    expect(location(answer)).toBe("/custom-saas-upsell");
    const [bought] = await ordered(u.id, "white-label");
    expect(bought).toMatchObject({
      provider: "test",
      providerRef: addOnRef(plan.providerRef, "white-label"),
      amountCents: offerDefaults.whiteLabelPriceCents,
      status: "completed",
      firstPurchaseId: plan.id,
    });
  });

  it("a double click, a reload and two tabs charge once", async () => {
    const u = await createUser({ paid: true });
    const answers = await Promise.all([
      accept("/white-label-upsell", u.cookie),
      accept("/white-label-upsell", u.cookie),
      accept("/white-label-upsell", u.cookie),
    ]);
    for (const answer of answers) expect(location(answer)).toBe("/custom-saas-upsell");
    expect(location(await accept("/white-label-upsell", u.cookie))).toBe("/custom-saas-upsell");
    expect(await ordered(u.id, "white-label")).toHaveLength(1);
    // Its page does not offer it again.
    const html = await (
      await app.fetch(appRequest("/white-label-upsell", { cookie: u.cookie }))
    ).text();
    expect(html).toContain("You already own this: it is in your account.");
    expect(html).not.toContain('data-upsell="white-label"');
  });

  it("upsell 2 ends on the thank-you page with its order number", async () => {
    const u = await createUser({ paid: true });
    const answer = await accept("/custom-saas-upsell", u.cookie);
    const [bought] = await ordered(u.id, "custom-saas");
    expect(bought?.amountCents).toBe(offerDefaults.customSaasPriceCents);
    expect(location(answer)).toBe(`/custom-saas-thank-you?order=${bought?.orderNumber}`);
    // Asked again: nothing more is charged, and the member is led on.
    expect(location(await accept("/custom-saas-upsell", u.cookie))).toBe("/custom-saas-thank-you");
    expect(await ordered(u.id, "custom-saas")).toHaveLength(1);
  });

  it("the database refuses a second purchase of one product in one order", async () => {
    const u = await createUser({ paid: true });
    const plan = await planOf(u.id);
    await accept("/white-label-upsell", u.cookie);
    const again = (await getDb()).insert(purchase).values({
      userId: u.id,
      provider: "test",
      providerRef: randomId("other"),
      product: "white-label",
      amountCents: 3700,
      firstPurchaseId: plan.id,
    });
    await expect(again).rejects.toThrow();
    expect(await ordered(u.id, "white-label")).toHaveLength(1);
  });

  it("a visitor signs in first, a member without the plan buys it first, bad input is refused", async () => {
    expect(location(await accept("/white-label-upsell"))).toBe("/login");
    const member = await createUser();
    expect(location(await accept("/white-label-upsell", member.cookie))).toBe("/buy/plan");
    expect(await purchasesOf(member.id)).toHaveLength(0);
    const paid = await createUser({ paid: true });
    const refused = await accept("/white-label-upsell", paid.cookie, { intent: "steal" });
    expect(refused.status).toBe(400);
    expect(await ordered(paid.id, "white-label")).toHaveLength(0);
  });

  it("the marketplace mode sends the buy button to its link and charges nothing", async () => {
    await withOfferSetting({ sellIn: "marketplace" }, { sellIn: "product" }, async () => {
      const u = await createUser({ paid: true });
      const html = await (await app.fetch(appRequest("/white-label-upsell"))).text();
      expect(html).toContain(`href="${offerDefaults.whiteLabelUrl}"`);
      expect(html).not.toContain('data-upsell="white-label"');
      expect(location(await accept("/white-label-upsell", u.cookie))).toBe(
        offerDefaults.whiteLabelUrl,
      );
      expect(await ordered(u.id, "white-label")).toHaveLength(0);
    });
  });

  it("the owner's setting sends upsell 2 to a checkout page, which adds it to the order once", async () => {
    const set = { customSaasPayment: "checkout" } as const;
    await withOfferSetting(set, { customSaasPayment: "one-click" }, async () => {
      const u = await createUser({ paid: true });
      const plan = await planOf(u.id);
      const answer = await accept("/custom-saas-upsell", u.cookie);
      const checkout = location(answer) ?? "";
      expect(checkout).toMatch(/^http:\/\/localhost:3000\/checkout\/test\/[0-9a-f-]{36}$/);
      expect(await ordered(u.id, "custom-saas")).toHaveLength(0);
      // Asked again: the same checkout.
      expect(location(await accept("/custom-saas-upsell", u.cookie))).toBe(checkout);
      const path = new URL(checkout).pathname;
      const pay = () =>
        run(() =>
          testCheckoutRoute.action({
            request: appRequest(path, {
              cookie: u.cookie,
              form: { intent: "pay" },
              clientIp: "127.0.0.1",
            }),
            params: { checkoutId: path.split("/").pop() ?? "" },
            context: {},
          } as never),
        );
      expect(redirectTarget(await pay())).toBe("/success?bought=custom-saas");
      await pay();
      const [bought] = await ordered(u.id, "custom-saas");
      expect(await ordered(u.id, "custom-saas")).toHaveLength(1);
      expect(bought).toMatchObject({
        amountCents: offerDefaults.customSaasPriceCents,
        firstPurchaseId: plan.id,
      });
      // /success names the product and leads to the thank-you page with the order number.
      const page = await success(u, "?bought=custom-saas");
      expect(page).toMatchObject({
        outcome: "paid",
        next: `/custom-saas-thank-you?order=${bought?.orderNumber}`,
      });
      // With Stripe too: a Checkout Session, though a card is kept.
      const { u: carded } = await stripeMember();
      expect((await upsellOf(carded, "custom-saas")).kind).toBe("checkout");
      expect(intentCreations()).toHaveLength(0);
    });
  });

  it("in the product the page's button is the one-click form", async () => {
    const html = await (await app.fetch(appRequest("/white-label-upsell"))).text();
    expect(html).toContain('data-upsell="white-label"');
    expect(html).toContain('name="intent" value="buy"');
    expect(html).toContain("Yes, Upgrade My Order for $37");
  });

  it("/success leads from the plan to the upsells the member does not hold, then the dashboard", async () => {
    const u = await createUser({ paid: true });
    expect((await success(u)).next).toBe("/white-label-upsell");
    await accept("/white-label-upsell", u.cookie);
    expect((await success(u)).next).toBe("/custom-saas-upsell");
    await accept("/custom-saas-upsell", u.cookie);
    expect((await success(u)).next).toBe("/dashboard");
    const upsell = await success(u, "?bought=white-label");
    expect(upsell).toMatchObject({ outcome: "paid", next: "/custom-saas-upsell" });
    expect(upsell.upsell).toBe(offerDefaults.whiteLabelName);
  });
});

function success(u: TestUser, query = "") {
  return successRoute.loader({
    request: appRequest(`/success${query}`, { cookie: u.cookie }),
    params: {},
    context: {},
  } as never);
}

/** A member who paid the plan through a Stripe Checkout Session with `card`, kept for later. */
async function stripeMember(card: TestCard = testCards.visa) {
  const { u, paymentIntent, of } = await stripePaidMember({ card });
  return { u, plan: of("lifetime-access"), paymentIntent };
}

/** Runs `body` with offer settings `set`, then writes `restore` back. */
async function withOfferSetting(
  set: Parameters<typeof writeOfferSettings>[2],
  restore: Parameters<typeof writeOfferSettings>[2],
  body: () => Promise<void>,
) {
  const db = await getDb();
  await writeOfferSettings(db, cliActor(), set);
  await refreshOfferSettings(db);
  try {
    await body();
  } finally {
    await writeOfferSettings(db, cliActor(), restore);
    await refreshOfferSettings(db);
  }
}

const upsellOf = (u: TestUser, product: "white-label" | "custom-saas" = "white-label") =>
  withEnv({ stripe: stand.config }, async () =>
    buyUpsell(await getDb(), {
      user: { id: u.id, email: u.email },
      product,
      origin,
      stripe: stand.config,
    }),
  );

const intentCreations = () =>
  stand.requests.filter((r) => r.method === "POST" && r.path === "/v1/payment_intents");

const deliver = (event: unknown) =>
  withEnv({ stripe: stand.config }, async () =>
    handleStripeWebhook(
      await getDb(),
      stand.config,
      webhookRequest(event, stand.config.webhookSecret),
    ),
  );

describe("one-click upsells with Stripe", () => {
  it("charges the card the plan's session kept, off-session, once per order", async () => {
    const { u, plan, paymentIntent } = await stripeMember();
    const outcomes = await Promise.all([upsellOf(u), upsellOf(u)]);
    const [bought] = await ordered(u.id, "white-label");
    // Each ask is told it is bought (or held, when the other finished first).
    for (const outcome of outcomes) expect(["bought", "owned"]).toContain(outcome.kind);
    expect(outcomes.some((o) => o.kind === "bought")).toBe(true);
    const creations = intentCreations();
    expect(creations.length).toBeGreaterThanOrEqual(1);
    expect(creations[0]?.params).toMatchObject({
      amount: String(offerDefaults.whiteLabelPriceCents),
      currency: "usd",
      payment_method: testCards.visa,
      off_session: "true",
      confirm: "true",
      "metadata[user_id]": u.id,
      "metadata[product_id]": "white-label",
      "metadata[first_purchase_id]": plan.id,
    });
    // The card's customer is the plan's.
    const planIntent = stand.paymentIntents().find((i) => i.id === paymentIntent);
    expect(creations[0]?.params.customer).toBe(planIntent?.customer);
    // Stripe made one charge for however many asks: one Payment Intent of the upsell.
    const charges = stand.paymentIntents().filter((i) => i.metadata.product_id === "white-label");
    expect(charges).toHaveLength(1);
    expect(bought).toMatchObject({
      provider: "stripe",
      providerRef: charges[0]?.id,
      amountCents: offerDefaults.whiteLabelPriceCents,
      firstPurchaseId: plan.id,
    });
    // Asked again later: held, nothing charged.
    stand.requests.length = 0;
    expect((await upsellOf(u)).kind).toBe("owned");
    expect(intentCreations()).toHaveLength(0);
  });

  it("when the bank asks for authentication, a Checkout Session for the product takes over", async () => {
    const { u, plan } = await stripeMember(testCards.authenticationRequired);
    const outcome = await upsellOf(u);
    expect(outcome.kind).toBe("checkout");
    expect(await ordered(u.id, "white-label")).toHaveLength(0);
    const [created] = stand.requests.filter(
      (r) =>
        r.method === "POST" &&
        r.path === "/v1/checkout/sessions" &&
        r.params["metadata[product_id]"] === "white-label",
    );
    expect(created?.params).toMatchObject({
      mode: "payment",
      "line_items[0][price_data][unit_amount]": String(offerDefaults.whiteLabelPriceCents),
      "metadata[product_id]": "white-label",
      "metadata[first_purchase_id]": plan.id,
      success_url: `${origin}/success?session_id={CHECKOUT_SESSION_ID}&bought=white-label`,
      cancel_url: `${origin}/white-label-upsell`,
    });
    // Paid there: /success records it in the order and leads on to upsell 2.
    const sessionId = outcome.kind === "checkout" ? (outcome.url.split("/").pop() ?? "") : "";
    stand.paySession(sessionId);
    const page = await withEnv({ stripe: stand.config }, async () =>
      success(u, `?session_id=${sessionId}&bought=white-label`),
    );
    expect(page).toMatchObject({ outcome: "paid", next: "/custom-saas-upsell" });
    const [bought] = await ordered(u.id, "white-label");
    expect(bought).toMatchObject({ amountCents: 3700, firstPurchaseId: plan.id });
  });

  it("a declined card charges nothing and says so", async () => {
    const { u } = await stripeMember(testCards.declined);
    expect((await upsellOf(u)).kind).toBe("declined");
    expect(await ordered(u.id, "white-label")).toHaveLength(0);
    const page = await withEnv({ stripe: stand.config }, async () =>
      accept("/white-label-upsell", u.cookie),
    );
    expect(page.status).toBe(402);
    expect(await page.text()).toContain("Your card was declined, so nothing was charged.");
  });

  it("the webhook confirms an off-session charge, however often it comes, and ignores others", async () => {
    const { u } = await stripeMember();
    await upsellOf(u, "custom-saas");
    const [charge] = stand.paymentIntents().filter((i) => i.metadata.product_id === "custom-saas");
    if (!charge) throw new Error("no charge");
    // Recorded by the click; the webhook, twice, changes nothing.
    const event = stripeEvent("payment_intent.succeeded", charge);
    expect((await deliver(event)).status).toBe(200);
    expect((await deliver(event)).status).toBe(200);
    expect((await deliver(stripeEvent("payment_intent.succeeded", charge))).status).toBe(200);
    expect(await ordered(u.id, "custom-saas")).toHaveLength(1);
    // A charge the click did not record (the server stopped): the webhook records it.
    const other = await createUser();
    const lost = {
      ...charge,
      id: randomId("pi"),
      metadata: { ...charge.metadata, user_id: other.id },
    };
    expect((await deliver(stripeEvent("payment_intent.succeeded", lost))).status).toBe(200);
    const [recorded] = await ordered(other.id, "custom-saas");
    // The order it names is not that member's: recorded as an order of its own.
    expect(recorded).toMatchObject({ providerRef: lost.id, firstPurchaseId: null });
    // A payment of a Checkout Session (no upsell metadata) is its session's business.
    const plain = { ...charge, id: randomId("pi"), metadata: {} };
    expect((await deliver(stripeEvent("payment_intent.succeeded", plain))).status).toBe(200);
    const rows = await (await getDb())
      .select()
      .from(purchase)
      .where(and(eq(purchase.provider, "stripe"), eq(purchase.providerRef, plain.id)));
    expect(rows).toHaveLength(0);
  });

  it("a second payment for a product the order holds is refused and kept for the operator", async () => {
    const { u, plan } = await stripeMember();
    await upsellOf(u);
    const [charge] = stand
      .paymentIntents()
      .filter((i) => i.metadata.product_id === "white-label" && i.metadata.user_id === u.id);
    if (!charge) throw new Error("no charge");
    const twice = { ...charge, id: randomId("pi") };
    expect((await deliver(stripeEvent("payment_intent.succeeded", twice))).status).toBe(200);
    expect(await ordered(u.id, "white-label")).toHaveLength(1);
    const [issue] = await (await getDb())
      .select()
      .from(paymentIssue)
      .where(eq(paymentIssue.providerRef, twice.id));
    expect(issue).toMatchObject({ reason: "already-bought", userRef: u.id });
    expect(plan.status).toBe("completed");
  });

  it("a refund of an upsell closes that product only", async () => {
    const { u, paymentIntent } = await stripeMember();
    await upsellOf(u);
    const [charge] = stand
      .paymentIntents()
      .filter((i) => i.metadata.product_id === "white-label" && i.metadata.user_id === u.id);
    const refund = stripeEvent("charge.refunded", {
      id: randomId("ch"),
      object: "charge",
      payment_intent: charge?.id,
      amount: offerDefaults.whiteLabelPriceCents,
      amount_refunded: offerDefaults.whiteLabelPriceCents,
    });
    expect((await deliver(refund)).status).toBe(200);
    const rows = await purchasesOf(u.id);
    expect(rows.find((p) => p.product === "white-label")?.status).toBe("refunded");
    expect(rows.find((p) => p.providerRef === paymentIntent)?.status).toBe("completed");
  });
});
