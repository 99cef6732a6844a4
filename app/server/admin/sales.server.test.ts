import { randomUUID } from "node:crypto";
import { eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { salesQuerySchema, salesRange } from "~/lib/admin-forms";
import { createUser } from "~/test/helpers";
import { getDb } from "../db/db.server";
import { purchase, refund, salesDay } from "../db/schema";
import { bucketStarts, type LedgerEntry, salesLedger, salesReport } from "./sales.server";

// Purchases of March 2031, a month no other test writes to; removed before and after.
const refPrefix = "sales-report-test-";
const march = { from: "2031-03-01", to: "2031-03-31" } as const;

async function removeOurs() {
  await (await getDb()).delete(purchase).where(like(purchase.providerRef, `${refPrefix}%`));
}

let buyer: { id: string; email: string };

beforeAll(async () => {
  await removeOurs();
  buyer = await createUser({ name: "Sales Buyer" });
  const at = (iso: string) => new Date(iso);
  const rows = [
    // Before and after the month: never counted.
    ["e", "test", "lifetime-access", 2500, "usd", "2031-02-28T23:59:59.999Z"],
    ["f", "test", "lifetime-access", 2500, "usd", "2031-04-01T00:00:00.000Z"],
    // The month: four sales in dollars (two refunded, below), one in euros, one manual grant.
    ["a", "test", "lifetime-access", 2500, "usd", "2031-03-03T10:00:00.000Z"],
    ["b", "stripe", "lifetime-access", 2500, "usd", "2031-03-03T23:59:59.999Z"],
    ["c", "warriorplus", "white-label", 3700, "usd", "2031-03-10T00:00:00.000Z"],
    ["m", "manual", "lifetime-access", 0, "usd", "2031-03-15T12:00:00.000Z"],
    ["g", "stripe", "custom-saas", 1000, "eur", "2031-03-20T12:00:00.000Z"],
    ["d", "warriorplus", "bump-vip", 495, "usd", "2031-03-31T23:59:59.000Z"],
  ] as const;
  /** When each refunded sale was refunded: b after the month, d at its very end. */
  const refunds: Record<string, string> = { b: "2031-04-10T08:00:00Z", d: "2031-03-31T23:59:59Z" };
  await (await getDb()).insert(purchase).values(
    rows.map(([ref, provider, product, amountCents, currency, createdAt]) => {
      const refundedAt = refunds[ref];
      return {
        userId: buyer.id,
        provider,
        providerRef: `${refPrefix}${ref}-${randomUUID()}`,
        product,
        amountCents,
        currency,
        status: refundedAt ? ("refunded" as const) : ("completed" as const),
        createdAt: at(createdAt),
        refundedAt: refundedAt ? at(refundedAt) : null,
      };
    }),
  );
});

afterAll(removeOurs);

describe("the sales figures", () => {
  it("counts gross, refunds, net, sales and refund rate per currency; manual grants apart", async () => {
    const report = await salesReport(await getDb(), { ...march, unit: "day" });
    expect(report.totals).toEqual([
      {
        currency: "usd",
        sales: 4,
        grossCents: 2500 + 2500 + 3700 + 495,
        // Refunds made in March: d's. b's sale is March's, its refund April's.
        refunds: 1,
        refundsCents: 495,
        netCents: 9195 - 495,
        // Of March's sales, two were refunded since.
        refunded: 2,
        refundRate: 0.5,
      },
      {
        currency: "eur",
        sales: 1,
        grossCents: 1000,
        refunds: 0,
        refundsCents: 0,
        netCents: 1000,
        refunded: 0,
        refundRate: 0,
      },
    ]);
    expect(report.manualGrants).toBe(1);
    expect(report.chartCurrency).toBe("usd");
  });

  it("splits by product and by provider, largest gross first", async () => {
    const report = await salesReport(await getDb(), { ...march, unit: "day" });
    const brief = (g: {
      key: string;
      currency: string;
      sales: number;
      refunded: number;
      grossCents: number;
      refundsCents: number;
    }) => [g.key, g.currency, g.sales, g.refunded, g.grossCents, g.refundsCents];
    expect(report.byProduct.map(brief)).toEqual([
      ["lifetime-access", "usd", 2, 1, 5000, 0],
      ["white-label", "usd", 1, 0, 3700, 0],
      ["custom-saas", "eur", 1, 0, 1000, 0],
      ["bump-vip", "usd", 1, 1, 495, 495],
    ]);
    expect(report.byProvider.map(brief)).toEqual([
      ["warriorplus", "usd", 2, 1, 4195, 495],
      ["stripe", "usd", 1, 1, 2500, 0],
      ["test", "usd", 1, 0, 2500, 0],
      ["stripe", "eur", 1, 0, 1000, 0],
    ]);
  });

  it("gives revenue per day, week and month, empty buckets included", async () => {
    const db = await getDb();
    const days = (await salesReport(db, { ...march, unit: "day" })).series;
    expect(days).toHaveLength(31);
    expect(days.filter((d) => d.sales > 0)).toEqual([
      {
        start: "2031-03-03",
        grossCents: 5000,
        refundsCents: 0,
        netCents: 5000,
        sales: 2,
        refunds: 0,
      },
      {
        start: "2031-03-10",
        grossCents: 3700,
        refundsCents: 0,
        netCents: 3700,
        sales: 1,
        refunds: 0,
      },
      {
        start: "2031-03-31",
        grossCents: 495,
        refundsCents: 495,
        netCents: 0,
        sales: 1,
        refunds: 1,
      },
    ]);
    const weeks = (await salesReport(db, { ...march, unit: "week" })).series;
    expect(weeks.map((w) => [w.start, w.grossCents, w.netCents])).toEqual([
      ["2031-02-24", 0, 0],
      ["2031-03-03", 5000, 5000],
      ["2031-03-10", 3700, 3700],
      ["2031-03-17", 0, 0],
      ["2031-03-24", 0, 0],
      ["2031-03-31", 495, 0],
    ]);
    const months = (await salesReport(db, { from: "2031-02-01", to: "2031-04-30", unit: "month" }))
      .series;
    expect(months.map((m) => [m.start, m.grossCents, m.refundsCents, m.sales])).toEqual([
      ["2031-02-01", 2500, 0, 1],
      ["2031-03-01", 9195, 495, 4],
      // b's refund, on its day in April.
      ["2031-04-01", 2500, 2500, 1],
    ]);
  });

  it("counts a refund on the day it is made: an earlier range's figures stay as they were", async () => {
    const db = await getDb();
    // April: no sale of March, but b's refund on 10 April; the CSV lists b for it.
    const april = { from: "2031-04-01", to: "2031-04-30", unit: "day" } as const;
    const report = await salesReport(db, april);
    expect(report.totals).toEqual([
      {
        currency: "usd",
        sales: 1,
        grossCents: 2500,
        refunds: 1,
        refundsCents: 2500,
        netCents: 0,
        refunded: 0,
        refundRate: 0,
      },
    ]);
    expect(report.series.find((d) => d.start === "2031-04-10")).toEqual({
      start: "2031-04-10",
      grossCents: 0,
      refundsCents: 2500,
      netCents: -2500,
      sales: 0,
      refunds: 1,
    });
    expect(report.byProduct.map((g) => [g.key, g.sales, g.refunds, g.refundsCents])).toEqual([
      ["lifetime-access", 1, 1, 2500],
    ]);
    const rows: LedgerEntry[] = [];
    for await (const batch of salesLedger(db, april)) rows.push(...batch);
    // The CSV's lines add up to the report's figures.
    const sum = (entry: LedgerEntry["entry"]) =>
      rows.filter((r) => r.entry === entry).reduce((n, r) => n + r.amountCents, 0);
    expect(sum("sale")).toBe(report.totals[0]?.grossCents);
    expect(-sum("refund")).toBe(report.totals[0]?.refundsCents);
    // b's refund names its sale's day in March.
    const refundOfB = rows.find((r) => r.entry === "refund");
    expect(refundOfB?.soldAt.toISOString()).toBe("2031-03-03T23:59:59.999Z");
    expect(refundOfB?.at.toISOString()).toBe("2031-04-10T08:00:00.000Z");
  });

  it("includes both ends of the range to the last millisecond of the UTC day", async () => {
    const db = await getDb();
    const day = await salesReport(db, { from: "2031-03-03", to: "2031-03-03", unit: "day" });
    expect(day.totals).toMatchObject([{ currency: "usd", sales: 2, grossCents: 5000 }]);
    const empty = await salesReport(db, { from: "2031-03-04", to: "2031-03-09", unit: "day" });
    expect(empty.totals).toEqual([]);
    expect(empty.series).toHaveLength(6);
    expect(empty.byProduct).toEqual([]);
  });

  it("lists the range's sales, grants and refunds for the CSV, across batches", async () => {
    const batches: LedgerEntry[][] = [];
    for await (const rows of salesLedger(await getDb(), { ...march, unit: "day" }, 2)) {
      batches.push(rows);
    }
    expect(batches.map((b) => b.length)).toEqual([2, 2, 2, 1]);
    const rows = batches.flat();
    expect(
      rows.map((r) => [
        r.entry,
        r.provider,
        r.product,
        r.offer,
        r.amountCents,
        r.currency,
        r.status,
      ]),
    ).toEqual([
      ["sale", "test", "lifetime-access", "front end", 2500, "usd", "completed"],
      ["sale", "stripe", "lifetime-access", "front end", 2500, "usd", "refunded"],
      ["sale", "warriorplus", "white-label", "upsell 1", 3700, "usd", "completed"],
      ["grant", "manual", "lifetime-access", "front end", 0, "usd", "completed"],
      ["sale", "stripe", "custom-saas", "upsell 2", 1000, "eur", "completed"],
      // d, sold and refunded on the last day of the month.
      ["sale", "warriorplus", "bump-vip", "bump", 495, "usd", "refunded"],
      ["refund", "warriorplus", "bump-vip", "bump", -495, "usd", "refunded"],
    ]);
    expect(rows.every((r) => r.email === buyer.email)).toBe(true);
    // One line a batch, or all at once: the same lines in the same order.
    const lines = async (batch: number) => {
      const all: string[] = [];
      for await (const b of salesLedger(await getDb(), { ...march, unit: "day" }, batch)) {
        all.push(...b.map((r) => `${r.entry} ${r.purchaseId} ${r.at.toISOString()}`));
      }
      return all;
    };
    expect(await lines(1)).toEqual(await lines(1000));
    expect(await lines(1)).toHaveLength(7);
    expect(rows.every((r) => r.coupon === null && r.feeCents === null)).toBe(true);
    expect(rows.every((r) => r.providerRef.startsWith(refPrefix))).toBe(true);
    expect(rows.every((r) => /^AIL-/.test(r.orderNumber))).toBe(true);
    expect(rows[1]?.at.toISOString()).toBe("2031-03-03T23:59:59.999Z");
    expect(rows[6]?.purchaseId).toBe(rows[5]?.purchaseId);
  });
});

describe("the day figures kept by the database", () => {
  /** sales_day's rows (zeros left out) that a recount of every purchase and refund does not give, and the reverse. */
  async function mismatches() {
    const db = await getDb();
    const rows = await db.execute(sql`
      with kept as (
        select day, product, provider, currency, purchases, refunded, gross_cents, refunds, refunds_cents
        from ${salesDay}
        where purchases <> 0 or refunded <> 0 or gross_cents <> 0 or refunds <> 0 or refunds_cents <> 0
      ), counted as (
        select day, product, provider, currency, sum(purchases) as purchases, sum(refunded) as refunded,
          sum(gross_cents) as gross_cents, sum(refunds) as refunds, sum(refunds_cents) as refunds_cents
        from (
          select created_day as day, product, provider, currency, count(*) as purchases,
            count(*) filter (where status = 'refunded') as refunded,
            sum(amount_cents) as gross_cents, 0 as refunds, 0 as refunds_cents
          from ${purchase} group by 1, 2, 3, 4
          union all
          select created_day, product, provider, currency, 0, 0, 0, count(*), sum(amount_cents)
          from ${refund} group by 1, 2, 3, 4
        ) d group by 1, 2, 3, 4
      )
      select count(*) as n from (
        (select * from kept except select * from counted)
        union all
        (select * from counted except select * from kept)
      ) x`);
    return Number((rows as unknown as { rows: { n: unknown }[] }).rows[0]?.n);
  }

  it("equal a recount after sales, refunds in part and in full, corrections and deletions by hand", async () => {
    const db = await getDb();
    const member = await createUser({ name: "Day Figures" });
    const ref = () => `${refPrefix}day-${randomUUID()}`;
    const made = await db
      .insert(purchase)
      .values([
        {
          userId: member.id,
          provider: "stripe",
          providerRef: ref(),
          product: "lifetime-access",
          amountCents: 2500,
          createdAt: new Date("2031-05-02T10:00:00Z"),
        },
        {
          userId: member.id,
          provider: "stripe",
          providerRef: ref(),
          product: "bump-vip",
          amountCents: 495,
          createdAt: new Date("2031-05-02T10:00:01Z"),
        },
        {
          userId: member.id,
          provider: "warriorplus",
          providerRef: ref(),
          product: "white-label",
          amountCents: 3700,
          createdAt: new Date("2031-05-03T23:59:59Z"),
        },
        {
          userId: member.id,
          provider: "manual",
          providerRef: ref(),
          product: "lifetime-access",
          amountCents: 0,
          createdAt: new Date("2031-05-04T00:00:00Z"),
        },
      ])
      .returning();
    const [plan, bump, label] = made as [(typeof made)[0], (typeof made)[0], (typeof made)[0]];
    expect(await mismatches()).toBe(0);
    // A partial refund, then the rest when the purchase is marked refunded (the database adds it).
    await db.execute(
      sql`insert into ${refund} (purchase_id, amount_cents, created_at) values (${plan.id}, 1000, ${"2031-05-10T09:00:00Z"})`,
    );
    await db
      .update(purchase)
      .set({ status: "refunded", refundedAt: new Date("2031-05-11T09:00:00Z") })
      .where(eq(purchase.id, plan.id));
    expect(await mismatches()).toBe(0);
    const report = await salesReport(db, { from: "2031-05-01", to: "2031-05-31", unit: "day" });
    expect(report.totals).toEqual([
      expect.objectContaining({
        currency: "usd",
        sales: 3,
        grossCents: 2500 + 495 + 3700,
        refunds: 2,
        refundsCents: 2500,
      }),
    ]);
    expect(report.manualGrants).toBe(1);
    // Corrected by hand: another amount and day; a refund taken back; a sale deleted with its refunds.
    await db
      .update(purchase)
      .set({ amountCents: 3500, createdAt: new Date("2031-05-05T12:00:00Z") })
      .where(eq(purchase.id, label.id));
    await db.execute(
      sql`insert into ${refund} (purchase_id, amount_cents) values (${bump.id}, 495)`,
    );
    await db.delete(refund).where(eq(refund.purchaseId, bump.id));
    await db.delete(purchase).where(eq(purchase.id, plan.id));
    expect(await mismatches()).toBe(0);
    const after = await salesReport(db, { from: "2031-05-01", to: "2031-05-31", unit: "day" });
    expect(after.totals).toEqual([
      expect.objectContaining({
        currency: "usd",
        sales: 2,
        grossCents: 495 + 3500,
        refunds: 0,
        refundsCents: 0,
      }),
    ]);
    expect(after.series.find((b) => b.start === "2031-05-05")?.grossCents).toBe(3500);
    expect(after.series.find((b) => b.start === "2031-05-03")?.grossCents).toBe(0);
  });
});

describe("the sales range in the query string", () => {
  const now = new Date("2026-11-24T21:00:00Z");
  const range = (query: string) =>
    salesRange(salesQuerySchema.parse(Object.fromEntries(new URLSearchParams(query))), now);

  it("defaults to this month, by day", () => {
    expect(range("")).toEqual({ from: "2026-11-01", to: "2026-11-30", unit: "day" });
  });

  it("takes from, to and unit, and falls back on anything malformed or reversed", () => {
    expect(range("from=2031-03-01&to=2031-03-31&unit=week")).toEqual({
      from: "2031-03-01",
      to: "2031-03-31",
      unit: "week",
    });
    expect(range("from=2026-10-05")).toEqual({ from: "2026-10-05", to: "2026-11-24", unit: "day" });
    const thisMonth = { from: "2026-11-01", to: "2026-11-30", unit: "day" };
    expect(range("from=2031-02-30&to=nope&unit=year")).toEqual(thisMonth);
    expect(range("from=2026-12-01&to=2026-01-01")).toEqual(thisMonth);
    expect(range("from=1900-01-01&to=2026-01-01")).toEqual(thisMonth);
    expect(range("from[]=x&to=2026-11-10")).toEqual({ ...thisMonth, to: "2026-11-10" });
  });

  it("shows days up to three months, weeks up to two years, months beyond, unless told", () => {
    expect(range("from=2026-01-01&to=2026-04-03").unit).toBe("day");
    expect(range("from=2026-01-01&to=2026-04-04").unit).toBe("week");
    expect(range("from=2025-01-01&to=2026-12-31").unit).toBe("week");
    expect(range("from=2024-01-01&to=2026-12-31").unit).toBe("month");
    expect(range("from=2024-01-01&to=2026-12-31&unit=day").unit).toBe("day");
  });

  it("buckets start on Mondays and first days of months", () => {
    expect(bucketStarts({ from: "2026-11-24", to: "2026-12-08", unit: "week" })).toEqual([
      "2026-11-23",
      "2026-11-30",
      "2026-12-07",
    ]);
    expect(bucketStarts({ from: "2026-01-31", to: "2026-03-01", unit: "month" })).toEqual([
      "2026-01-01",
      "2026-02-01",
      "2026-03-01",
    ]);
  });
});
