import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as webhookRoute from "~/routes/api/webhooks/warriorplus";
import * as resetRoute from "~/routes/auth/reset-password";
import {
  appRequest,
  createUser,
  origin,
  redirectTarget,
  run,
  tokenTimeLeft,
  uniqueEmail,
} from "~/test/helpers";
import { respond } from "~/test/page-cache";
import { hasPaidAccess, paidAccessSql } from "../access.server";
import { adminActor } from "../admin/audit.server";
import { getAuth } from "../auth/better-auth.server";
import { readSessionToken } from "../auth/session.server";
import { listCourses } from "../courses/read.server";
import { getDb } from "../db/db.server";
import { readPageStamps } from "../db/page-version.server";
import {
  account,
  emailOutbox,
  purchase,
  purchaseRevocation,
  session,
  user,
  verification,
  webhookEvent,
} from "../db/schema";
import { getEnv, type WarriorPlusConfig } from "../env.server";
import { createPageCache } from "../http/page-cache.server";
import { readOfferSettings, writeOfferSettings } from "../settings/offer-settings.server";
import { isWarriorPlusKeyValid, receiveWarriorPlusIpn } from "./warriorplus.server";

const config: WarriorPlusConfig = {
  securityKey: "wp-security-key-for-tests",
  products: new Map([
    ["wso_abc", "lifetime-access"],
    ["wso_def", "bump-vip"],
    ["wso_ghi", "white-label"],
  ]),
};

function ipn(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    WP_ACTION: "sale",
    WP_ITEM_NUMBER: "wso_abc",
    WP_ITEM_NAME: "AI Labs Lifetime Access",
    WP_SALEID: `sale_${randomUUID()}`,
    WP_TXNID: `txn_${randomUUID()}`,
    WP_BUYER_EMAIL: uniqueEmail("buyer"),
    WP_BUYER_NAME: "Wanda Buyer",
    WP_SALE_AMOUNT: "17.00",
    WP_SALE_CURRENCY: "USD",
    WP_SECURITYKEY: config.securityKey,
    IPN_ID: `ipn_${randomUUID()}`,
    IPN_RCPT_TYPE: "vend",
    ...overrides,
  };
}

