import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import * as stripeWebhookRoute from "~/routes/api/webhooks/stripe";
import { createUser } from "~/test/helpers";
import { randomId, stripeEvent, webhookRequest } from "~/test/stripe-stand-in";
import { hasPaidAccess } from "../access.server";
import { getDb } from "../db/db.server";
import { paymentIssue, purchase, webhookEvent } from "../db/schema";
import { logger } from "../logger.server";
import { cli } from "../operator/fixtures";
import { setUpStripeStandIn, stand } from "./fixtures";
import { openPaymentIssues } from "./payment-issues.server";
import { handleStripeWebhook } from "./stripe-webhook.server";

setUpStripeStandIn();

type Event = ReturnType<typeof stripeEvent>;

async function deliver(event: Event, signature?: string | null): Promise<Response> {
  return handleStripeWebhook(
    await getDb(),
    stand.config,
    webhookRequest(event, stand.config.webhookSecret, signature),
  );
}

/** A Checkout Session, known to the stand-in (Stripe) with one line: `priceId`, the plan's unless given. */
function sessionObject(
  userId: string,
  paymentIntent: string | null,
  paymentStatus: "paid" | "unpaid" = "paid",
  priceId = stand.config.priceId,
) {
  return stand.addSession(plainSession(userId, paymentIntent, paymentStatus), priceId);
}

function plainSession(userId: string, paymentIntent: string | null, paymentStatus: string) {
  return {
    id: randomId("cs_test"),
    object: "checkout.session",
    mode: "payment",
    client_reference_id: userId,
    metadata: { user_id: userId, product_id: "lifetime-access" },
    payment_status: paymentStatus,
    status: "complete",
    payment_intent: paymentIntent,
    amount_total: 2500,
    currency: "usd",
  };
}

const completed = (userId: string, paymentIntent: string) =>
  stripeEvent("checkout.session.completed", sessionObject(userId, paymentIntent));

function refunded(paymentIntent: string, amountRefunded = 2500) {
  return stripeEvent("charge.refunded", {
    id: randomId("ch"),
    object: "charge",
    amount: 2500,
    amount_refunded: amountRefunded,
    refunded: amountRefunded >= 2500,
    payment_intent: paymentIntent,
    currency: "usd",
  });
}

function disputeClosed(paymentIntent: string, status: "lost" | "won") {
  return stripeEvent("charge.dispute.closed", {
    id: randomId("dp"),
    object: "dispute",
    amount: 2500,
    charge: randomId("ch"),
    payment_intent: paymentIntent,
    status,
  });
}

async function purchasesOf(paymentIntent: string) {
  return (await getDb())
    .select()
    .from(purchase)
    .where(and(eq(purchase.provider, "stripe"), eq(purchase.providerRef, paymentIntent)));
}

async function recorded(eventId: string) {
  return (await getDb())
    .select()
    .from(webhookEvent)
    .where(and(eq(webhookEvent.provider, "stripe"), eq(webhookEvent.eventId, eventId)));
}

const hasAccess = async (userId: string) =>
  hasPaidAccess(await getDb(), { id: userId, isAdmin: false });

describe("Stripe webhook: signature", () => {
  it("answers 400 to a bad signature and stores nothing", async () => {
    const u = await createUser();
    const pi = randomId("pi");
    const event = completed(u.id, pi);
    const forged = webhookRequest(event, "whsec_someone_else");
    const response = await handleStripeWebhook(await getDb(), stand.config, forged);
    expect(response.status).toBe(400);
    expect((await deliver(event, "t=1,v1=deadbeef")).status).toBe(400);
    expect(await recorded(event.id)).toHaveLength(0);
    expect(await purchasesOf(pi)).toHaveLength(0);
  });

  it("answers 400 without a Stripe-Signature header", async () => {
    const u = await createUser();
    const event = completed(u.id, randomId("pi"));
    expect((await deliver(event, null)).status).toBe(400);
    expect(await recorded(event.id)).toHaveLength(0);
  });

  it("answers 400 to a body changed after signing", async () => {
    const u = await createUser();
    const event = completed(u.id, randomId("pi"));
    const signed = webhookRequest(event, stand.config.webhookSecret);
    const tampered = new Request(signed.url, {
      method: "POST",
      headers: signed.headers,
      body: JSON.stringify({ ...event, type: "charge.refunded" }),
    });
    expect((await handleStripeWebhook(await getDb(), stand.config, tampered)).status).toBe(400);
  });

  it("the route answers 404 where Stripe is not configured", async () => {
    const u = await createUser();
    const response = (await stripeWebhookRoute.action({
      request: webhookRequest(completed(u.id, randomId("pi")), "whsec_x"),
      params: {},
      context: {},
    } as never)) as Response;
    expect(response.status).toBe(404);
  });
});

