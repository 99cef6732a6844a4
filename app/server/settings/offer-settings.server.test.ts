import { randomInt } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type Stripe from "stripe";
import { afterAll, describe, expect, it } from "vitest";
import { formatUsd } from "~/config/site";
import { type OfferSettings, offerDefaults } from "~/lib/offer";
import { createTestApp } from "~/test/app-handler";
import { createUser, origin } from "~/test/helpers";
import { linkedChannels } from "~/test/linked-channels";
import { adminActor } from "../admin/audit.server";
import { ask } from "../cluster-ipc.server";
import { getDb } from "../db/db.server";
import { auditLog, testCheckout } from "../db/schema";
import { prerenderedPagesRenderer } from "../http/prerender.server";
import type { StaticFile } from "../http/static-files.server";
import { createCheckout } from "../payments/checkout.server";
import type { StripeConfig } from "../payments/stripe.server";
import { buysThePlan } from "../payments/stripe-checkout.server";
import {
  answerCommands,
  answerServerProcess,
  refreshOfferSettingsEverywhere,
  serveProcessCommands,
} from "../process-messages.server";
import {
  currentOfferSettings,
  onOfferSettingsChange,
  publicOffer,
  readOfferSettings,
  refreshOfferSettings,
  watchOfferSettings,
  writeOfferSettings,
} from "./offer-settings.server";

// offer_settings is one row shared by every test file of a run on PostgreSQL: the
// tests of this file write it in order, holding it, and put the defaults back at the end.

const stripeConfig = { priceId: "price_plan" } as StripeConfig;
const session = (priceId: string, unitAmount: number) =>
  ({
    line_items: {
      data: [{ price: { id: priceId, unit_amount: unitAmount, currency: "usd" } }],
    },
  }) as unknown as Stripe.Checkout.Session;

/** An unusual price (cents) per run, so the figures found are this file's. */
const price = 1000 + randomInt(8000) * 10 + 3;
const changed: OfferSettings = {
  ...offerDefaults,
  planPriceCents: price,
  couponCode: `T${price}`,
  launchAt: "2030-01-15T09:30",
  launchTimeZone: "Europe/Paris",
};

afterAll(async () => {
  const db = await getDb();
  const admin = await createUser({ isAdmin: true });
  await writeOfferSettings(db, adminActor(admin), offerDefaults);
  await refreshOfferSettings(db);
});