async function post(fields: Record<string, string>, cfg: WarriorPlusConfig | undefined = config) {
  const request = new Request(`${origin}/api/webhooks/warriorplus`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
  return receiveWarriorPlusIpn(request, await getDb(), cfg);
}

async function stored(fields: Record<string, string>) {
  const db = await getDb();
  const email = fields.WP_BUYER_EMAIL ?? "";
  const [buyer] = await db.select().from(user).where(eq(user.email, email.toLowerCase()));
  const purchases = await db
    .select()
    .from(purchase)
    .where(
      and(eq(purchase.provider, "warriorplus"), eq(purchase.providerRef, fields.WP_SALEID ?? "")),
    );
  const events = await db
    .select()
    .from(webhookEvent)
    .where(
      and(eq(webhookEvent.provider, "warriorplus"), eq(webhookEvent.eventId, fields.IPN_ID ?? "")),
    );
  const mail = await db.select().from(emailOutbox).where(eq(emailOutbox.to, email.toLowerCase()));
  const member = buyer ? await hasPaidAccess(db, { id: buyer.id, isAdmin: false }) : false;
  return { buyer, purchases, events, mail, member };
}

const loginDetails = <T extends { subject: string }>(mail: T[]) =>
  mail.filter((m) => m.subject === "Your AI Labs login details");
const receipts = <T extends { subject: string }>(mail: T[]) =>
  mail.filter((m) => m.subject === "Your AI Labs receipt");

/** The token of the set-password link in a login-details e-mail ("" when there is none). */
const resetToken = (mail: { text: string } | undefined) =>
  mail?.text.match(/\/reset-password\?token=([\w-]+)/)?.[1] ?? "";

/** Submits the set-password form the link opens, as the mailbox's holder; returns the redirect. */
async function setPasswordWithLink(token: string, password: string) {
  const form = { token, password, confirmPassword: password };
  const reset = await run(() =>
    resetRoute.action({
      request: appRequest("/reset-password", { form }),
      params: {},
      context: {},
    } as never),
  );
  return redirectTarget(reset);
}

describe("WarriorPlus IPN: the security key", () => {
  it.each([
    ["a wrong key", { WP_SECURITYKEY: "not-the-key" }],
    ["a key of another length", { WP_SECURITYKEY: `${config.securityKey}x` }],
    ["no key", { WP_SECURITYKEY: "" }],
  ])("answers 401 to %s and stores nothing", async (_, overrides) => {
    const fields = ipn(overrides);
    const response = await post(fields);
    expect(response.status).toBe(401);
    const after = await stored(fields);
    expect(after.buyer).toBeUndefined();
    expect(after.purchases).toHaveLength(0);
    expect(after.events).toHaveLength(0);
    expect(after.mail).toHaveLength(0);
  });

  it("compares keys by value", () => {
    expect(isWarriorPlusKeyValid("abc", "abc")).toBe(true);
    expect(isWarriorPlusKeyValid("abd", "abc")).toBe(false);
    expect(isWarriorPlusKeyValid(undefined, "abc")).toBe(false);
  });

  it("is off (404) when WARRIORPLUS_SECURITY_KEY is not set", async () => {
    const response = await run(() =>
      webhookRoute.action({
        request: new Request(`${origin}/api/webhooks/warriorplus`, {
          method: "POST",
          body: new URLSearchParams(ipn()),
        }),
        params: {},
        context: {},
      } as never),
    );
    expect((response as Response).status).toBe(404);
  });
});

describe("WarriorPlus IPN: a sale", () => {
  it("creates the buyer without a password, records the purchase, and e-mails login details and a receipt", async () => {
    const fields = ipn({ WP_BUYER_EMAIL: uniqueEmail("New.Buyer") });
    const response = await post(fields);
    expect(response.status).toBe(200);
    const after = await stored(fields);
    expect(after.buyer?.name).toBe("Wanda Buyer");
    expect(after.buyer?.isAdmin).toBe(false);
    const db = await getDb();
    const accounts = await db
      .select()
      .from(account)
      .where(eq(account.userId, after.buyer?.id ?? ""));
    expect(accounts).toHaveLength(0);
    expect(after.purchases).toMatchObject([
      {
        userId: after.buyer?.id,
        product: "lifetime-access",
        amountCents: 1700,
        currency: "usd",
        status: "completed",
      },
    ]);
    expect(after.events).toHaveLength(1);
    expect(after.member).toBe(true);
    const [details] = loginDetails(after.mail);
    expect(details?.text).toContain(`Your login e-mail: ${after.buyer?.email}`);
    expect(details?.text).toContain("valid for 24 hours");
    expect(details?.text).toMatch(/spam/);
    expect(details?.text).toContain("support@ailabs.app");
    expect(receipts(after.mail)).toHaveLength(1);

    // The link is valid for 24 hours and sets the first password, once.
    const token = resetToken(details);
    const hoursLeft = (await tokenTimeLeft(token)) / 3_600_000;
    expect(hoursLeft).toBeGreaterThan(23.9);
    expect(hoursLeft).toBeLessThanOrEqual(24);
    expect(await setPasswordWithLink(token, "my first password")).toBe("/login?reset=1");
    const auth = await getAuth();
    const signedIn = await auth.api.signInEmail({
      body: { email: after.buyer?.email ?? "", password: "my first password" },
      headers: new Headers({ origin }),
    });
    expect(signedIn.user.id).toBe(after.buyer?.id);
  });

  it("the same IPN_ID sent again, even in parallel, applies once", async () => {
    const fields = ipn();
    const responses = await Promise.all([post(fields), post(fields), post(fields)]);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await post(fields)).status).toBe(200);
    const after = await stored(fields);
    expect(after.events).toHaveLength(1);
    expect(after.purchases).toHaveLength(1);
    expect(loginDetails(after.mail)).toHaveLength(1);
    expect(receipts(after.mail)).toHaveLength(1);
  });

  it("gives an existing user who proved the address access but no login-details e-mail", async () => {
    const existing = await createUser({ name: "Already Here" });
    await (await getDb()).update(user).set({ emailVerified: true }).where(eq(user.id, existing.id));
    const fields = ipn({ WP_BUYER_EMAIL: existing.email.toUpperCase(), WP_BUYER_NAME: "Other" });
    expect((await post(fields)).status).toBe(200);
    const after = await stored(fields);
    expect(after.buyer?.id).toBe(existing.id);
    expect(after.buyer?.name).toBe("Already Here");
    expect(after.member).toBe(true);
    expect(loginDetails(after.mail)).toHaveLength(0);
    expect(receipts(after.mail)).toHaveLength(1);
  });

  it("for an address someone signed up with but never proved, sends the buyer a link that takes the account over", async () => {
    // Someone registers the buyer's address first, and stays signed in.
    const squatter = await createUser({ name: "Squatter" });
    const fields = ipn({ WP_BUYER_EMAIL: squatter.email });
    expect((await post(fields)).status).toBe(200);
    const after = await stored(fields);
    expect(after.buyer?.id).toBe(squatter.id);
    const [details] = loginDetails(after.mail);
    const token = resetToken(details);
    expect(token).not.toBe("");

    // The mailbox's holder uses the link.
    expect(await setPasswordWithLink(token, "the buyer's own password")).toBe("/login?reset=1");
    const db = await getDb();
    const [row] = await db.select().from(user).where(eq(user.id, squatter.id));
    expect(row?.emailVerified).toBe(true);
    // Every other session ended, and the old password no longer signs in.
    expect(await db.select().from(session).where(eq(session.userId, squatter.id))).toHaveLength(0);
    const auth = await getAuth();
    await expect(
      auth.api.signInEmail({
        body: { email: squatter.email, password: squatter.password },
        headers: new Headers({ origin }),
      }),
    ).rejects.toThrow();
    const signedIn = await auth.api.signInEmail({
      body: { email: squatter.email, password: "the buyer's own password" },
      headers: new Headers({ origin }),
    });
    expect(signedIn.user.id).toBe(squatter.id);
  });

  it("of the bump product records the purchase but gives no course access", async () => {
    const fields = ipn({ WP_ITEM_NUMBER: "wso_def", WP_SALE_AMOUNT: "4.95" });
    expect((await post(fields)).status).toBe(200);
    const after = await stored(fields);
    expect(after.purchases).toMatchObject([{ product: "bump-vip", amountCents: 495 }]);
    expect(after.member).toBe(false);
  });

  it("of each product opens exactly that product's courses, and its refund closes only them", async () => {
    const buyer = await createUser({ name: "Add-on Buyer" });
    const db = await getDb();
    await db.update(user).set({ emailVerified: true }).where(eq(user.id, buyer.id));
    const sale = (item: string) => ipn({ WP_ITEM_NUMBER: item, WP_BUYER_EMAIL: buyer.email });
    const plan = sale("wso_abc");
    const whiteLabel = sale("wso_ghi");
    expect((await post(plan)).status).toBe(200);
    expect((await post(whiteLabel)).status).toBe(200);
    const lockedOf = async () =>
      Object.fromEntries(
        (await listCourses(db, buyer.id)).map((c) => [c.title, c.locked?.unlock?.product ?? null]),
      );
    // The demo's courses (drizzle/0017_products.sql): the plan's, the add-ons'.
    expect(await lockedOf()).toMatchObject({
      "Start Here: Your First AI SaaS in 7 Days": null,
      "12-in-1 White Label Package": null,
      "VIP Launch Kit": "bump-vip",
    });
    const refund = { ...whiteLabel, WP_ACTION: "refund", IPN_ID: `ipn_${randomUUID()}` };
    expect((await post(refund)).status).toBe(200);
    expect(await lockedOf()).toMatchObject({
      "Start Here: Your First AI SaaS in 7 Days": null,
      "12-in-1 White Label Package": "white-label",
    });
    expect(await hasPaidAccess(db, { id: buyer.id, isAdmin: false })).toBe(true);
  });

  it("without an amount records the funnel price", async () => {
    const fields = ipn({ WP_ITEM_NUMBER: "wso_ghi", WP_SALE_AMOUNT: "" });
    await post(fields);
    expect((await stored(fields)).purchases[0]?.amountCents).toBe(3700);
  });

  it("of the front end without an amount records its price in the offer settings", async () => {
    // Inside a transaction that is rolled back: other test files share the settings' one row.
    const db = await getDb();
    const admin = await createUser({ isAdmin: true });
    const fields = ipn({ WP_SALE_AMOUNT: "" });
    const rollback = new Error("rollback");
    const recorded = db.transaction(async (tx) => {
      const { settings } = await readOfferSettings(tx);
      await writeOfferSettings(tx, adminActor(admin), { ...settings, offer2PriceCents: 2300 });
      const request = new Request(`${origin}/api/webhooks/warriorplus`, {
        method: "POST",
        body: new URLSearchParams(fields),
      });
      expect((await receiveWarriorPlusIpn(request, tx, config)).status).toBe(200);
      const [row] = await tx
        .select({ amountCents: purchase.amountCents })
        .from(purchase)
        .where(eq(purchase.providerRef, fields.WP_SALEID ?? ""));
      expect(row?.amountCents).toBe(2300);
      throw rollback;
    });
    await expect(recorded).rejects.toBe(rollback);
  });

  it("of an unknown product answers 200 and stores nothing", async () => {
    const fields = ipn({ WP_ITEM_NUMBER: "wso_unknown" });
    expect((await post(fields)).status).toBe(200);
    const after = await stored(fields);
    expect(after.buyer).toBeUndefined();
    expect(after.purchases).toHaveLength(0);
    expect(after.events).toHaveLength(0);
    expect(after.mail).toHaveLength(0);
  });

  it("with a missing field answers 400 and stores nothing", async () => {
    const fields = ipn({ WP_SALEID: "" });
    expect((await post(fields)).status).toBe(400);
    expect((await stored(fields)).buyer).toBeUndefined();
  });

  it("addressed to an affiliate is ignored", async () => {
    const fields = ipn({ IPN_RCPT_TYPE: "aff" });
    expect((await post(fields)).status).toBe(200);
    expect((await stored(fields)).purchases).toHaveLength(0);
  });
});

