import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { formatUsd } from "~/config/site";
import * as paymentOptions from "~/routes/checkout/payment-options";
import * as testCheckoutRoute from "~/routes/checkout/test-checkout";
import { appRequest, createUser, origin, purchasesOf, redirectTarget, run } from "~/test/helpers";
import { hasPaidAccess } from "../access.server";
import { getDb } from "../db/db.server";
import { purchase, testCheckout, user } from "../db/schema";
import { currentOfferSettings } from "../settings/offer-settings.server";
import { createCheckout } from "./checkout.server";

type ErrorResult = { init?: { status?: number }; data: { formError: string } };

/** The plan page's form posted with these fields. */
function postPlan(cookie: string | undefined, form: Record<string, string>) {
  return run(() =>
    paymentOptions.action({
      request: appRequest("/payment-options", { cookie, form }),
      params: {},
      context: {},
    } as never),
  );
}

/** The test checkout's page as `cookie`'s browser loads it. */
function checkoutPage(id: string, cookie?: string) {
  return run(() =>
    testCheckoutRoute.loader({
      request: appRequest(`/checkout/test/${id}`, { cookie }),
      params: { checkoutId: id },
      context: {},
    } as never),
  );
}

function startCheckout(cookie: string | undefined, productId = "lifetime-access", coupon?: string) {
  return postPlan(cookie, { productId, ...(coupon === undefined ? {} : { coupon }) });
}

function checkoutAction(
  cookie: string,
  checkoutId: string,
  intent: "pay" | "cancel",
  clientIp = "127.0.0.1",
) {
  return run(() =>
    testCheckoutRoute.action({
      request: appRequest(`/checkout/test/${checkoutId}`, {
        cookie,
        form: { intent },
        clientIp,
      }),
      params: { checkoutId },
      context: {},
    } as never),
  );
}

function checkoutIdOf(result: unknown): string {
  const location = redirectTarget(result) ?? "";
  const match = location.match(/^http:\/\/localhost:3000\/checkout\/test\/([0-9a-f-]{36})$/);
  if (!match?.[1]) throw new Error(`not a test checkout redirect: ${location}`);
  return match[1];
}

describe("checkout errors (docs/product.md, Messages)", () => {
  it("answers 'No active session' without a session", async () => {
    const result = (await startCheckout(undefined)) as ErrorResult;
    expect(result.init?.status).toBe(401);
    expect(result.data.formError).toBe("No active session");
  });

  it("answers 'No active session' for an expired or forged session", async () => {
    const result = (await startCheckout("better-auth.session_token=stale.token")) as ErrorResult;
    expect(result.data.formError).toBe("No active session");
  });

  it("answers 'Invalid product ID' for an unknown product", async () => {
    const u = await createUser();
    for (const productId of ["gold-plan", "__proto__", "constructor", ""]) {
      const result = (await startCheckout(u.cookie, productId)) as ErrorResult;
      expect(result.init?.status).toBe(400);
      expect(result.data.formError).toBe("Invalid product ID");
    }
  });

  it("answers 'Failed to create checkout session' when the provider cannot record the checkout", async () => {
    // A session user whose account was deleted meanwhile: the checkout row cannot reference it.
    const u = await createUser();
    const db = await getDb();
    await db.delete(user).where(eq(user.id, u.id));
    await expect(
      createCheckout(db, {
        user: { id: u.id },
        productId: "lifetime-access",
        origin,
        testCheckout: true,
      }),
    ).rejects.toMatchObject({ message: "Failed to create checkout session", status: 502 });
  });
});

describe("test checkout switch", () => {
  it("is refused with 'Failed to create checkout session' where the test checkout is off", async () => {
    const u = await createUser();
    await expect(
      createCheckout(await getDb(), {
        user: { id: u.id },
        productId: "lifetime-access",
        origin,
        testCheckout: false,
      }),
    ).rejects.toMatchObject({ message: "Failed to create checkout session", status: 503 });
  });

  it("reuses a started checkout instead of adding rows, and starts a new one once it is paid", async () => {
    const u = await createUser();
    const first = checkoutIdOf(await startCheckout(u.cookie));
    expect(checkoutIdOf(await startCheckout(u.cookie))).toBe(first);
    await checkoutAction(u.cookie, first, "pay");
    expect(checkoutIdOf(await startCheckout(u.cookie))).not.toBe(first);
  });
});

