import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { offerDefaults } from "~/lib/offer";
import { createTestApp } from "~/test/app-handler";
import {
  appRequest,
  createUser,
  purchasesOf,
  redirectTarget,
  type TestUser,
  withEnv,
} from "~/test/helpers";
import { randomId, stripeEvent, webhookRequest } from "~/test/stripe-stand-in";
import { hasPaidAccess } from "../access.server";
import { cliActor } from "../audit-log.server";
import { getDb } from "../db/db.server";
import { auditLog, purchase, refund } from "../db/schema";
import { setUpStripeStandIn, stand, stripePaidMember } from "../payments/fixtures";
import { revokePurchase } from "../payments/purchases.server";
import { handleStripeWebhook } from "../payments/stripe-webhook.server";
import { refreshOfferSettings, writeOfferSettings } from "../settings/offer-settings.server";
import { adminActor } from "./audit.server";
import { findMember } from "./members.server";
import { refundPurchase } from "./refunds.server";
import { salesReport } from "./sales.server";

const { app } = await createTestApp();
setUpStripeStandIn();
afterAll(async () => {
  const db = await getDb();
  await writeOfferSettings(db, cliActor(), offerDefaults);
  await refreshOfferSettings(db);
});

const refundsOf = async (purchaseId: string) =>
  (await getDb())
    .select({ amountCents: refund.amountCents, providerRef: refund.providerRef })
    .from(refund)
    .where(eq(refund.purchaseId, purchaseId));

const member = async (u: TestUser) => hasPaidAccess(await getDb(), { id: u.id, isAdmin: false });

const today = () => new Date().toISOString().slice(0, 10);

/** Today's refunds in the sales report, in cents. */
const refundedToday = async () =>
  (await salesReport(await getDb(), { from: today(), to: today(), unit: "day" })).totals.find(
    (t) => t.currency === "usd",
  )?.refundsCents ?? 0;

/** The Refund form on the member's page, as the browser posts it. */
const refundForm = (
  admin: TestUser,
  u: TestUser,
  fields: { purchaseId: string; amount: string; refundedBefore?: string; confirm?: string },
) =>
  app.fetch(
    appRequest(`/admin/members/${u.id}`, {
      cookie: admin.cookie,
      form: { intent: "refund", refundedBefore: "0", confirm: "yes", ...fields },
    }),
  );

