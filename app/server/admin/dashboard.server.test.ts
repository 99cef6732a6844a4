import { randomUUID } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offerDefaults } from "~/lib/offer";
import { createTestApp } from "~/test/app-handler";
import { appRequest, createUser, redirectTarget } from "~/test/helpers";
import { rowsOf } from "../db/client.server";
import { getDb } from "../db/db.server";
import { purchase, refund, user } from "../db/schema";
import { dashboardRange, readDashboard } from "./dashboard.server";
import { readFunnel } from "./funnel.server";
import { salesReport } from "./sales.server";

// May 2032: a month no other test writes to.
const may = { from: "2032-05-01", to: "2032-05-31" } as const;
const { app } = await createTestApp();
const ours: string[] = [];

/** Accounts made in May 2032 (by an earlier run on the same database, too). */
const inMay = sql`${user.createdAt} >= '2032-05-01' and ${user.createdAt} < '2032-06-01'`;

beforeAll(async () => {
  const db = await getDb();
  await db.delete(user).where(inMay);
  const [a, b, c] = [await createUser(), await createUser(), await createUser()];
  if (!a || !b || !c) throw new Error("no users");
  ours.push(a.id, b.id, c.id);
  // a and b sign up in May; c long before.
  await db
    .update(user)
    .set({ createdAt: new Date("2032-05-02T09:00:00Z") })
    .where(inArray(user.id, [a.id, b.id]));
  await db
    .update(user)
    .set({ createdAt: new Date("2031-01-01T00:00:00Z") })
    .where(eq(user.id, c.id));
  const at = (iso: string) => new Date(iso);
  const bought = await db
    .insert(purchase)
    .values([
      // a: the plan and the bump; b: the plan by Stripe, $10 of it refunded on the 4th;
      // c: access by hand (not a sale).
      {
        userId: a.id,
        provider: "test",
        providerRef: randomUUID(),
        product: "lifetime-access",
        amountCents: 2500,
        createdAt: at("2032-05-02T10:00:00Z"),
      },
      {
        userId: a.id,
        provider: "test",
        providerRef: randomUUID(),
        product: "bump-vip",
        amountCents: 495,
        createdAt: at("2032-05-02T10:00:00Z"),
      },
      {
        userId: b.id,
        provider: "stripe",
        providerRef: randomUUID(),
        product: "lifetime-access",
        amountCents: 2500,
        createdAt: at("2032-05-03T10:00:00Z"),
      },
      {
        userId: c.id,
        provider: "manual",
        providerRef: randomUUID(),
        product: "lifetime-access",
        amountCents: 0,
        createdAt: at("2032-05-05T10:00:00Z"),
      },
    ])
    .returning();
  const ofB = bought[2];
  if (!ofB) throw new Error("no purchase");
  await db.insert(refund).values({
    purchaseId: ofB.id,
    amountCents: 1000,
    createdAt: at("2032-05-04T08:00:00Z"),
    userId: ofB.userId,
    product: ofB.product,
    provider: ofB.provider,
    currency: ofB.currency,
  });
});

afterAll(async () => {
  // Their purchases and refunds go with them.
  await (await getDb()).delete(user).where(inArray(user.id, ours));
});

const range = (from: string, to: string) => ({ period: "range" as const, label: "", from, to });

describe("the launch dashboard", () => {
  it("gives the money, sign-ups and take rates of its days, as the sales report and the funnel do", async () => {
    const db = await getDb();
    const d = await readDashboard(db, range(may.from, may.to));
    expect(d).toMatchObject({
      currency: "usd",
      grossCents: 2500 + 495 + 2500,
      refundsCents: 1000,
      netCents: 2500 + 495 + 2500 - 1000,
      sales: 3,
      refunds: 1,
      manualGrants: 1,
      signUps: 2,
      payingSignUps: 2,
      freeToPaidPercent: 100,
      planPurchases: 2,
    });
    expect(d.takeRates).toEqual([
      { product: "bump-vip", label: "Order bump", count: 1, percent: 50 },
      { product: "white-label", label: "Upsell 1", count: 0, percent: 0 },
      { product: "custom-saas", label: "Upsell 2", count: 0, percent: 0 },
    ]);
    // One source per figure: the same as the sales page and the funnel for these days.
    const sales = await salesReport(db, { ...may, unit: "day" });
    expect(d.byProduct).toEqual(sales.byProduct);
    expect(sales.totals[0]).toMatchObject({ grossCents: d.grossCents, refundsCents: 1000 });
    expect((await readFunnel(db, may)).freeToPaidPercent).toBe(d.freeToPaidPercent);
    // The refund on its own day: the 3rd shows b's sale, the 4th its refund.
    expect(await readDashboard(db, range("2032-05-03", "2032-05-03"))).toMatchObject({
      grossCents: 2500,
      refundsCents: 0,
    });
    expect(await readDashboard(db, range("2032-05-04", "2032-05-04"))).toMatchObject({
      grossCents: 0,
      refundsCents: 1000,
      netCents: -1000,
    });
  });

  it("counts the members with access now by the access rule", async () => {
    const db = await getDb();
    const [counted] = await rowsOf<{ n: number }>(
      db,
      sql`select count(*)::int as n from ${user} u where u.is_admin or exists (
        select 1 from ${purchase} p where p.user_id = u.id and p.product = 'lifetime-access'
          and p.status = 'completed' and p.access_revoked_at is null
          and (not p.awaits_address_proof or u.email_verified))`,
    );
    expect((await readDashboard(db, range(may.from, may.to))).membersWithAccess).toBe(counted?.n);
  });

  it("takes today, the last 7 days, the launch week, this month or a chosen range", () => {
    const offer = {
      launchAt: offerDefaults.launchAt,
      launchTimeZone: offerDefaults.launchTimeZone,
    };
    const at = (query: Record<string, string | null>) =>
      dashboardRange(
        { period: "today", from: null, to: null, ...query } as never,
        "2032-05-20",
        offer,
      );
    expect(at({})).toMatchObject({ label: "Today", from: "2032-05-20", to: "2032-05-20" });
    expect(at({ period: "week" })).toMatchObject({ from: "2032-05-14", to: "2032-05-20" });
    // 2025-06-06 11:00 in Chicago is 16:00 UTC that day.
    expect(at({ period: "launch" })).toMatchObject({ from: "2025-06-06", to: "2025-06-12" });
    expect(at({ period: "month" })).toMatchObject({ from: "2032-05-01", to: "2032-05-20" });
    expect(at({ period: "range", from: "2032-05-10", to: "2032-05-01" })).toMatchObject({
      from: "2032-05-01",
      to: "2032-05-10",
    });
    // At most 366 days, counted back from the end (2032 is a leap year).
    expect(at({ period: "range", from: "2020-01-01", to: "2032-05-10" }).from).toBe("2031-05-11");
  });

  it("is the console's home for admins; others go to /dashboard; a bad period is today", async () => {
    const admin = await createUser({ isAdmin: true });
    const page = await app.fetch(appRequest("/admin?period=nonsense", { cookie: admin.cookie }));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Members with access");
    expect(html).toMatch(/Today(<!-- -->)?:/);
    const member = await createUser({ paid: true });
    expect(redirectTarget(await app.fetch(appRequest("/admin", { cookie: member.cookie })))).toBe(
      "/dashboard",
    );
  });
});