describe("test checkout", () => {
  it("pays: one completed purchase however often Pay is pressed, then access", async () => {
    const u = await createUser();
    const id = checkoutIdOf(await startCheckout(u.cookie));
    const first = await checkoutAction(u.cookie, id, "pay");
    const second = await checkoutAction(u.cookie, id, "pay");
    expect(redirectTarget(first)).toBe("/success");
    expect(redirectTarget(second)).toBe("/success");
    // One row, as paid: toMatchObject on an array compares its length too.
    expect(await purchasesOf(u.id)).toMatchObject([
      { provider: "test", providerRef: id, status: "completed", amountCents: 2500 },
    ]);
    expect(await hasPaidAccess(await getDb(), { id: u.id, isAdmin: false })).toBe(true);
  });

  it("shows the plan and amount on the checkout page", async () => {
    const u = await createUser();
    const id = checkoutIdOf(await startCheckout(u.cookie));
    const data = await checkoutPage(id, u.cookie);
    expect(data).toEqual({
      name: "Lifetime Access",
      isPlan: true,
      coupon: null,
      bump: null,
      amount: "$25",
      currency: "USD",
      email: u.email,
    });
  });

  it("takes the advertised coupon, whatever its case: the checkout names it and charges the price less its saving", async () => {
    const u = await createUser();
    const id = checkoutIdOf(await startCheckout(u.cookie, "lifetime-access", " launch "));
    const data = await checkoutPage(id, u.cookie);
    expect(data).toMatchObject({ coupon: "LAUNCH", amount: "$22" });
    // Without the coupon it is another checkout, at the full price.
    expect(checkoutIdOf(await startCheckout(u.cookie))).not.toBe(id);
    expect(checkoutIdOf(await startCheckout(u.cookie, "lifetime-access", "LAUNCH"))).toBe(id);
    expect(redirectTarget(await checkoutAction(u.cookie, id, "pay"))).toBe("/success");
    expect(await purchasesOf(u.id)).toMatchObject([
      {
        provider: "test",
        providerRef: id,
        status: "completed",
        amountCents: 2200,
        couponCode: "LAUNCH",
      },
    ]);
  });

  it("refuses a coupon it does not know beside its field, keeping what was typed, and starts no checkout", async () => {
    const u = await createUser();
    const refused = (await startCheckout(u.cookie, "lifetime-access", "FREEBIE")) as {
      init: { status: number };
      data: { fieldErrors: Record<string, string>; values: Record<string, string> };
    };
    expect(refused.init.status).toBe(400);
    expect(refused.data.fieldErrors).toEqual({ coupon: "That coupon code is not valid." });
    expect(refused.data.values.coupon).toBe("FREEBIE");
    const db = await getDb();
    const started = await db.select().from(testCheckout).where(eq(testCheckout.userId, u.id));
    expect(started).toEqual([]);
  });

  it.each([
    ["cancels: lands on /cancel and records nothing", "owner", "cancel", "/cancel"],
    ["refuses to pay another user's checkout", "other", "pay", "/payment-options"],
  ] as const)("%s", async (_, who, intent, target) => {
    const owner = await createUser();
    const other = await createUser();
    const id = checkoutIdOf(await startCheckout(owner.cookie));
    const actor = who === "owner" ? owner : other;
    expect(redirectTarget(await checkoutAction(actor.cookie, id, intent))).toBe(target);
    expect(await purchasesOf(actor.id)).toHaveLength(0);
  });

  it("pays only for a client on this machine unless TEST_CHECKOUT=on: 403 and nothing recorded", async () => {
    const u = await createUser();
    const id = checkoutIdOf(await startCheckout(u.cookie));
    const refused = await checkoutAction(u.cookie, id, "pay", "203.0.113.5").catch((e) => e);
    expect(refused).toMatchObject({ init: { status: 403 } });
    expect(await purchasesOf(u.id)).toHaveLength(0);
    expect(redirectTarget(await checkoutAction(u.cookie, id, "pay", "::1"))).toBe("/success");
    expect(await purchasesOf(u.id)).toHaveLength(1);
  });

  it("adds the ticked order bump: its own line, its own purchase, once however often Pay is pressed", async () => {
    const u = await createUser();
    const { bumpPriceCents, bumpName, planPriceCents } = currentOfferSettings();
    const plan = (cookie: string) =>
      paymentOptions.loader({
        request: appRequest("/payment-options", { cookie }),
        params: {},
        context: {},
      } as never) as Promise<{ bump: { name: string; priceCents: number } | null }>;
    expect((await plan(u.cookie)).bump).toEqual({ name: bumpName, priceCents: bumpPriceCents });

    const started = await postPlan(u.cookie, { productId: "lifetime-access", bump: "yes" });
    const id = checkoutIdOf(started);
    const page = (await checkoutPage(id, u.cookie)) as {
      bump: { name: string } | null;
      amount: string;
    };
    expect(page.bump?.name).toBe(bumpName);
    expect(page.amount).toBe(formatUsd(planPriceCents + bumpPriceCents));

    expect(redirectTarget(await checkoutAction(u.cookie, id, "pay"))).toBe("/success");
    expect(redirectTarget(await checkoutAction(u.cookie, id, "pay"))).toBe("/success");
    const rows = await purchasesOf(u.id);
    expect(rows.map((p) => [p.product, p.providerRef, p.amountCents, p.status]).sort()).toEqual([
      ["bump-vip", `${id}:bump-vip`, bumpPriceCents, "completed"],
      ["lifetime-access", id, planPriceCents, "completed"],
    ]);
    // A box with another value is refused; no bump is offered to its holder.
    const stranger = await createUser();
    const odd = (await postPlan(stranger.cookie, {
      productId: "lifetime-access",
      bump: "please",
    })) as ErrorResult;
    expect(odd.init?.status).toBe(400);
    const holder = await createUser();
    await (await getDb()).insert(purchase).values({
      userId: holder.id,
      provider: "manual",
      providerRef: `grant-${holder.id}`,
      product: "bump-vip",
      amountCents: 0,
      currency: "usd",
    });
    expect((await plan(holder.cookie)).bump).toBeNull();
    const again = checkoutIdOf(
      await postPlan(holder.cookie, { productId: "lifetime-access", bump: "yes" }),
    );
    const [row] = await (await getDb())
      .select({ bumpCents: testCheckout.bumpCents })
      .from(testCheckout)
      .where(eq(testCheckout.id, again));
    expect(row?.bumpCents).toBeNull();
  });

  it("sends a visitor on the checkout page to /login", async () => {
    const u = await createUser();
    const id = checkoutIdOf(await startCheckout(u.cookie));
    const result = await checkoutPage(id);
    expect(redirectTarget(result)).toBe("/login");
  });
});