describe("Stripe webhook: a signed event in a shape Stripe does not send", () => {
  const checkout = (object: unknown) => ({
    ...stripeEvent("checkout.session.completed", {}),
    data: { object },
  });
  it.each([
    ["an empty body", {}],
    ["a JSON null", null],
    ["data: null", { ...stripeEvent("checkout.session.completed", {}), data: null }],
    ["an object as the event id", { ...stripeEvent("charge.refunded", {}), id: { id: "evt_1" } }],
    ["a session without an id", checkout({ object: "checkout.session", payment_status: "paid" })],
    ["an object as the session id", checkout({ id: { nested: "cs_test_1" }, mode: "payment" })],
    ["an object as the buyer's id", checkout({ id: randomId("cs_test"), client_reference_id: {} })],
    [
      "a refund with an object where the payment's id belongs",
      stripeEvent("charge.refunded", {
        payment_intent: { pi: 1 },
        amount: 2500,
        amount_refunded: 2500,
      }),
    ],
    ["a refund without amounts", stripeEvent("charge.refunded", { payment_intent: "pi_1" })],
  ])("is acknowledged (200) and logged without its values: %s", async (_, body) => {
    const warn = vi.spyOn(logger, "warn");
    const error = vi.spyOn(logger, "error");
    try {
      const response = await handleStripeWebhook(
        await getDb(),
        stand.config,
        webhookRequest(body, stand.config.webhookSecret),
      );
      expect(response.status).toBe(200);
      expect(error).not.toHaveBeenCalled();
      const [fields, message] = warn.mock.calls.at(-1) ?? [];
      expect(message).toMatch(/malformed/);
      expect((fields as { fields: string[] }).fields.length).toBeGreaterThan(0);
      // Field paths and the event's id and type only: no value of the body.
      expect(JSON.stringify(fields)).not.toMatch(/cs_test_1|nested|"pi"|evt_1"/);
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
  });

  it("a well-formed event of a type this product ignores is still acknowledged quietly", async () => {
    const warn = vi.spyOn(logger, "warn");
    try {
      const event = stripeEvent("customer.created", { id: randomId("cus"), email: null });
      expect((await deliver(event)).status).toBe(200);
      expect(warn).not.toHaveBeenCalled();
      expect(await recorded(event.id)).toHaveLength(1);
    } finally {
      warn.mockRestore();
    }
  });
});

describe("Stripe webhook: payments", () => {
  it("checkout.session.completed (paid) gives one completed purchase and access", async () => {
    const u = await createUser();
    const pi = randomId("pi");
    const event = completed(u.id, pi);
    const response = await deliver(event);
    expect(response.status).toBe(200);
    const rows = await purchasesOf(pi);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      userId: u.id,
      provider: "stripe",
      product: "lifetime-access",
      amountCents: 2500,
      currency: "usd",
      status: "completed",
    });
    expect(await recorded(event.id)).toHaveLength(1);
    expect(await hasAccess(u.id)).toBe(true);
  });

  it("an unpaid completed session grants nothing until async_payment_succeeded", async () => {
    const u = await createUser();
    const pi = randomId("pi");
    const session = sessionObject(u.id, pi, "unpaid");
    expect((await deliver(stripeEvent("checkout.session.completed", session))).status).toBe(200);
    expect(await purchasesOf(pi)).toHaveLength(0);
    stand.paySession(session.id, pi);
    const succeeded = stripeEvent("checkout.session.async_payment_succeeded", {
      ...session,
      payment_status: "paid",
    });
    expect((await deliver(succeeded)).status).toBe(200);
    expect(await purchasesOf(pi)).toHaveLength(1);
    expect(await hasAccess(u.id)).toBe(true);
  });

  it.each([
    ["twice", 2, false],
    ["ten times in parallel", 10, true],
  ])("the same event delivered %s gives one purchase", async (_, times, parallel) => {
    const u = await createUser();
    const pi = randomId("pi");
    const event = completed(u.id, pi);
    const statuses: number[] = [];
    if (parallel) {
      const responses = await Promise.all(Array.from({ length: times }, () => deliver(event)));
      statuses.push(...responses.map((r) => r.status));
    } else {
      for (let i = 0; i < times; i++) statuses.push((await deliver(event)).status);
    }
    expect(statuses).toEqual(Array(times).fill(200));
    expect(await purchasesOf(pi)).toHaveLength(1);
    expect(await recorded(event.id)).toHaveLength(1);
  });

  it("the payment delivered again after its refund stays refunded", async () => {
    const u = await createUser();
    const pi = randomId("pi");
    const event = completed(u.id, pi);
    await deliver(event);
    expect((await deliver(refunded(pi))).status).toBe(200);
    // The same event again, and a new event for the same payment (Stripe may send both).
    expect((await deliver(event)).status).toBe(200);
    expect((await deliver(completed(u.id, pi))).status).toBe(200);
    const rows = await purchasesOf(pi);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.status).toBe("refunded");
    expect(await hasAccess(u.id)).toBe(false);
  });
});

