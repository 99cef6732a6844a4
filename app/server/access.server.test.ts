import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createUser } from "~/test/helpers";
import { hasPaidAccess, type MemberAccess, paidAccessSql } from "./access.server";
import { adminActor } from "./admin/audit.server";
import { applyMemberAction } from "./admin/member-actions.server";
import { findMember, listMembers } from "./admin/members.server";
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

/** A marketplace sale credited to an account that has not proved its address yet. */
async function sellAwaitingProof(userId: string) {
  return fulfilPurchase(await getDb(), {
    userId,
    provider: "warriorplus",
    providerRef: randomUUID(),
    product: "lifetime-access",
    amountCents: 1700,
    currency: "usd",
    awaitsAddressProof: true,
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
    await sellAwaitingProof(u.id);
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

describe("the access rule is one rule", () => {
  it("the guard's check, the session's SQL and the members table and its filters agree for every kind of member", async () => {
    const db = await getDb();
    const tag = randomUUID().slice(0, 8);
    const named = (kind: string) => createUser({ name: `${kind} ${tag}` });
    const admin = await createUser({ isAdmin: true, name: `admin ${tag}` });
    const paid = await named("paid");
    await buy(paid.id, "stripe");
    const refunded = await named("refunded");
    const p = await buy(refunded.id, "stripe");
    await revokePurchase(db, { provider: "stripe", providerRef: p.providerRef });
    const addOnOnly = await named("add-on");
    await buy(addOnOnly.id, "warriorplus", "bump-vip");
    const marketplaceSale = await named("marketplace");
    await buy(marketplaceSale.id, "warriorplus");
    const unproved = await named("unproved");
    await sellAwaitingProof(unproved.id);
    const proved = await named("proved");
    await sellAwaitingProof(proved.id);
    await db.update(userTable).set({ emailVerified: true }).where(eq(userTable.id, proved.id));
    const manual = await named("manual");
    await applyMemberAction(db, adminActor(admin), manual.id, "grant");
    const nobody = await named("nobody");

    const expected = {
      [admin.id]: "admin",
      [paid.id]: "member",
      [refunded.id]: "refunded",
      [addOnOnly.id]: "none",
      [marketplaceSale.id]: "member",
      [unproved.id]: "none",
      [proved.id]: "member",
      [manual.id]: "member",
      [nobody.id]: "none",
    } satisfies Record<string, MemberAccess>;

    const { rows } = await listMembers(db, { q: tag, access: "all", page: 1 });
    expect(rows).toHaveLength(Object.keys(expected).length);
    const filtered = Object.fromEntries(
      await Promise.all(
        (["admin", "member", "refunded", "none"] as const).map(async (access) => [
          access,
          (await listMembers(db, { q: tag, access, page: 1 })).rows.map((r) => r.id),
        ]),
      ),
    ) as Record<MemberAccess, string[]>;
    for (const row of rows) {
      const [account] = await db
        .select({ isAdmin: userTable.isAdmin, sqlSays: paidAccessSql(userTable) })
        .from(userTable)
        .where(eq(userTable.id, row.id));
      const guardSays = await hasPaidAccess(db, { id: row.id, isAdmin: account?.isAdmin === true });
      const label = `${row.name}: ${row.access}`;
      expect(row.access, label).toBe(expected[row.id]);
      expect(guardSays, label).toBe(row.access === "admin" || row.access === "member");
      expect(account?.sqlSays, label).toBe(guardSays);
      expect((await findMember(db, row.id))?.access, label).toBe(row.access);
      for (const [access, ids] of Object.entries(filtered)) {
        expect(ids.includes(row.id), `${label} in the ${access} filter`).toBe(
          row.access === access,
        );
      }
    }
  });
});