describe("offer settings in the database", () => {
  it("writes the settings and which fields changed to the audit log, in one go", async () => {
    const db = await getDb();
    const admin = await createUser({ isAdmin: true });
    const fields = await writeOfferSettings(db, adminActor(admin), changed);
    expect(fields).toEqual(["planPriceCents", "couponCode", "launchAt", "launchTimeZone"]);
    const read = await readOfferSettings(db);
    expect(read.settings).toEqual(changed);
    expect(read.updatedAt).toBeInstanceOf(Date);
    // The same values again change nothing and record nothing.
    expect(await writeOfferSettings(db, adminActor(admin), changed)).toEqual([]);
    const entries = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actor, admin.email), eq(auditLog.kind, "settings.update")));
    // Each changed setting with its old and new value.
    expect(entries).toMatchObject([
      {
        actorId: admin.id,
        detail: [
          `planPriceCents: ${offerDefaults.planPriceCents} → ${price}`,
          `couponCode: "${offerDefaults.couponCode}" → "T${price}"`,
          `launchAt: "${offerDefaults.launchAt}" → "2030-01-15T09:30"`,
          `launchTimeZone: "${offerDefaults.launchTimeZone}" → "Europe/Paris"`,
        ].join("; "),
      },
    ]);
  });

  it("takes a change into memory once and tells the listeners", async () => {
    const db = await getDb();
    const seen: number[] = [];
    const stop = onOfferSettingsChange((s) => {
      seen.push(s.planPriceCents);
    });
    expect(await refreshOfferSettings(db)).toBe(true);
    expect(await refreshOfferSettings(db)).toBe(false);
    stop();
    expect(seen).toEqual([price]);
    expect(currentOfferSettings()).toEqual(changed);
    // Public pages get everything but the members' Discord invite.
    expect(publicOffer()).not.toHaveProperty("discordInviteUrl");
    expect(publicOffer().couponCode).toBe(`T${price}`);
  });

  it("takes a change another process wrote within the watch interval", async () => {
    const db = await getDb();
    const admin = await createUser({ isAdmin: true });
    const seen: string[] = [];
    const stop = onOfferSettingsChange((s) => {
      seen.push(s.supportEmail);
    });
    const stopWatching = watchOfferSettings(db, 50);
    try {
      // Written straight to the table, as another server process would: memory is not told.
      await writeOfferSettings(db, adminActor(admin), {
        ...changed,
        supportEmail: "help@ailabs.test",
      });
      await expect.poll(() => seen, { timeout: 5000 }).toEqual(["help@ailabs.test"]);
      await writeOfferSettings(db, adminActor(admin), changed);
      await expect
        .poll(() => currentOfferSettings().supportEmail, { timeout: 5000 })
        .toBe(offerDefaults.supportEmail);
    } finally {
      stopWatching();
      stop();
    }
  });

  it("a save reaches every server process: the asker, the primary, each process's refresh", async () => {
    const db = await getDb();
    const admin = await createUser({ isAdmin: true });
    // Two server processes as the primary sees them, each carrying out its commands.
    const received: number[] = [0, 0];
    const workers = received.map((_, i) => {
      const [primaryEnd, processEnd] = linkedChannels();
      answerCommands(processEnd);
      processEnd.on("message", () => {
        received[i] = (received[i] ?? 0) + 1;
      });
      return primaryEnd;
    });
    const [primaryEnd, askerEnd] = linkedChannels();
    answerServerProcess(primaryEnd, { workers: () => workers, metrics: async () => "" });
    serveProcessCommands(db);
    const seen: string[] = [];
    const stop = onOfferSettingsChange((s) => {
      seen.push(s.supportEmail);
    });
    try {
      await writeOfferSettings(db, adminActor(admin), {
        ...changed,
        supportEmail: "ipc@ailabs.test",
      });
      await ask(askerEnd, { kind: "every-process", command: "refresh-offer-settings" }, 5000);
      expect(received).toEqual([1, 1]);
      expect(seen).toEqual(["ipc@ailabs.test"]);
      await writeOfferSettings(db, adminActor(admin), changed);
      // With one process (this test run), the save's own call refreshes this process.
      await refreshOfferSettingsEverywhere(db);
      expect(currentOfferSettings()).toEqual(changed);
    } finally {
      stop();
    }
  });

  it("checks a Stripe session against the stored plan price", async () => {
    const db = await getDb();
    await refreshOfferSettings(db);
    expect(currentOfferSettings().planPriceCents, "the stored price, in memory").toBe(price);
    expect(buysThePlan(session("price_plan", price), stripeConfig)).toBe(true);
    expect(buysThePlan(session("price_plan", price - 1), stripeConfig)).toBe(false);
    expect(buysThePlan(session("price_other", price), stripeConfig)).toBe(false);
  });

  it("charges the stored plan price in the test checkout", async () => {
    const db = await getDb();
    const member = await createUser();
    const { url } = await createCheckout(db, {
      user: member,
      productId: "lifetime-access",
      origin,
      testCheckout: true,
    });
    const id = url.split("/").pop() ?? "";
    const [row] = await db.select().from(testCheckout).where(eq(testCheckout.id, id));
    expect(row?.amountCents).toBe(price);
  });

  it("renders the prerendered pages again with the stored values and swaps them in", async () => {
    const { app } = await createTestApp();
    const old: StaticFile = {
      body: new Uint8Array(Buffer.from("old")),
      br: undefined,
      gzip: undefined,
      type: "text/html; charset=utf-8",
      etag: '"old"',
      cacheControl: "no-cache",
      visitorOnly: true,
      plainUrlOnly: false,
      csp: undefined,
    };
    const files = new Map<string, StaticFile>([
      ["/", old],
      ["/_root.data", old],
      ["/ailabs-offer", old],
      ["/ailabs-offer.data", old],
      ["/assets/app.js", old],
    ]);
    const rerender = prerenderedPagesRenderer({
      files,
      handleRequest: async (request) => app.fetch(request),
      origin,
      routes: ["/", "/ailabs-offer", "/not-prerendered-here"],
    });
    await rerender();
    const text = (path: string) => Buffer.from(files.get(path)?.body ?? []).toString("utf8");
    expect(text("/")).toContain(formatUsd(price));
    expect(text("/ailabs-offer")).toContain(formatUsd(price));
    expect(text("/ailabs-offer")).toContain(`T${price}`);
    expect(text("/ailabs-offer.data")).toContain(`T${price}`);
    const page = files.get("/ailabs-offer");
    expect(page?.br).toBeDefined();
    expect(page?.gzip).toBeDefined();
    expect(page?.etag).not.toBe('"old"');
    expect(page?.csp).toMatch(/script-src [^;]*'sha256-/);
    expect(files.get("/assets/app.js")).toBe(old);
    expect(files.has("/not-prerendered-here")).toBe(false);
  });
});
