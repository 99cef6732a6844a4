import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { offerDefaults } from "~/lib/offer";
import { cliActor } from "~/server/audit-log.server";
import { getDb } from "~/server/db/db.server";
import { testCheckout } from "~/server/db/schema";
import {
  currentOfferSettings,
  refreshOfferSettings,
  writeOfferSettings,
} from "~/server/settings/offer-settings.server";
import { createTestApp } from "~/test/app-handler";
import { appRequest, createUser, redirectTarget, run, withEnv } from "~/test/helpers";
import * as signup from "../auth/signup";
import * as buy from "./buy";
import * as paymentOptions from "./payment-options";

const { app } = await createTestApp();

function buyFor(offer: string, cookie?: string) {
  return run(() =>
    buy.loader({
      request: appRequest(`/buy/${offer}`, { cookie }),
      params: { offer },
      context: {},
    } as never),
  );
}

/** The href of every buy button on a public page, as a visitor gets it. */
async function buyHrefs(path: string): Promise<string[]> {
  const html = await (await app.fetch(appRequest(path))).text();
  const labels = /Get Instant Access|Yes, I Want Lifetime Access|Get Lifetime Access/;
  return [...html.matchAll(/<a [^>]*href="([^"]+)"[^>]*>([^<]*)/g)]
    .filter((m) => labels.test(m[2] ?? ""))
    .map((m) => (m[1] ?? "").replaceAll("&amp;", "&"));
}

async function sellIn(where: "product" | "marketplace") {
  const db = await getDb();
  await writeOfferSettings(db, cliActor(), { sellIn: where });
  await refreshOfferSettings(db);
}

afterAll(async () => {
  const db = await getDb();
  await writeOfferSettings(db, cliActor(), offerDefaults);
  await refreshOfferSettings(db);
});

describe("the buy buttons when the funnel sells in the product", () => {
  it("lead from /, /ailabs-offer and /ailabs-offer2 to /buy/{offer}", async () => {
    await sellIn("product");
    expect(await buyHrefs("/")).toEqual(["/buy/plan"]);
    const offer = await buyHrefs("/ailabs-offer");
    expect(offer.length).toBeGreaterThanOrEqual(3);
    expect(new Set(offer)).toEqual(new Set(["/buy/plan"]));
    const offer2 = await buyHrefs("/ailabs-offer2");
    expect(offer2.length).toBeGreaterThanOrEqual(3);
    expect(new Set(offer2)).toEqual(new Set(["/buy/offer2"]));
  });

  it("send a visitor to sign up, a signed-in user to the plan page, naming the offer", async () => {
    await sellIn("product");
    expect(redirectTarget(await buyFor("plan"))).toBe("/signup");
    expect(redirectTarget(await buyFor("offer2"))).toBe("/signup?offer=offer2");
    const unpaid = await createUser();
    expect(redirectTarget(await buyFor("plan", unpaid.cookie))).toBe("/payment-options");
    expect(redirectTarget(await buyFor("offer2", unpaid.cookie))).toBe(
      "/payment-options?offer=offer2",
    );
    // An owner is told so on the plan page.
    const owner = await createUser({ paid: true });
    expect(redirectTarget(await buyFor("plan", owner.cookie))).toBe("/payment-options");
    const page = await app.fetch(appRequest("/payment-options", { cookie: owner.cookie }));
    const html = (await page.text()).replaceAll("<!-- -->", "");
    expect(html).toContain("You already own this: Lifetime Access is yours.");
    expect(html).not.toContain("Get Lifetime Access Now");
    // An unknown offer is not found.
    expect(((await buyFor("everything")) as Response).status).toBe(404);
  });

  it("lead to the marketplace when this site has no checkout to sell in", async () => {
    await sellIn("product");
    await withEnv({ testCheckout: false, stripe: undefined }, async () => {
      expect(redirectTarget(await buyFor("plan"))).toBe(currentOfferSettings().mainOfferUrl);
    });
  });

  it("sign a visitor up from the second sales page and charge its price, coupon taken off", async () => {
    await sellIn("product");
    const email = `offer2-${crypto.randomUUID()}@example.com`;
    const signedUp = await run(() =>
      signup.action({
        request: appRequest("/signup?offer=offer2", {
          form: { name: "Second Page", email, password: "correct horse battery" },
        }),
        params: {},
        context: {},
      } as never),
    );
    expect(redirectTarget(signedUp)).toBe("/payment-options?offer=offer2");
    const cookie = ((signedUp as Response).headers.getSetCookie() ?? [])
      .map((c) => c.split(";")[0])
      .join("; ");

    const { offer2PriceCents, couponCode, couponSavingCents } = currentOfferSettings();
    const plan = (await paymentOptions.loader({
      request: appRequest("/payment-options?offer=offer2", { cookie }),
      params: {},
      context: {},
    } as never)) as { offer: string; priceCents: number };
    expect(plan.offer).toBe("offer2");
    expect(plan.priceCents).toBe(offer2PriceCents);

    const started = await run(() =>
      paymentOptions.action({
        request: appRequest("/payment-options?offer=offer2", {
          cookie,
          form: { productId: "lifetime-access", offer: "offer2", coupon: couponCode },
        }),
        params: {},
        context: {},
      } as never),
    );
    const id = (redirectTarget(started) ?? "").split("/").pop() ?? "";
    const [row] = await (await getDb())
      .select({ amountCents: testCheckout.amountCents })
      .from(testCheckout)
      .where(eq(testCheckout.id, id));
    expect(row?.amountCents).toBe(offer2PriceCents - couponSavingCents);
  });

  it("refuses an offer that is not one of the sales pages' with a message", async () => {
    const unpaid = await createUser();
    const refused = (await run(() =>
      paymentOptions.action({
        request: appRequest("/payment-options", {
          cookie: unpaid.cookie,
          form: { productId: "lifetime-access", offer: "free" },
        }),
        params: {},
        context: {},
      } as never),
    )) as { init: { status: number }; data: { formError: string } };
    expect(refused.init.status).toBe(400);
    expect(refused.data.formError).toBe("Invalid product ID");
  });
});

describe("the buy buttons when the funnel sells on the marketplace", () => {
  it("lead every button of the three pages, and /buy, to the marketplace's link", async () => {
    await sellIn("marketplace");
    const link = currentOfferSettings().mainOfferUrl;
    for (const path of ["/", "/ailabs-offer", "/ailabs-offer2"]) {
      const hrefs = await buyHrefs(path);
      expect(hrefs.length, path).toBeGreaterThanOrEqual(1);
      expect(new Set(hrefs), path).toEqual(new Set([link]));
    }
    const member = await createUser();
    expect(redirectTarget(await buyFor("offer2", member.cookie))).toBe(link);
    await sellIn("product");
  });
});
