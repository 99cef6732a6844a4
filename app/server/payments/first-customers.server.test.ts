import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { salesFunnel } from "~/config/site";
import { createTestApp } from "~/test/app-handler";
import { createUser, origin } from "~/test/helpers";
import { getDb } from "../db/db.server";
import {
  countCustomers,
  firstCustomerPlacesLeft,
  onFirstCustomerPlacesChange,
  placesLeftAfter,
  refreshFirstCustomerPlaces,
  salesPageLoader,
} from "./first-customers.server";
import { fulfilPurchase, revokePurchase } from "./purchases.server";

const places = salesFunnel.firstCustomers.customers;

class Rollback extends Error {}

const payment = (userId: string, product = "lifetime-access") => ({
  userId,
  provider: "test" as const,
  providerRef: randomUUID(),
  product,
  amountCents: 1700,
  currency: "usd",
});

describe("first-customers places", () => {
  it("counts people with a completed purchase of the plan, once each", async () => {
    const db = await getDb();
    const [a, b] = [await createUser(), await createUser()];
    // In one snapshot, so purchases other test files make meanwhile do not count.
    await db
      .transaction(
        async (tx) => {
          const before = await countCustomers(tx);
          await fulfilPurchase(tx, payment(a.id));
          expect(await countCustomers(tx)).toBe(before + 1);
          // A second purchase of the same person, and another product, add nobody.
          await fulfilPurchase(tx, payment(a.id));
          await fulfilPurchase(tx, payment(b.id, "white-label"));
          expect(await countCustomers(tx)).toBe(before + 1);
          // A refunded purchase is no customer.
          const refunded = payment(b.id);
          await fulfilPurchase(tx, refunded);
          expect(await countCustomers(tx)).toBe(before + 2);
          await revokePurchase(tx, refunded);
          expect(await countCustomers(tx)).toBe(before + 1);
          throw new Rollback();
        },
        { isolationLevel: "repeatable read" },
      )
      .catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
      });
  });

  it("never goes below 0 places", () => {
    expect(placesLeftAfter(0)).toBe(places);
    expect(placesLeftAfter(places - 1)).toBe(1);
    expect(placesLeftAfter(places + 7)).toBe(0);
  });

  it("keeps the places left in memory and tells the listeners when they change", async () => {
    const db = await getDb();
    const seen: number[] = [];
    const stop = onFirstCustomerPlacesChange((left) => {
      seen.push(left);
    });
    try {
      await refreshFirstCustomerPlaces(db);
      const left = firstCustomerPlacesLeft();
      expect(left).toBe(placesLeftAfter(await countCustomers(db)));
      seen.length = 0;
      await createUser({ paid: true });
      expect(await refreshFirstCustomerPlaces(db)).toBe(left > 0);
      expect(await refreshFirstCustomerPlaces(db)).toBe(false);
      expect(seen).toEqual(left > 0 ? [left - 1] : []);
      // The sales pages' loader reads memory, not the database.
      expect(salesPageLoader().firstCustomersLeft).toBe(Math.max(0, left - 1));
    } finally {
      stop();
    }
  });

  it("shows the places left on the sales pages", async () => {
    const db = await getDb();
    await refreshFirstCustomerPlaces(db);
    const left = firstCustomerPlacesLeft();
    const { app } = await createTestApp();
    for (const path of ["/ailabs-offer", "/ailabs-offer2"]) {
      const html = await (await app.fetch(new Request(new URL(path, origin)))).text();
      expect(html).toContain(left > 0 ? `${left} of ${places} left` : `All ${places} places taken`);
      expect(html).toContain("customers only:");
    }
  });
});