describe("WarriorPlus IPN: one login e-mail per sale", () => {
  const setPasswordTokens = async (userId: string) =>
    (await getDb()).select().from(verification).where(eq(verification.value, userId));

  it("the same sale notified again under new IPN ids, in parallel and one after another, sends one login e-mail", async () => {
    const sale = ipn();
    const again = () => post({ ...sale, IPN_ID: `ipn_${randomUUID()}` });
    const parallel = await Promise.all(Array.from({ length: 6 }, again));
    const sequential = [];
    for (let i = 0; i < 5; i++) sequential.push(await again());
    expect([...parallel, ...sequential].map((r) => r.status)).toEqual(Array(11).fill(200));

    const after = await stored(sale);
    expect(after.purchases).toHaveLength(1);
    expect(loginDetails(after.mail)).toHaveLength(1);
    expect(receipts(after.mail)).toHaveLength(1);
    expect(await setPasswordTokens(after.buyer?.id ?? "")).toHaveLength(1);
  });

  it("another sale of a buyer who has not used the first link yet sends its receipt, no new link, and the first link still works", async () => {
    const first = ipn();
    await post(first);
    const token = resetToken(loginDetails((await stored(first)).mail)[0]);
    expect(token).not.toBe("");
    // The bump, in its own notification.
    await post(ipn({ WP_BUYER_EMAIL: first.WP_BUYER_EMAIL ?? "", WP_ITEM_NUMBER: "wso_def" }));
    const after = await stored(first);
    expect(receipts(after.mail)).toHaveLength(2);
    expect(loginDetails(after.mail)).toHaveLength(1);
    expect(await setPasswordTokens(after.buyer?.id ?? "")).toHaveLength(1);
    expect(await setPasswordWithLink(token, "my first password")).toBe("/login?reset=1");
  });

  it("another sale once the first link has run out sends a new one", async () => {
    const first = ipn();
    await post(first);
    const buyer = (await stored(first)).buyer;
    await (await getDb())
      .update(verification)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verification.value, buyer?.id ?? ""));
    await post(ipn({ WP_BUYER_EMAIL: first.WP_BUYER_EMAIL ?? "", WP_ITEM_NUMBER: "wso_def" }));
    const details = loginDetails((await stored(first)).mail);
    expect(details).toHaveLength(2);
    const hoursLeft = await Promise.all(
      details.map(async (m) => (await tokenTimeLeft(resetToken(m))) / 3_600_000),
    );
    expect(Math.max(...hoursLeft)).toBeGreaterThan(23.9);
  });
});