describe("Stripe webhook: refunds and disputes", () => {
  it("a refund that arrives before the payment still ends refunded, without access", async () => {
    const u = await createUser();
    const pi = randomId("pi");
    expect((await deliver(refunded(pi))).status).toBe(200);
    expect(await purchasesOf(pi)).toHaveLength(0);
    expect((await deliver(completed(u.id, pi))).status).toBe(200);
    const rows = await purchasesOf(pi);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.status).toBe("refunded");
    expect(await hasAccess(u.id)).toBe(false);
  });

  it("a partial refund keeps the purchase completed; the rest refunded ends it", async () => {
    const u = await createUser();
    const pi = randomId("pi");
    await deliver(completed(u.id, pi));
    expect((await deliver(refunded(pi, 1000))).status).toBe(200);
    expect((await purchasesOf(pi))[0]?.status).toBe("completed");
    expect(await hasAccess(u.id)).toBe(true);
    await deliver(refunded(pi, 2500));
    expect((await purchasesOf(pi))[0]?.status).toBe("refunded");
  });

  it("a lost dispute revokes the purchase; a won one does not", async () => {
    const lost = await createUser();
    const won = await createUser();
    const lostPi = randomId("pi");
    const wonPi = randomId("pi");
    await deliver(completed(lost.id, lostPi));
    await deliver(completed(won.id, wonPi));
    expect((await deliver(disputeClosed(lostPi, "lost"))).status).toBe(200);
    expect((await deliver(disputeClosed(wonPi, "won"))).status).toBe(200);
    expect((await purchasesOf(lostPi))[0]?.status).toBe("refunded");
    expect(await hasAccess(lost.id)).toBe(false);
    expect((await purchasesOf(wonPi))[0]?.status).toBe("completed");
    expect(await hasAccess(won.id)).toBe(true);
  });
});

describe("Stripe webhook: other events and failures", () => {
  it("answers 200 to an event type it does not use", async () => {
    const event = stripeEvent("customer.created", { id: randomId("cus"), object: "customer" });
    expect((await deliver(event)).status).toBe(200);
  });

  it("answers 500 and records nothing when Stripe cannot be asked about the session, so Stripe retries", async () => {
    const u = await createUser();
    const pi = randomId("pi");
    // A session the stand-in does not know: the lookup of its line items fails.
    const event = stripeEvent("checkout.session.completed", plainSession(u.id, pi, "paid"));
    expect((await deliver(event)).status).toBe(500);
    expect(await recorded(event.id)).toHaveLength(0);
    expect(await purchasesOf(pi)).toHaveLength(0);
    // A retry is tried again, not skipped as already seen.
    expect((await deliver(event)).status).toBe(500);
  });

  it("answers 500 when the payment is already recorded for another user", async () => {
    const owner = await createUser();
    const other = await createUser();
    const pi = randomId("pi");
    await deliver(completed(owner.id, pi));
    const event = completed(other.id, pi);
    expect((await deliver(event)).status).toBe(500);
    expect(await recorded(event.id)).toHaveLength(0);
    expect((await purchasesOf(pi))[0]?.userId).toBe(owner.id);
  });

  it("different events for one payment, in parallel, give one purchase", async () => {
    const u = await createUser();
    const pi = randomId("pi");
    const event = completed(u.id, pi);
    await Promise.all([deliver(event), deliver(completed(u.id, pi)), deliver(event)]);
    expect(await purchasesOf(pi)).toHaveLength(1);
  });
});

describe("Stripe webhook: payments that grant nothing", () => {
  const issuesOf = async (sessionId: string) =>
    (await getDb()).select().from(paymentIssue).where(eq(paymentIssue.providerRef, sessionId));

  it("a paid session for another price (a Payment Link, another product) is acknowledged, recorded, and grants nothing", async () => {
    const u = await createUser();
    const pi = randomId("pi");
    const session = sessionObject(u.id, pi, "paid", "price_other_product");
    const event = stripeEvent("checkout.session.completed", session);
    expect((await deliver(event)).status).toBe(200);
    expect((await deliver(stripeEvent("checkout.session.completed", session))).status).toBe(200);
    expect(await purchasesOf(pi)).toHaveLength(0);
    expect(await hasAccess(u.id)).toBe(false);
    const issues = await issuesOf(session.id);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ reason: "not-the-plan", userRef: u.id, resolvedAt: null });
    expect(await recorded(event.id)).toHaveLength(1);
  });

  it("a paid session whose client_reference_id is no user is acknowledged and recorded for the operator", async () => {
    const pi = randomId("pi");
    const userRef = `no-such-user-${randomUUID()}`;
    const session = sessionObject(userRef, pi);
    const event = stripeEvent("checkout.session.completed", session);
    expect((await deliver(event)).status).toBe(200);
    expect(await purchasesOf(pi)).toHaveLength(0);
    const issues = await issuesOf(session.id);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ reason: "unknown-user", userRef, amountCents: 2500 });
    const open = await openPaymentIssues(await getDb());
    expect(open.map((issue) => issue.providerRef)).toContain(session.id);
    // The operator sees it with the CLI.
    const listed = await cli("payments", "issues");
    expect(listed.code).toBe(0);
    const line = listed.out.split("\n").find((l) => l.startsWith(`stripe    ${session.id}`));
    expect(line).toMatch(new RegExp(`unknown-user\\s+${userRef}\\s+25\\.00 USD\\s+\\d{4}-`));
  });
});
