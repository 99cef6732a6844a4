import { randomUUID } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { offerDefaults } from "~/lib/offer";
import { cliActor } from "~/server/audit-log.server";
import { getAuth } from "~/server/auth/better-auth.server";
import { getSessionUser } from "~/server/auth/guards.server";
import { getDb } from "~/server/db/db.server";
import { auditLog, emailOutbox, user } from "~/server/db/schema";
import { fulfilPurchase, revokePurchase } from "~/server/payments/purchases.server";
import { refreshOfferSettings, writeOfferSettings } from "~/server/settings/offer-settings.server";
import {
  appRequest,
  cookieHeader,
  createUser,
  origin,
  redirectTarget,
  run,
  type TestUser,
} from "~/test/helpers";
import * as account from "./account";
import * as receipt from "./receipt";

// /account: the name, the password, My purchases; /account/receipts/:orderNumber.

type Refusal = { data: { fieldErrors: Record<string, string> }; init?: { status?: number } };
type AccountData = {
  name: string;
  notice: string | null;
  purchases: {
    orderNumber: string;
    product: string;
    amount: string;
    status: string;
    refundedDay: string | null;
  }[];
};

const args = (request: Request, params: Record<string, string> = {}) =>
  ({ request, params, context: {} }) as never;

const postAccount = (cookie: string, form: Record<string, string>) =>
  run(() => account.action(args(appRequest("/account", { cookie, form }))));

async function loadAccount(cookie: string) {
  const result = (await account.loader(args(appRequest("/account", { cookie })))) as unknown as {
    data: AccountData;
  };
  return result.data;
}

async function loadReceipt(cookie: string, orderNumber: string) {
  const request = appRequest(`/account/receipts/${orderNumber}`, { cookie });
  return run(() => receipt.loader(args(request, { orderNumber })));
}

/** Another browser signed in to the same account: its session cookie. */
async function signInElsewhere(u: TestUser, password = u.password): Promise<string> {
  const { headers } = await (await getAuth()).api.signInEmail({
    body: { email: u.email, password },
    headers: new Headers({ origin }),
    returnHeaders: true,
  });
  return cookieHeader(headers);
}

const signedIn = async (cookie: string) =>
  (await getSessionUser(appRequest("/account", { cookie }))) !== null;

/** The cookie jar after a redirect's Set-Cookie headers. */
function withSetCookies(cookie: string, response: unknown): string {
  const jar = new Map(cookie.split("; ").map((c) => [c.split("=")[0], c] as const));
  for (const set of (response as Response).headers.getSetCookie()) {
    const pair = set.split(";")[0] ?? "";
    const name = pair.split("=")[0];
    if (pair.endsWith("=") || /max-age=0/i.test(set)) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}

describe("changing the password at /account", () => {
  it("asks for the current password and the new one twice, and refuses a common one", async () => {
    const u = await createUser({ paid: true });
    const refused = async (form: Record<string, string>) =>
      ((await postAccount(u.cookie, { intent: "change-password", ...form })) as Refusal).data
        .fieldErrors;
    expect(
      await refused({
        currentPassword: "not my password",
        newPassword: "a brand new passphrase",
        confirmPassword: "a brand new passphrase",
      }),
    ).toEqual({ currentPassword: "Incorrect password" });
    expect(
      await refused({
        currentPassword: u.password,
        newPassword: "a brand new passphrase",
        confirmPassword: "another passphrase",
      }),
    ).toEqual({ confirmPassword: "The passwords do not match" });
    expect(
      await refused({
        currentPassword: u.password,
        newPassword: "short",
        confirmPassword: "short",
      }),
    ).toHaveProperty("newPassword");
    expect(
      await refused({
        currentPassword: u.password,
        newPassword: "password123",
        confirmPassword: "password123",
      }),
    ).toHaveProperty("newPassword");
    // Nothing changed: the old password still signs in.
    expect(await signedIn(await signInElsewhere(u))).toBe(true);
  });

  it("changes it, signs every other device out, keeps this one in and tells the owner", async () => {
    const u = await createUser({ paid: true, name: "Pat Changer" });
    const elsewhere = await signInElsewhere(u);
    expect(await signedIn(elsewhere)).toBe(true);
    const newPassword = "a brand new passphrase";

    const done = await postAccount(u.cookie, {
      intent: "change-password",
      currentPassword: u.password,
      newPassword,
      confirmPassword: newPassword,
    });
    expect(redirectTarget(done)).toBe("/account");
    const here = withSetCookies(u.cookie, done);
    expect(await signedIn(here)).toBe(true);
    expect(await signedIn(elsewhere)).toBe(false);
    expect(await signedIn(u.cookie)).toBe(false);
    expect((await loadAccount(here)).notice).toBe(
      "Your password was changed. Every other device was signed out.",
    );

    // The new password signs in; the old one no longer does.
    expect(await signedIn(await signInElsewhere(u, newPassword))).toBe(true);
    await expect(signInElsewhere(u)).rejects.toThrow();

    const db = await getDb();
    const [mail] = await db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.to, u.email))
      .orderBy(desc(emailOutbox.createdAt))
      .limit(1);
    expect(mail?.subject).toBe("Your AI Labs password was changed");
    expect(mail?.text).toContain("Hi Pat Changer,");
    expect(mail?.text).toContain(`${origin}/forgot-password`);
    expect(mail?.text).not.toContain(newPassword);
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, u.id), eq(auditLog.kind, "security.password-change")));
    expect(entry?.detail).toBe("on the account page");
  });
});