describe("WarriorPlus IPN: a sale for an address someone registered without proving it", () => {
  /** A page cache over the real sessions, as the server keeps member pages. */
  function memberPageCache() {
    let renders = 0;
    const cache = createPageCache({
      readStamps: async (tokens) => readPageStamps(await getDb(), tokens),
      sessionKey: (cookie) => readSessionToken(cookie ?? null, getEnv().authSecret),
    });
    const open = (cookie: string) =>
      respond(cache, new Request(`${origin}/dashboard`, { headers: { cookie } }), async () => {
        renders += 1;
        return new Response(`<main>render ${renders}</main>`, {
          headers: { "content-type": "text/html; charset=utf-8" },
        });
      });
    /** The kept page, if it still holds (a miss renders nothing worth keeping: a 204). */
    const kept = async (cookie: string) => {
      const ask = { path: "/dashboard", search: "", cookie, prefetch: false };
      const got = await cache.page(ask, async () => new Response(null, { status: 204 }));
      return got instanceof Response ? undefined : got;
    };
    return { open, kept, renders: () => renders };
  }

  const accessOf = async (userId: string) => {
    const db = await getDb();
    const [row] = await db
      .select({ member: paidAccessSql(user) })
      .from(user)
      .where(eq(user.id, userId));
    return { rule: await hasPaidAccess(db, { id: userId, isAdmin: false }), sql: row?.member };
  };

  it("ends the account's sessions at once, drops their kept pages, and grants nothing until the buyer uses the link", async () => {
    const squatter = await createUser({ name: "Squatter" });
    const pages = memberPageCache();
    await pages.open(squatter.cookie);
    expect(await pages.kept(squatter.cookie)).toBeDefined();

    const sale = ipn({ WP_BUYER_EMAIL: squatter.email });
    expect((await post(sale)).status).toBe(200);
    const db = await getDb();
    expect(await db.select().from(session).where(eq(session.userId, squatter.id))).toHaveLength(0);
    expect(await pages.kept(squatter.cookie)).toBeUndefined();
    await pages.open(squatter.cookie);
    expect(pages.renders()).toBe(2);

    // The sale is recorded, but opens nothing: not even after signing in again with the password.
    const after = await stored(sale);
    expect(after.purchases).toMatchObject([{ status: "completed", awaitsAddressProof: true }]);
    expect(await accessOf(squatter.id)).toEqual({ rule: false, sql: false });
    const auth = await getAuth();
    const again = await auth.api.signInEmail({
      body: { email: squatter.email, password: squatter.password },
      headers: new Headers({ origin }),
    });
    expect(again.user.id).toBe(squatter.id);
    expect(await accessOf(squatter.id)).toEqual({ rule: false, sql: false });

    // The mailbox's holder uses the link: the access begins.
    const token = resetToken(loginDetails(after.mail)[0]);
    expect(await setPasswordWithLink(token, "the buyer's own password")).toBe("/login?reset=1");
    expect(await accessOf(squatter.id)).toEqual({ rule: true, sql: true });
  });

  it("an account that proved its address keeps its sessions and gets the access at once", async () => {
    const owner = await createUser();
    const db = await getDb();
    await db.update(user).set({ emailVerified: true }).where(eq(user.id, owner.id));
    await post(ipn({ WP_BUYER_EMAIL: owner.email }));
    expect(await db.select().from(session).where(eq(session.userId, owner.id))).toHaveLength(1);
    expect(await accessOf(owner.id)).toEqual({ rule: true, sql: true });
  });

  it("the same sale notified again ends no session signed in since", async () => {
    const squatter = await createUser();
    const sale = ipn({ WP_BUYER_EMAIL: squatter.email });
    await post(sale);
    const auth = await getAuth();
    await auth.api.signInEmail({
      body: { email: squatter.email, password: squatter.password },
      headers: new Headers({ origin }),
    });
    await post({ ...sale, IPN_ID: `ipn_${randomUUID()}` });
    const db = await getDb();
    expect(await db.select().from(session).where(eq(session.userId, squatter.id))).toHaveLength(1);
    expect(await accessOf(squatter.id)).toEqual({ rule: false, sql: false });
  });
});

