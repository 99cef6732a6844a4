import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createUser } from "~/test/helpers";
import { hasPaidAccess, paidAccessSql } from "./access.server";
import { getDb } from "./db/db.server";
import type { PurchaseProvider } from "./db/schema";
import { user as userTable } from "./db/schema";
import { fulfilPurchase, revokePurchase } from "./payments/purchases.server";

async function buy(userId: string, provider: PurchaseProvider, product = "lifetime-access") {
  return fulfilPurchase(await getDb(), {
    userId,
    provider,
    providerRef: randomUUID(),
    product,
    amountCents: provider === "manual" ? 0 : 2500,
    currency: "usd",
  });
}

describe("hasPaidAccess", () => {
  it("denies a user with no purchase", async () => {
    const u = await createUser();
    expect(await hasPaidAccess(await getDb(), { id: u.id, isAdmin: false })).toBe(false);
  });

  it.each(["test", "stripe", "warriorplus", "manual"] as const)(
    "grants a completed %s purchase",
    async (provider) => {
      const u = await createUser();
      await buy(u.id, provider);
      expect(await hasPaidAccess(await getDb(), { id: u.id, isAdmin: false })).toBe(true);
    },
  );

  it("denies once the only purchase is refunded", async () => {
    const u = await createUser();
    const p = await buy(u.id, "stripe");
    await revokePurchase(await getDb(), { provider: "stripe", providerRef: p.providerRef });
    expect(await hasPaidAccess(await getDb(), { id: u.id, isAdmin: false })).toBe(false);
  });

  it("grants when one of several purchases is still completed", async () => {
    const u = await createUser();
    const refunded = await buy(u.id, "stripe");
    await buy(u.id, "manual");
    await revokePurchase(await getDb(), { provider: "stripe", providerRef: refunded.providerRef });
    expect(await hasPaidAccess(await getDb(), { id: u.id, isAdmin: false })).toBe(true);
  });

  it("denies a marketplace sale awaiting the proof of the address until the address is proved", async () => {
    const u = await createUser();
    const db = await getDb();
    await fulfilPurchase(db, {
      userId: u.id,
      provider: "warriorplus",
      providerRef: randomUUID(),
      product: "lifetime-access",
      amountCents: 1700,
      currency: "usd",
      awaitsAddressProof: true,
    });
    expect(await hasPaidAccess(db, { id: u.id, isAdmin: false })).toBe(false);
    await db.update(userTable).set({ emailVerified: true }).where(eq(userTable.id, u.id));
    expect(await hasPaidAccess(db, { id: u.id, isAdmin: false })).toBe(true);
  });

  it("grants an admin without any purchase", async () => {
    const u = await createUser({ isAdmin: true });
    expect(await hasPaidAccess(await getDb(), { id: u.id, isAdmin: true })).toBe(true);
  });

  it("does not count another user's purchase", async () => {
    const buyer = await createUser({ paid: true });
    const other = await createUser();
    expect(await hasPaidAccess(await getDb(), { id: buyer.id, isAdmin: false })).toBe(true);
    expect(await hasPaidAccess(await getDb(), { id: other.id, isAdmin: false })).toBe(false);
  });

  it.each(["bump-vip", "white-label", "custom-saas"])(
    "denies a user whose only purchase is the add-on %s",
    async (product) => {
      const u = await createUser();
      await buy(u.id, "warriorplus", product);
      expect(await hasPaidAccess(await getDb(), { id: u.id, isAdmin: false })).toBe(false);
      await buy(u.id, "warriorplus", "lifetime-access");
      expect(await hasPaidAccess(await getDb(), { id: u.id, isAdmin: false })).toBe(true);
    },
  );
});

describe("paidAccessSql agrees with hasPaidAccess", () => {
  it("for no purchase, an add-on only, the plan, a refunded plan, an admin, and a sale awaiting the address's proof before and after it", async () => {
    const db = await getDb();
    const none = await createUser();
    const addOn = await createUser();
    await buy(addOn.id, "warriorplus", "bump-vip");
    const plan = await createUser();
    await buy(plan.id, "warriorplus");
    const refunded = await createUser();
    const p = await buy(refunded.id, "stripe");
    await revokePurchase(db, { provider: "stripe", providerRef: p.providerRef });
    const admin = await createUser({ isAdmin: true });
    const unproved = await createUser();
    await fulfilPurchase(db, {
      userId: unproved.id,
      provider: "warriorplus",
      providerRef: randomUUID(),
      product: "lifetime-access",
      amountCents: 1700,
      currency: "usd",
      awaitsAddressProof: true,
    });
    const proved = await createUser();
    await fulfilPurchase(db, {
      userId: proved.id,
      provider: "warriorplus",
      providerRef: randomUUID(),
      product: "lifetime-access",
      amountCents: 1700,
      currency: "usd",
      awaitsAddressProof: true,
    });
    await db.update(userTable).set({ emailVerified: true }).where(eq(userTable.id, proved.id));
    for (const u of [none, addOn, plan, refunded, admin, unproved, proved]) {
      const [row] = await db
        .select({ isAdmin: userTable.isAdmin, member: paidAccessSql(userTable) })
        .from(userTable)
        .where(eq(userTable.id, u.id));
      const expected = await hasPaidAccess(db, { id: u.id, isAdmin: row?.isAdmin === true });
      expect(row?.member, u.email).toBe(expected);
    }
  });
});