describe("changing the name at /account", () => {
  it("refuses an empty name and saves a new one", async () => {
    const u = await createUser({ paid: true, name: "Old Name" });
    const empty = (await postAccount(u.cookie, { intent: "change-name", name: "   " })) as Refusal;
    expect(empty.init?.status).toBe(400);
    expect(empty.data.fieldErrors).toEqual({ name: "Please enter your full name" });

    const saved = await postAccount(u.cookie, { intent: "change-name", name: "  New Name " });
    expect(redirectTarget(saved)).toBe("/account");
    const [row] = await (await getDb()).select().from(user).where(eq(user.id, u.id));
    expect(row?.name).toBe("New Name");
    const shown = await loadAccount(withSetCookies(u.cookie, saved));
    expect(shown.name).toBe("New Name");
    expect(shown.notice).toBe("Your name was saved.");
  });
});

describe("My purchases and receipts", () => {
  afterAll(async () => {
    const db = await getDb();
    await writeOfferSettings(db, cliActor(), offerDefaults);
    await refreshOfferSettings(db);
  });

  it("lists each purchase with its order number, newest first, a refund marked", async () => {
    const u = await createUser({ paid: true });
    const db = await getDb();
    const ref = `wp_${randomUUID()}`;
    await fulfilPurchase(db, {
      userId: u.id,
      provider: "warriorplus",
      providerRef: ref,
      product: "white-label",
      amountCents: 3700,
      currency: "usd",
    });
    await revokePurchase(db, { provider: "warriorplus", providerRef: ref });

    const { purchases } = await loadAccount(u.cookie);
    expect(purchases).toHaveLength(2);
    expect(purchases[0]).toMatchObject({
      product: "12-in-1 White Label Package",
      amount: "$37",
      status: "refunded",
    });
    expect(purchases[0]?.refundedDay).toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
    expect(purchases[1]).toMatchObject({
      product: "Lifetime Access",
      amount: "$25",
      status: "completed",
    });
    for (const p of purchases) expect(p.orderNumber).toMatch(/^AIL-[0-9A-HJKMNP-TV-Z]{5}$/);
  });

  it("shows a receipt to its buyer and an admin, with the seller's name and address, and to nobody else", async () => {
    const db = await getDb();
    await writeOfferSettings(db, cliActor(), {
      ...offerDefaults,
      sellerName: "AI Labs LLC",
      sellerAddress: "1 Main Street\nAustin, TX 78701\nUnited States",
    });
    await refreshOfferSettings(db);
    const buyer = await createUser({ paid: true, name: "Receipt Owner" });
    const [bought] = (await loadAccount(buyer.cookie)).purchases;
    const orderNumber = bought?.orderNumber ?? "";

    const own = (await loadReceipt(buyer.cookie, orderNumber.toLowerCase())) as {
      receipt: Record<string, unknown>;
    };
    expect(own.receipt).toMatchObject({
      orderNumber,
      product: "Lifetime Access",
      amount: "$25",
      paidWith: "Test checkout",
      status: "completed",
      buyer: { name: "Receipt Owner", email: buyer.email },
      seller: {
        name: "AI Labs LLC",
        address: ["1 Main Street", "Austin, TX 78701", "United States"],
      },
    });

    const admin = await createUser({ isAdmin: true });
    const seen = (await loadReceipt(admin.cookie, orderNumber)) as { receipt: unknown };
    expect(seen.receipt).toMatchObject({ orderNumber });

    const other = await createUser({ paid: true });
    for (const asked of [orderNumber, "AIL-00000", "not-an-order", "AIL-<b>"]) {
      const refused = (await loadReceipt(other.cookie, asked)) as {
        data: { receipt: null };
        init: { status: number };
      };
      expect(refused.data.receipt).toBeNull();
      expect(refused.init.status).toBe(404);
    }
    expect(redirectTarget(await loadReceipt("", orderNumber))).toBe("/login");
  });
});
