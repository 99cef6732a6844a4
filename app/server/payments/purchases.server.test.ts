import { randomUUID } from "node:crypto";
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createUser } from "~/test/helpers";
import { hasPaidAccess } from "../access.server";
import { rowsOf } from "../db/client.server";
import { getDb } from "../db/db.server";
import { emailOutbox, purchase } from "../db/schema";
import {
  fulfilPurchase,
  type PurchaseInput,
  PurchaseOwnerMismatchError,
  revokePurchase,
  revokeUserAccess,
} from "./purchases.server";

async function purchasesOf(providerRef: string) {
  const db = await getDb();
  return db
    .select()
    .from(purchase)
    .where(and(eq(purchase.provider, "stripe"), eq(purchase.providerRef, providerRef)));
}

function input(userId: string): PurchaseInput {
  return {
    userId,
    provider: "stripe",
    providerRef: `cs_${randomUUID()}`,
    product: "lifetime-access",
    amountCents: 2500,
    currency: "usd",
  };
}

describe("fulfilPurchase", () => {
  it("applied twice for the same provider reference gives one purchase", async () => {
    const u = await createUser();
    const db = await getDb();
    const payment = input(u.id);
    const first = await fulfilPurchase(db, payment);
    const second = await fulfilPurchase(db, payment);
    expect(second.id).toBe(first.id);
    const rows = await purchasesOf(payment.providerRef);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.status).toBe("completed");
  });

  it("applied ten times in parallel gives one purchase", async () => {
    const u = await createUser();
    const db = await getDb();
    const payment = input(u.id);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => fulfilPurchase(db, payment)),
    );
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(await purchasesOf(payment.providerRef)).toHaveLength(1);
  });

  it("does not re-grant a refunded purchase when the payment arrives again", async () => {
    const u = await createUser();
    const db = await getDb();
    const payment = input(u.id);
    await fulfilPurchase(db, payment);
    await revokePurchase(db, { provider: "stripe", providerRef: payment.providerRef });
    const again = await fulfilPurchase(db, payment);
    expect(again.status).toBe("refunded");
    expect(again.refundedAt).toBeInstanceOf(Date);
  });

  it("refuses a payment already recorded for another user", async () => {
    const owner = await createUser();
    const other = await createUser();
    const db = await getDb();
    const payment = input(owner.id);
    await fulfilPurchase(db, payment);
    await expect(fulfilPurchase(db, { ...payment, userId: other.id })).rejects.toBeInstanceOf(
      PurchaseOwnerMismatchError,
    );
    const rows = await purchasesOf(payment.providerRef);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.userId).toBe(owner.id);
  });

  it("keeps the same reference of different providers apart", async () => {
    const u = await createUser();
    const db = await getDb();
    const payment = input(u.id);
    const a = await fulfilPurchase(db, payment);
    const b = await fulfilPurchase(db, { ...payment, provider: "warriorplus" });
    expect(a.id).not.toBe(b.id);
  });
});

describe("order numbers", () => {
  it("are AIL- and five readable characters, none repeated across many purchases", async () => {
    const db = await getDb();
    const rows = await rowsOf(
      db,
      sql`select count(*)::int as numbers, count(distinct code)::int as distinct,
              count(*) filter (where code !~ '^AIL-[0-9A-HJKMNP-TV-Z]{5}$')::int as bad
          from (select purchase_order_number(n) as code from generate_series(1, 20000) as n) as codes`,
    );
    expect(rows[0]).toEqual({ numbers: 20000, distinct: 20000, bad: 0 });
  });
});