describe("a refund from the console, test checkout", () => {
  it("pays back part, keeping access; then the rest, ending it; each counted on its day and audited", async () => {
    const db = await getDb();
    const admin = await createUser({ isAdmin: true });
    const u = await createUser({ paid: true });
    const [plan] = await purchasesOf(u.id);
    if (!plan) throw new Error("no purchase");
    const before = await refundedToday();
    const actor = adminActor(admin);
    const partial = { userId: u.id, purchaseId: plan.id, amountCents: 1000, refundedBefore: 0 };
    expect(await refundPurchase(db, actor, partial, undefined)).toMatchObject({ ok: true });
    expect(await member(u)).toBe(true);
    expect((await purchasesOf(u.id))[0]?.status).toBe("completed");
    // The member's page says how much was paid back.
    const shown = (await findMember(db, u.id))?.purchases[0];
    expect(shown?.refundedCents).toBe(1000);
    expect(Date.now() - (shown?.lastRefundAt?.getTime() ?? 0)).toBeLessThan(60_000);
    // The same form again (a double click, a reload): nothing more.
    expect(await refundPurchase(db, actor, partial, undefined)).toMatchObject({ ok: true });
    expect(await refundsOf(plan.id)).toEqual([{ amountCents: 1000, providerRef: null }]);
    expect((await refundedToday()) - before).toBe(1000);
    // A form shown before that refund: refused, nothing refunded.
    const stale = { ...partial, amountCents: 500, refundedBefore: 0, purchaseId: plan.id };
    expect(
      await refundPurchase(db, actor, { ...stale, refundedBefore: 200 }, undefined),
    ).toMatchObject({ ok: false, error: expect.stringContaining("refunded meanwhile") });
    // More than is left: refused.
    const rest = { ...partial, amountCents: 1501, refundedBefore: 1000 };
    expect(await refundPurchase(db, actor, rest, undefined)).toEqual({
      ok: false,
      error: "At most $15 can be refunded.",
    });
    expect(
      await refundPurchase(db, actor, { ...rest, amountCents: 1500 }, undefined),
    ).toMatchObject({ ok: true, message: expect.stringContaining("refunded in full") });
    expect(await member(u)).toBe(false);
    const [after] = await purchasesOf(u.id);
    expect(after?.status).toBe("refunded");
    // The rows add up to what was paid; the database added nothing of its own.
    expect((await refundsOf(plan.id)).map((r) => r.amountCents).sort((a, b) => a - b)).toEqual([
      1000, 1500,
    ]);
    expect((await refundedToday()) - before).toBe(2500);
    const audited = await db.select().from(auditLog).where(eq(auditLog.kind, "purchase.refund"));
    expect(audited.filter((a) => a.target?.includes(plan.orderNumber))).toHaveLength(2);
    // Refunded in full: no more.
    expect(
      await refundPurchase(db, actor, { ...rest, amountCents: 1, refundedBefore: 2500 }, undefined),
    ).toEqual({ ok: false, error: "Refunded in full." });
  });

  it("two forms shown at once refund no more than was paid", async () => {
    const db = await getDb();
    const admin = await createUser({ isAdmin: true });
    const u = await createUser({ paid: true });
    const [plan] = await purchasesOf(u.id);
    if (!plan) throw new Error("no purchase");
    const form = (amountCents: number) =>
      refundPurchase(
        db,
        adminActor(admin),
        { userId: u.id, purchaseId: plan.id, amountCents, refundedBefore: 0 },
        undefined,
      );
    const answers = await Promise.all([form(2000), form(1500)]);
    expect(answers.filter((a) => a?.ok)).toHaveLength(1);
    expect(answers.filter((a) => !a?.ok)).toEqual([
      { ok: false, error: expect.stringContaining("refunded meanwhile") },
    ]);
    const paidBack = (await refundsOf(plan.id)).reduce((n, r) => n + r.amountCents, 0);
    expect([1500, 2000]).toContain(paidBack);
  });

  it("a refund notification after a partial refund books only what was left", async () => {
    const u = await createUser({ paid: true });
    const admin = await createUser({ isAdmin: true });
    const [plan] = await purchasesOf(u.id);
    if (!plan) throw new Error("no purchase");
    const db = await getDb();
    const request = { userId: u.id, purchaseId: plan.id, amountCents: 700, refundedBefore: 0 };
    await refundPurchase(db, adminActor(admin), request, undefined);
    await revokePurchase(db, { provider: "test", providerRef: plan.providerRef });
    expect((await refundsOf(plan.id)).map((r) => r.amountCents).sort((a, b) => a - b)).toEqual([
      700, 1800,
    ]);
  });

  it("every refund row carries its purchase's buyer, product, provider and currency, however it is written", async () => {
    const u = await createUser({ paid: true });
    const admin = await createUser({ isAdmin: true });
    const [plan] = await purchasesOf(u.id);
    if (!plan) throw new Error("no purchase");
    const db = await getDb();
    // The console's row, the refund_remainder trigger's row, and one written by hand
    // naming another buyer and product: each as the purchase has them.
    await refundPurchase(
      db,
      adminActor(admin),
      { userId: u.id, purchaseId: plan.id, amountCents: 500, refundedBefore: 0 },
      undefined,
    );
    await db.execute(
      sql`insert into ${refund} (purchase_id, amount_cents, user_id, product, provider, currency)
        values (${plan.id}, 100, ${admin.id}, 'white-label', 'stripe', 'eur')`,
    );
    await revokePurchase(db, { provider: "test", providerRef: plan.providerRef });
    const rows = await db
      .select({
        amountCents: refund.amountCents,
        userId: refund.userId,
        product: refund.product,
        provider: refund.provider,
        currency: refund.currency,
      })
      .from(refund)
      .where(eq(refund.purchaseId, plan.id));
    expect(rows.map((r) => r.amountCents).sort((a, b) => a - b)).toEqual([100, 500, 1900]);
    for (const r of rows) {
      expect(r).toMatchObject({
        userId: u.id,
        product: plan.product,
        provider: plan.provider,
        currency: "usd",
      });
    }
    expect(plan).toMatchObject({ product: "lifetime-access", provider: "test" });
  });

  it("refuses a grant by hand and a marketplace sale, and says why", async () => {
    const db = await getDb();
    const admin = await createUser({ isAdmin: true });
    const u = await createUser();
    const [grant, sale] = await db
      .insert(purchase)
      .values([
        {
          userId: u.id,
          provider: "manual",
          providerRef: randomUUID(),
          product: "lifetime-access",
          amountCents: 0,
        },
        {
          userId: u.id,
          provider: "warriorplus",
          providerRef: randomUUID(),
          product: "white-label",
          amountCents: 3700,
        },
      ])
      .returning();
    const ask = (purchaseId: string) =>
      refundPurchase(
        db,
        adminActor(admin),
        { userId: u.id, purchaseId, amountCents: 100, refundedBefore: 0 },
        undefined,
      );
    expect(await ask(grant?.id ?? "")).toMatchObject({
      ok: false,
      error: expect.stringContaining("nothing to refund"),
    });
    expect(await ask(sale?.id ?? "")).toMatchObject({
      ok: false,
      error: expect.stringContaining("refund it there"),
    });
    // Another member's purchase is no purchase of this one.
    const other = await createUser({ paid: true });
    const [theirs] = await purchasesOf(other.id);
    expect(
      await refundPurchase(
        db,
        adminActor(admin),
        { userId: u.id, purchaseId: theirs?.id ?? "", amountCents: 100, refundedBefore: 0 },
        undefined,
      ),
    ).toBeNull();
  });

  it("the member's page: Refund for an admin with a recent proof; bad input is a 400; others are refused", async () => {
    const admin = await createUser({ isAdmin: true });
    const u = await createUser({ paid: true });
    const [plan] = await purchasesOf(u.id);
    const purchaseId = plan?.id ?? "";
    const page = await (
      await app.fetch(
        appRequest(`/admin/members/${u.id}?confirm=refund-${purchaseId}`, { cookie: admin.cookie }),
      )
    ).text();
    expect(page).toContain(`Refund order ${plan?.orderNumber}`);
    expect(page).toContain('value="25.00"');
    const bad = await refundForm(admin, u, { purchaseId, amount: "ten" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Enter the amount to refund in dollars");
    expect((await refundForm(admin, u, { purchaseId, amount: "0" })).status).toBe(400);
    expect((await refundForm(admin, u, { purchaseId, amount: "26" })).status).toBe(409);
    const notAdmin = await createUser({ paid: true });
    const refused = await refundForm(notAdmin, u, { purchaseId, amount: "25" });
    expect(refused.status).toBeGreaterThanOrEqual(300);
    expect(await refundsOf(purchaseId)).toEqual([]);
    const done = await refundForm(admin, u, { purchaseId, amount: "25" });
    expect(redirectTarget(done)).toBe(`/admin/members/${u.id}`);
    expect(await refundsOf(purchaseId)).toEqual([{ amountCents: 2500, providerRef: null }]);
    expect(await member(u)).toBe(false);
  });
});

describe("a refund from the console, Stripe", () => {
  /** A member who paid the plan, and the bump when `bump`, through a Stripe Checkout Session. */
  async function stripeBuyer(bump = false) {
    const { u, paymentIntent, of } = await stripePaidMember({ bump });
    return { u, paymentIntent, plan: of("lifetime-access"), bump: bump ? of("bump-vip") : null };
  }

  const deliver = (event: unknown) =>
    withEnv({ stripe: stand.config }, async () =>
      handleStripeWebhook(
        await getDb(),
        stand.config,
        webhookRequest(event, stand.config.webhookSecret),
      ),
    );

  it("refunds at Stripe once per form, with the purchase in its metadata, and records Stripe's refund id", async () => {
    const db = await getDb();
    const admin = await createUser({ isAdmin: true });
    const { u, paymentIntent, plan } = await stripeBuyer();
    const request = { userId: u.id, purchaseId: plan.id, amountCents: 1200, refundedBefore: 0 };
    const [first, second] = await Promise.all([
      refundPurchase(db, adminActor(admin), request, stand.config),
      refundPurchase(db, adminActor(admin), request, stand.config),
    ]);
    expect(first).toMatchObject({ ok: true });
    expect(second).toMatchObject({ ok: true });
    const atStripe = stand.refunds().filter((r) => r.payment_intent === paymentIntent);
    expect(atStripe).toHaveLength(1);
    expect(atStripe[0]).toMatchObject({ amount: 1200, metadata: { purchase_id: plan.id } });
    expect(await refundsOf(plan.id)).toEqual([{ amountCents: 1200, providerRef: atStripe[0]?.id }]);
    expect(await member(u)).toBe(true);
  });

  it("a refund of the plan paid with a bump closes the plan alone, also when Stripe's notification comes", async () => {
    const db = await getDb();
    const admin = await createUser({ isAdmin: true });
    const { u, paymentIntent, plan, bump } = await stripeBuyer(true);
    if (!bump) throw new Error("no bump");
    const request = {
      userId: u.id,
      purchaseId: plan.id,
      amountCents: plan.amountCents,
      refundedBefore: 0,
    };
    expect(await refundPurchase(db, adminActor(admin), request, stand.config)).toMatchObject({
      ok: true,
    });
    const charged = plan.amountCents + bump.amountCents;
    const notice = stripeEvent("charge.refunded", {
      id: randomId("ch"),
      object: "charge",
      payment_intent: paymentIntent,
      amount: charged,
      amount_refunded: plan.amountCents,
    });
    expect((await deliver(notice)).status).toBe(200);
    expect((await deliver(notice)).status).toBe(200);
    const status = Object.fromEntries((await purchasesOf(u.id)).map((p) => [p.product, p.status]));
    expect(status).toEqual({ "lifetime-access": "refunded", "bump-vip": "completed" });
    expect(await refundsOf(bump.id)).toEqual([]);
    expect(await refundsOf(plan.id)).toHaveLength(1);
  });

  it("says so when Stripe refuses, and records nothing", async () => {
    const db = await getDb();
    const admin = await createUser({ isAdmin: true });
    const { u, paymentIntent, plan } = await stripeBuyer();
    // Refunded in the Stripe dashboard already: Stripe refuses more than is left.
    stand.refundInDashboard(paymentIntent, 2000);
    const request = { userId: u.id, purchaseId: plan.id, amountCents: 1000, refundedBefore: 0 };
    expect(await refundPurchase(db, adminActor(admin), request, stand.config)).toEqual({
      ok: false,
      error: "Stripe did not make the refund: nothing was refunded. Try again.",
    });
    expect(await refundsOf(plan.id)).toEqual([]);
  });
});
