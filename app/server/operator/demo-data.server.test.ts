import { and, eq, like, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../db/db.server";
import { purchase, user } from "../db/schema";
import { cli } from "./fixtures";

describe("demo data", () => {
  it("is refused without --throwaway or with bad counts", async () => {
    for (const args of [
      ["demo", "data"],
      ["demo", "data", "30"],
      ["demo", "data", "--throwaway", "0"],
      ["demo", "data", "--throwaway", "10", "x"],
      ["demo", "data", "--throwaway", "1", "2", "3"],
    ]) {
      expect((await cli(...args)).code, args.join(" ")).toBe(2);
    }
  });

  it("adds members with one plan purchase each plus add-ons, and again adds nothing", async () => {
    const first = await cli("demo", "data", "--throwaway", "30", "70");
    expect(first).toMatchObject({ code: 0, out: "Added 30 demo members and 70 purchases." });
    const db = await getDb();
    const [members] = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(user)
      .where(like(user.email, "demo-%@demo.invalid"));
    expect(members?.n).toBe(30);
    const plans = await db
      .select({ n: sql<number>`count(distinct ${purchase.userId})`.mapWith(Number) })
      .from(purchase)
      .where(and(like(purchase.providerRef, "demo-%"), eq(purchase.product, "lifetime-access")));
    expect(plans[0]?.n).toBe(30);
    const refunded = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(purchase)
      .where(and(like(purchase.providerRef, "demo-%"), eq(purchase.status, "refunded")));
    // Every 12th of 70: 12, 24, 36, 48, 60.
    expect(refunded[0]?.n).toBe(5);
    const again = await cli("demo", "data", "--throwaway", "30", "70");
    expect(again.out).toBe("Added 0 demo members and 0 purchases.");
  });
});
