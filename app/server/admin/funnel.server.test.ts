import { randomUUID } from "node:crypto";
import { inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { funnelQuerySchema } from "~/lib/admin-forms";
import { createUser } from "~/test/helpers";
import { getDb } from "../db/db.server";
import { pageView, purchase, user } from "../db/schema";
import { funnelRange, readFunnel } from "./funnel.server";

const dayMs = 86_400_000;
const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * dayMs).toISOString().slice(0, 10);

describe("the funnel's date range", () => {
  it("defaults to the last 30 days, swaps reversed ends and keeps at most 366 days", () => {
    const none = funnelQuerySchema.parse({});
    expect(funnelRange(none, "2032-03-31")).toEqual({ from: "2032-03-02", to: "2032-03-31" });
    const bad = funnelQuerySchema.parse({ from: "yesterday", to: "2032-13-40" });
    expect(bad).toEqual({ from: null, to: null });
    expect(funnelRange({ from: "2032-02-10", to: null }, "2032-03-31")).toEqual({
      from: "2032-02-10",
      to: "2032-03-31",
    });
    expect(funnelRange({ from: null, to: "2032-01-30" }, "2032-03-31")).toEqual({
      from: "2032-01-01",
      to: "2032-01-30",
    });
    expect(funnelRange({ from: "2032-03-05", to: "2032-03-01" }, "2032-03-31")).toEqual({
      from: "2032-03-01",
      to: "2032-03-05",
    });
    expect(funnelRange({ from: "2030-01-01", to: "2032-12-31" }, "2032-03-31")).toEqual({
      from: "2032-01-01",
      to: "2032-12-31",
    });
  });
});

describe("the funnel's figures", () => {
  it("counts views, sign-ups, plan purchases and conversions per day against hand-computed figures", async () => {
    const db = await getDb();
    // Three days of this run's own, far away: the tables are shared with other tests and runs.
    const day0 = new Date(Date.UTC(2032, 0, 1) + Math.floor(Math.random() * 100_000) * dayMs)
      .toISOString()
      .slice(0, 10);
    const day1 = addDays(day0, 1);
    const day2 = addDays(day0, 2);
    const day3 = addDays(day0, 3);

    // Sign-ups: two on day 0, one at the last second of day 2, one just after the range.
    const ann = await createUser();
    const bob = await createUser();
    const cy = await createUser();
    const dee = await createUser();
    const created: [string, string][] = [
      [ann.id, `${day0}T09:00:00Z`],
      [bob.id, `${day0}T23:00:00Z`],
      [cy.id, `${day2}T23:59:59Z`],
      [dee.id, `${day3}T00:00:00Z`],
    ];
    for (const [id, at] of created) {
      await db
        .update(user)
        .set({ createdAt: new Date(at) })
        .where(inArray(user.id, [id]));
    }
    const bought = (userId: string, at: string, extra: Partial<typeof purchase.$inferInsert>) => ({
      userId,
      provider: "test" as const,
      providerRef: randomUUID(),
      product: "lifetime-access",
      amountCents: 1700,
      createdAt: new Date(at),
      ...extra,
    });
    await db.insert(purchase).values([
      // Ann pays on day 1: a purchase, and a paying sign-up.
      bought(ann.id, `${day1}T12:00:00Z`, {}),
      // Add-ons are not the plan: Ann takes the bump and upsell 1; Dee's upsell 2 is after the range.
      bought(ann.id, `${day1}T12:00:00Z`, { product: "bump-vip", amountCents: 495 }),
      bought(ann.id, `${day1}T12:05:00Z`, { product: "white-label" }),
      bought(dee.id, `${day3}T08:05:00Z`, { product: "custom-saas" }),
      // Cy's purchase was refunded: neither a purchase nor paying.
      bought(cy.id, `${day2}T23:59:59Z`, { status: "refunded" }),
      // Dee pays after the range.
      bought(dee.id, `${day3}T08:00:00Z`, {}),
      // Bob is given access by the seller: a grant, neither a purchase nor paying.
      bought(bob.id, `${day1}T15:00:00Z`, { provider: "manual", amountCents: 0 }),
    ]);

    await db.insert(pageView).values([
      { day: day0, path: "/", views: 10 },
      { day: day0, path: "/ailabs-offer", views: 4 },
      { day: day0, path: "/privacy-policy", views: 99 }, // not a funnel page
      { day: day1, path: "/ailabs-offer2", views: 2 },
      { day: day1, path: "/payment-options", views: 3 },
      { day: day1, path: "/checkout", views: 2 },
      { day: day2, path: "/success", views: 1 },
      { day: day2, path: "/white-label-upsell", views: 1 },
      { day: day3, path: "/", views: 50 }, // after the range
    ]);

    const funnel = await readFunnel(db, { from: day0, to: day2 });
    expect(funnel.pages).toEqual({
      "/": 10,
      "/ailabs-offer": 4,
      "/ailabs-offer2": 2,
      "/white-label-upsell": 1,
      "/custom-saas-upsell": 0,
      "/payment-options": 3,
      "/checkout": 2,
      "/success": 1,
    });
    expect(funnel).toMatchObject({
      visits: 16,
      signUps: 3,
      payingSignUps: 1,
      purchases: 1,
      grants: 1,
    });
    expect(funnel.freeToPaidPercent).toBeCloseTo(100 / 3, 6);
    expect(funnel.steps.map((s) => [s.key, s.count])).toEqual([
      ["landing", 10],
      ["sales", 6],
      ["sign-ups", 3],
      ["plan", 3],
      ["checkout", 2],
      ["purchases", 1],
      ["bump", 1],
      ["upsell-1", 1],
      ["upsell-2", 0],
      ["success", 1],
      ["upsells", 1],
    ]);
    // Each rate is of the step before, an add-on's (and the success page's) of the purchases.
    expect(funnel.steps.map((s) => s.of)).toEqual([
      null,
      "landing",
      "sales",
      "sign-ups",
      "plan",
      "checkout",
      "purchases",
      "purchases",
      "purchases",
      "purchases",
      "success",
    ]);
    const conversions = funnel.steps.map((s) => s.conversionPercent);
    expect(conversions[0]).toBeNull();
    expect(conversions.slice(1).map((c) => Number(c?.toFixed(2)))).toEqual([
      60, 50, 100, 66.67, 50, 100, 100, 0, 100, 100,
    ]);
    expect(funnel.days).toEqual([
      { day: day0, views: 14, signUps: 2, purchases: 0 },
      { day: day1, views: 7, signUps: 0, purchases: 1 },
      { day: day2, views: 2, signUps: 1, purchases: 0 },
    ]);

    // A range with nothing in it: zeros, and no rate rather than a division by zero.
    const empty = await readFunnel(db, { from: addDays(day0, -10), to: addDays(day0, -9) });
    expect(empty).toMatchObject({ visits: 0, signUps: 0, purchases: 0, freeToPaidPercent: null });
    expect(empty.steps[1]?.conversionPercent).toBeNull();
    expect(empty.days).toHaveLength(2);
  });
});
