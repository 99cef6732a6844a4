import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { salesFunnel } from "~/config/site";
import { createTestApp } from "~/test/app-handler";
import { createUser, origin } from "~/test/helpers";
import { adminActor } from "../admin/audit.server";
import { getDb } from "../db/db.server";
import {
  readOfferSettings,
  refreshOfferSettings,
  writeOfferSettings,
} from "../settings/offer-settings.server";
import {
  coachingPageLoader,
  coachingPlacesLeft,
  countCustomers,
  countPlacesTaken,
  firstCustomerPlacesLeft,
  onPlacesLeftChange,
  type PlacesLeft,
  placesLeftAfter,
  refreshPlacesLeft,
  salesPageLoader,
} from "./places-left.server";
import { fulfilPurchase, revokePurchase } from "./purchases.server";

const places = salesFunnel.firstCustomers.customers;
const { clientCap } = salesFunnel.coaching;

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
    const stop = onPlacesLeftChange((left: PlacesLeft) => {
      seen.push(left.firstCustomers);
    });
    try {
      await refreshPlacesLeft(db);
      const left = firstCustomerPlacesLeft();
      expect(left).toBe(placesLeftAfter(await countCustomers(db)));
      seen.length = 0;
      await createUser({ paid: true });
      expect(await refreshPlacesLeft(db)).toBe(left > 0);
      expect(await refreshPlacesLeft(db)).toBe(false);
      expect(seen).toEqual(left > 0 ? [left - 1] : []);
      // The sales pages' loader reads memory, not the database.
      expect(salesPageLoader().firstCustomersLeft).toBe(Math.max(0, left - 1));
    } finally {
      stop();
    }
  });

  it("shows the places left on the sales pages", async () => {
    const db = await getDb();
    await refreshPlacesLeft(db);
    const left = firstCustomerPlacesLeft();
    const { app } = await createTestApp();
    for (const path of ["/ailabs-offer", "/ailabs-offer2"]) {
      const html = await (await app.fetch(new Request(new URL(path, origin)))).text();
      expect(html).toContain(left > 0 ? `${left} of ${places} left` : `All ${places} places taken`);
      expect(html).toContain("customers only:");
    }
  });
});

describe("coaching places", () => {
  it("counts completed purchases of the custom SaaS build; a refund frees its place", async () => {
    const db = await getDb();
    const [a, b] = [await createUser(), await createUser()];
    await db
      .transaction(
        async (tx) => {
          const before = (await countPlacesTaken(tx)).coachingClients;
          await fulfilPurchase(tx, payment(a.id, "custom-saas"));
          await fulfilPurchase(tx, payment(b.id, "white-label"));
          await fulfilPurchase(tx, payment(b.id));
          expect((await countPlacesTaken(tx)).coachingClients).toBe(before + 1);
          const refunded = payment(b.id, "custom-saas");
          await fulfilPurchase(tx, refunded);
          expect((await countPlacesTaken(tx)).coachingClients).toBe(before + 2);
          await revokePurchase(tx, refunded);
          expect((await countPlacesTaken(tx)).coachingClients).toBe(before + 1);
          throw new Rollback();
        },
        { isolationLevel: "repeatable read" },
      )
      .catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
      });
    expect(placesLeftAfter(clientCap + 3, clientCap)).toBe(0);
  });

  it("shows the spots left on the upsell page, which sells no more once none is left", async () => {
    const db = await getDb();
    const { app } = await createTestApp();
    const page = async () =>
      (await app.fetch(new Request(new URL("/custom-saas-upsell", origin)))).text();

    await refreshPlacesLeft(db);
    const left = coachingPlacesLeft();
    expect(coachingPageLoader().coachingPlacesLeft).toBe(left);
    if (left > 0) {
      const html = await page();
      expect(html).toContain(`${left} ${left === 1 ? "spot" : "spots"} remaining`);
      // The funnel sells in the product: the one-click form.
      expect(html).toContain('data-upsell="custom-saas"');
    }

    // Every place taken: no buy link, the page says so.
    const buyer = await createUser();
    const sales = Array.from({ length: left }, () => payment(buyer.id, "custom-saas"));
    for (const sale of sales) await fulfilPurchase(db, sale);
    try {
      expect(await refreshPlacesLeft(db)).toBe(left > 0);
      expect(coachingPlacesLeft()).toBe(0);
      const html = await page();
      expect(html).toContain("All spots taken");
      expect(html).toContain(`All ${clientCap} places are taken.`);
      expect(html).not.toContain('data-upsell="custom-saas"');
      expect(html).not.toContain("Apply Now for");
    } finally {
      for (const sale of sales) await revokePurchase(db, sale);
      await refreshPlacesLeft(db);
    }
    expect(coachingPlacesLeft()).toBe(left);
  });

  it("counts the spots against the cap in the offer settings, which the page names", async () => {
    const db = await getDb();
    const { app } = await createTestApp();
    await refreshPlacesLeft(db);
    // The builds sold, counted: more than the default cap when other files sold many.
    const sold = (await countPlacesTaken(db)).coachingClients;
    const cap = sold + 7;
    // The owner's setting, in this process's memory only: other test files share the row.
    const admin = await createUser({ isAdmin: true });
    await db
      .transaction(async (tx) => {
        const { settings } = await readOfferSettings(tx);
        await writeOfferSettings(tx, adminActor(admin), { ...settings, coachingClientCap: cap });
        await refreshOfferSettings(tx);
        throw new Rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
      });
    try {
      expect(coachingPlacesLeft()).toBe(7);
      const html = await (
        await app.fetch(new Request(new URL("/custom-saas-upsell", origin)))
      ).text();
      expect(html).toContain("7 spots remaining");
      expect(html).toContain(`Limited to <!-- -->${cap}<!-- --> clients`);
      expect(html).toContain(`Why only ${cap} clients?`);
      expect(html).toContain(`aria-label="${sold} of ${cap} spots taken"`);
      expect(html).toContain(`Only ${cap} clients. `);
      // A cap below the builds sold leaves none, not fewer than none.
      expect(placesLeftAfter(sold + 2, cap - 8)).toBe(0);
    } finally {
      await refreshOfferSettings(db);
    }
    expect(coachingPlacesLeft()).toBe(Math.max(0, clientCap - sold));
  });
});