describe("WarriorPlus IPN: refund and dispute", () => {
  it.each(["refund", "dispute"])("a %s revokes the purchase and the access", async (action) => {
    const sale = ipn();
    await post(sale);
    expect((await stored(sale)).member).toBe(true);
    const response = await post({ ...sale, WP_ACTION: action, IPN_ID: `ipn_${randomUUID()}` });
    expect(response.status).toBe(200);
    const after = await stored(sale);
    expect(after.purchases[0]?.status).toBe("refunded");
    expect(after.member).toBe(false);
  });

  it.each(["refund", "dispute"])(
    "a %s that arrives before its sale records the revocation only: no account, no e-mail, and the sale grants nothing",
    async (action) => {
      const sale = ipn();
      const early = await post({ ...sale, WP_ACTION: action, IPN_ID: `ipn_${randomUUID()}` });
      expect(early.status).toBe(200);
      const db = await getDb();
      const revoked = await db
        .select()
        .from(purchaseRevocation)
        .where(eq(purchaseRevocation.providerRef, sale.WP_SALEID ?? ""));
      expect(revoked).toHaveLength(1);
      expect((await stored(sale)).buyer).toBeUndefined();

      expect((await post(sale)).status).toBe(200);
      const after = await stored(sale);
      expect(after.buyer).toBeUndefined();
      expect(after.purchases).toHaveLength(0);
      expect(after.mail).toHaveLength(0);
    },
  );

  it("a refund before its sale, for someone who has an account: the sale is in their history, refunded, with no access", async () => {
    const member = await createUser();
    const sale = ipn({ WP_BUYER_EMAIL: member.email });
    await post({ ...sale, WP_ACTION: "refund", IPN_ID: `ipn_${randomUUID()}` });
    await post(sale);
    const after = await stored(sale);
    expect(after.purchases).toHaveLength(1);
    expect(after.purchases[0]?.status).toBe("refunded");
    expect(after.member).toBe(false);
    expect(receipts(after.mail)).toHaveLength(0);
  });
});