describe("the purchase receipt", () => {
  /** The transactional messages to an address (a plan's purchase also queues the welcome sequence). */
  async function receiptsTo(email: string) {
    const db = await getDb();
    return db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, email), isNull(emailOutbox.broadcastId)));
  }

  it("is enqueued once for a new purchase, not for duplicates, however concurrent", async () => {
    const u = await createUser({ name: "Receipt Reader" });
    const db = await getDb();
    const payment = input(u.id);
    const [first] = await Promise.all(Array.from({ length: 5 }, () => fulfilPurchase(db, payment)));
    await fulfilPurchase(db, payment);
    const receipts = await receiptsTo(u.email);
    expect(receipts).toHaveLength(1);
    // The welcome sequence starts once too: a row per step.
    const welcome = await db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.userId, u.id), isNotNull(emailOutbox.broadcastId)));
    expect(welcome).toHaveLength(4);
    expect(receipts[0]?.subject).toBe("Your AI Labs receipt");
    expect(receipts[0]?.text).toContain("Hi Receipt Reader,");
    expect(first?.orderNumber).toMatch(/^AIL-[0-9A-HJKMNP-TV-Z]{5}$/);
    expect(receipts[0]?.text).toContain(`Order number: ${first?.orderNumber}`);
    expect(receipts[0]?.text).toContain(`Payment reference: ${payment.providerRef}`);
    expect(receipts[0]?.text).toContain(
      `http://localhost:3000/account/receipts/${first?.orderNumber}`,
    );
    expect(receipts[0]?.text).toContain("http://localhost:3000/dashboard");
  });

  it("is not enqueued when the purchase's transaction rolls back", async () => {
    const u = await createUser();
    const db = await getDb();
    await expect(
      db.transaction(async (tx) => {
        await fulfilPurchase(tx, input(u.id));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await receiptsTo(u.email)).toHaveLength(0);
  });
});

describe("revokePurchase", () => {
  it("is idempotent and keeps the first refund time", async () => {
    const u = await createUser();
    const db = await getDb();
    const payment = input(u.id);
    await fulfilPurchase(db, payment);
    const first = await revokePurchase(db, payment);
    const second = await revokePurchase(db, payment);
    expect(first?.status).toBe("refunded");
    expect(second?.refundedAt?.getTime()).toBe(first?.refundedAt?.getTime());
  });

  it("returns undefined for an unknown payment", async () => {
    expect(
      await revokePurchase(await getDb(), {
        provider: "stripe",
        providerRef: `cs_${randomUUID()}`,
      }),
    ).toBeUndefined();
  });

  it("overtaking the payment: the payment is then recorded refunded, however often", async () => {
    const u = await createUser();
    const db = await getDb();
    const payment = input(u.id);
    await revokePurchase(db, payment);
    await revokePurchase(db, payment);
    const late = await fulfilPurchase(db, payment);
    expect(late.status).toBe("refunded");
    expect(late.refundedAt).toBeInstanceOf(Date);
    expect(await purchasesOf(payment.providerRef)).toHaveLength(1);
  });

  it("racing the payment in parallel: always ends refunded", async () => {
    const u = await createUser();
    const db = await getDb();
    for (let round = 0; round < 5; round++) {
      const payment = input(u.id);
      await Promise.all([
        fulfilPurchase(db, payment),
        revokePurchase(db, payment),
        fulfilPurchase(db, payment),
      ]);
      const rows = await purchasesOf(payment.providerRef);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.status).toBe("refunded");
    }
  });
});

describe("revokeUserAccess", () => {
  it("ends the access every completed purchase of the users named gives, refunds nothing, and a provider's refund still books", async () => {
    const db = await getDb();
    const u = await createUser();
    const bystander = await createUser();
    const one = await fulfilPurchase(db, input(u.id));
    const two = await fulfilPurchase(db, input(u.id));
    const earlier = await fulfilPurchase(db, input(u.id));
    await revokePurchase(db, earlier);
    const theirs = await fulfilPurchase(db, input(bystander.id));
    expect(await hasPaidAccess(db, { id: u.id, isAdmin: false })).toBe(true);

    const revoked = await revokeUserAccess(db, [u.id]);
    expect(revoked.map((p) => p.id).sort()).toEqual([one.id, two.id].sort());
    for (const p of revoked) {
      // Still a completed sale: nothing was paid back.
      expect(p.status).toBe("completed");
      expect(p.refundedAt).toBeNull();
      expect(p.accessRevokedAt).toBeInstanceOf(Date);
    }
    expect(await hasPaidAccess(db, { id: u.id, isAdmin: false })).toBe(false);
    const [kept] = await purchasesOf(theirs.providerRef);
    expect(kept).toMatchObject({ status: "completed", accessRevokedAt: null });
    expect(await hasPaidAccess(db, { id: bystander.id, isAdmin: false })).toBe(true);

    // The provider refunds one later: it is booked as a refund then.
    const refunded = await revokePurchase(db, one);
    expect(refunded).toMatchObject({ status: "refunded" });
    expect(refunded?.refundedAt).toBeInstanceOf(Date);

    expect(await revokeUserAccess(db, [u.id])).toEqual([]);
    expect(await revokeUserAccess(db, [])).toEqual([]);
  });
});
