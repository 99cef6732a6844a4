import { randomUUID } from "node:crypto";
import { and, desc, eq, or } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { adminAccountKept } from "~/lib/account-forms";
import { sampleIdeas } from "~/lib/ideas";
import { offerDefaults } from "~/lib/offer";
import { cliActor, recordAudit, recordSecurityEvent } from "~/server/audit-log.server";
import { getAuth } from "~/server/auth/better-auth.server";
import { getSessionUser } from "~/server/auth/guards.server";
import { hasWorkingResetLink, storedResetIdentifier } from "~/server/auth/reset-links.server";
import { findSessionMember } from "~/server/auth/session.server";
import { getDb } from "~/server/db/db.server";
import {
  account as accountTable,
  auditLog,
  chapter,
  chapterProgress,
  course,
  courseVisit,
  emailOutbox,
  savedIdea,
  session,
  twoFactor,
  user,
  verification,
} from "~/server/db/schema";
import { saveIdea } from "~/server/ideas/saved-ideas.server";
import { fulfilPurchase, revokePurchase } from "~/server/payments/purchases.server";
import { refreshOfferSettings, writeOfferSettings } from "~/server/settings/offer-settings.server";
import {
  appRequest,
  cookieHeader,
  createUser,
  origin,
  purchasesOf,
  redirectTarget,
  run,
  type TestUser,
} from "~/test/helpers";
import { turnOnTwoFactor } from "~/test/two-factor";
import * as account from "./account";
import * as accountData from "./account-data";
import * as confirmEmail from "./confirm-email";
import * as receipt from "./receipt";

// /account: the name, the password, My purchases, deleting the account;
// /account/receipts/:orderNumber; /account/data.

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

/** A course with one chapter, the chapter marked done and last opened by the user. */
async function progressIn(userId: string) {
  const db = await getDb();
  const [c] = await db
    .insert(course)
    .values({ title: `Data course ${randomUUID()}` })
    .returning({ id: course.id, title: course.title });
  if (!c) throw new Error("no course");
  const [ch] = await db
    .insert(chapter)
    .values({ courseId: c.id, title: "Validate the idea", sortOrder: 1 })
    .returning({ id: chapter.id });
  if (!ch) throw new Error("no chapter");
  await db.insert(chapterProgress).values({ userId, chapterId: ch.id, courseId: c.id });
  await db.insert(courseVisit).values({ userId, chapterId: ch.id, courseId: c.id });
  return { courseTitle: c.title, chapterTitle: "Validate the idea" };
}

async function downloadData(cookie: string) {
  return run(() => accountData.loader(args(appRequest("/account/data", { cookie }))));
}

describe("your data", () => {
  it("downloads the account, its purchases with order numbers, progress and saved ideas, and no secret", async () => {
    const u = await createUser({ paid: true, name: "Data Owner" });
    const db = await getDb();
    const { courseTitle, chapterTitle } = await progressIn(u.id);
    const idea = sampleIdeas[0];
    if (!idea) throw new Error("no sample idea");
    expect((await saveIdea(db, u.id, idea)).ok).toBe(true);
    const secret = await turnOnTwoFactor(u);

    const response = await downloadData(u.cookie);
    if (!(response instanceof Response)) throw new Error("expected a Response");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(
      'attachment; filename="ai-labs-account-data.json"',
    );
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const text = await response.text();
    const file = JSON.parse(text);

    expect(Date.parse(file.exportedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(file.account).toEqual({
      name: "Data Owner",
      email: u.email,
      createdAt: expect.any(String),
      emailVerified: false,
      twoFactorEnabled: true,
    });
    const [bought] = await purchasesOf(u.id);
    expect(file.purchases).toEqual([
      {
        orderNumber: bought?.orderNumber,
        product: "Lifetime Access",
        amountCents: 2500,
        currency: "usd",
        provider: "test",
        status: "completed",
        createdAt: bought?.createdAt.toISOString(),
        refundedAt: null,
      },
    ]);
    expect(file.purchases[0].orderNumber).toMatch(/^AIL-[0-9A-HJKMNP-TV-Z]{5}$/);
    expect(file.progress).toEqual([
      { course: courseTitle, chapter: chapterTitle, completedAt: expect.any(String) },
    ]);
    expect(file.courseVisits).toEqual([
      { course: courseTitle, chapter: chapterTitle, visitedAt: expect.any(String) },
    ]);
    expect(file.savedIdeas).toEqual([
      { title: idea.title, idea: { ...idea }, createdAt: expect.any(String) },
    ]);

    // No password hash, session, two-factor secret or recovery code.
    expect(text).not.toMatch(/password|scrypt/i);
    const [own] = await db.select().from(session).where(eq(session.userId, u.id));
    const [factor] = await db.select().from(twoFactor).where(eq(twoFactor.userId, u.id));
    for (const kept of [own?.token, own?.id, secret, factor?.secret, factor?.backupCodes]) {
      expect(kept).toBeTruthy();
      expect(text).not.toContain(kept);
    }
  });

  it("sends a signed-out request to /login", async () => {
    expect(redirectTarget(await downloadData(""))).toBe("/login");
  });
});

describe("deleting the account", () => {
  const deleting = (form: Record<string, string>) => ({ intent: "delete-account", ...form });
  const refusal = async (cookie: string, form: Record<string, string>) => {
    const refused = (await postAccount(cookie, deleting(form))) as Refusal;
    expect(refused.init?.status).toBe(400);
    return refused.data.fieldErrors;
  };
  const userRow = async (id: string) =>
    (await (await getDb()).select().from(user).where(eq(user.id, id)))[0];

  it("refuses a wrong or missing password and an unticked box, and changes nothing", async () => {
    const u = await createUser({ paid: true, name: "Still Here" });
    expect(await refusal(u.cookie, { deletePassword: "not my password", confirm: "on" })).toEqual({
      deletePassword: "Incorrect password",
    });
    expect(await refusal(u.cookie, { confirm: "on" })).toEqual({
      deletePassword: "Please enter your password",
    });
    expect(await refusal(u.cookie, { deletePassword: "", confirm: "on" })).toEqual({
      deletePassword: "Please enter your password",
    });
    expect(await refusal(u.cookie, { deletePassword: u.password })).toEqual({
      confirm: "Tick the box to confirm",
    });
    expect(await userRow(u.id)).toMatchObject({ name: "Still Here", email: u.email });
    expect(await signedIn(u.cookie)).toBe(true);
    expect(await signedIn(await signInElsewhere(u))).toBe(true);
  });

  it("refuses an admin", async () => {
    const admin = await createUser({ isAdmin: true });
    expect(await refusal(admin.cookie, { deletePassword: admin.password, confirm: "on" })).toEqual({
      deleteAccount: adminAccountKept,
    });
    expect(await userRow(admin.id)).toMatchObject({ email: admin.email, isAdmin: true });
    expect(await signedIn(admin.cookie)).toBe(true);
  });

  it("ends every session, anonymises the account, keeps its purchases and leaves no address in the log", async () => {
    const u = await createUser({ paid: true, name: "Leaving Member" });
    const db = await getDb();
    await turnOnTwoFactor(u);
    const elsewhere = await signInElsewhere(u);
    await progressIn(u.id);
    const idea = sampleIdeas[1];
    if (!idea) throw new Error("no sample idea");
    await saveIdea(db, u.id, idea);
    // The account's own entry, and an admin's action on it.
    await recordSecurityEvent(db, u, "security.sign-in", "password");
    await recordAudit(db, cliActor(), { kind: "member.grant", target: u.email });
    const mail = { to: u.email, subject: "Hello", text: "Hi", html: "<p>Hi</p>" };
    await db.insert(emailOutbox).values([mail, { ...mail, sentAt: new Date() }]);
    const [before] = await purchasesOf(u.id);
    // A password reset link they asked for and never used.
    await db.insert(verification).values({
      id: randomUUID(),
      identifier: storedResetIdentifier(randomUUID()),
      value: u.id,
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    expect(await hasWorkingResetLink(db, u.id)).toBe(true);

    const done = await postAccount(
      u.cookie,
      deleting({ deletePassword: u.password, confirm: "on" }),
    );
    expect(redirectTarget(done)).toBe("/login?deleted=1");
    const cleared = (done as Response).headers.getSetCookie();
    expect(cleared.some((c) => /session_token=;.*Max-Age=0/i.test(c))).toBe(true);

    // Signed out everywhere; the old e-mail and password no longer sign in.
    expect(await signedIn(u.cookie)).toBe(false);
    expect(await signedIn(elsewhere)).toBe(false);
    await expect(signInElsewhere(u)).rejects.toThrow();

    // The purchase stays, for the seller's accounts, on an anonymised account.
    expect(await purchasesOf(u.id)).toEqual([before]);
    expect(before).toMatchObject({ amountCents: 2500, status: "completed" });
    expect(await userRow(u.id)).toMatchObject({
      name: "Deleted account",
      email: `deleted-${u.id}@deleted.invalid`,
      emailVerified: false,
      image: null,
      twoFactorEnabled: false,
    });
    const left = async (table: typeof chapterProgress | typeof savedIdea | typeof session) =>
      db.select().from(table).where(eq(table.userId, u.id));
    expect(await left(chapterProgress)).toEqual([]);
    expect(await left(savedIdea)).toEqual([]);
    expect(await left(session)).toEqual([]);
    expect(await db.select().from(accountTable).where(eq(accountTable.userId, u.id))).toEqual([]);
    expect(await db.select().from(twoFactor).where(eq(twoFactor.userId, u.id))).toEqual([]);
    expect(await db.select().from(emailOutbox).where(eq(emailOutbox.to, u.email))).toEqual([]);
    expect(await db.select().from(verification).where(eq(verification.value, u.id))).toEqual([]);

    // The log says what happened, and nowhere whose address it was.
    const named = await db
      .select()
      .from(auditLog)
      .where(or(eq(auditLog.actor, u.email), eq(auditLog.target, u.email)));
    expect(named).toEqual([]);
    const own = await db
      .select({ actor: auditLog.actor, kind: auditLog.kind })
      .from(auditLog)
      .where(eq(auditLog.actorId, u.id))
      .orderBy(auditLog.seq);
    expect(own.at(-1)).toEqual({ actor: "deleted account", kind: "security.account-deleted" });
    expect(own.every((entry) => entry.actor === "deleted account")).toBe(true);
    const granted = await db
      .select({ target: auditLog.target })
      .from(auditLog)
      .where(and(eq(auditLog.kind, "member.grant"), eq(auditLog.target, "deleted account")));
    expect(granted.length).toBeGreaterThan(0);

    // A sign-in racing the deletion may still add a session row once the deletion commits:
    // it signs nobody in.
    const token = `late-${randomUUID()}`;
    await db.insert(session).values({
      id: randomUUID(),
      token,
      userId: u.id,
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    expect(await findSessionMember(db, token)).toBeNull();
  });
});

describe("changing the e-mail address at /account", () => {
  const userRow = async (id: string) =>
    (await (await getDb()).select().from(user).where(eq(user.id, id)))[0];
  const mailTo = async (to: string) =>
    (await getDb())
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.to, to))
      .orderBy(desc(emailOutbox.createdAt));
  const tokenIn = (text: string) =>
    decodeURIComponent(/\/account\/confirm-email\?token=(\S+)/.exec(text)?.[1] ?? "");
  const confirm = (token: string) =>
    run(() => confirmEmail.action(args(appRequest("/account/confirm-email", { form: { token } }))));

  it("refuses a wrong password, the same address, another account's and a malformed one", async () => {
    const u = await createUser({ paid: true });
    const other = await createUser();
    const refused = async (form: Record<string, string>) =>
      ((await postAccount(u.cookie, { intent: "change-email", ...form })) as Refusal).data
        .fieldErrors;
    const fresh = `new-${randomUUID()}@example.test`;
    expect(await refused({ newEmail: fresh, emailPassword: "not it" })).toEqual({
      emailPassword: "Incorrect password",
    });
    expect(await refused({ newEmail: u.email, emailPassword: u.password })).toEqual({
      newEmail: "That is already your address.",
    });
    expect(
      await refused({ newEmail: other.email.toUpperCase(), emailPassword: u.password }),
    ).toEqual({
      newEmail: "That address belongs to another account.",
    });
    expect(await refused({ newEmail: "not an address", emailPassword: u.password })).toHaveProperty(
      "newEmail",
    );
    expect(await mailTo(fresh)).toEqual([]);
  });

  it("sends a link to the new address, tells the old one, and changes only once confirmed", async () => {
    const u = await createUser({ paid: true, name: "Moving Member" });
    const newEmail = `moved-${randomUUID()}@example.test`;
    const asked = await postAccount(u.cookie, {
      intent: "change-email",
      newEmail: newEmail.toUpperCase(),
      emailPassword: u.password,
    });
    expect(redirectTarget(asked)).toBe("/account");
    expect((await loadAccount(withSetCookies(u.cookie, asked))).notice).toBe(
      `We sent a link to ${newEmail}: open it to confirm your new address. Until then you sign in with ${u.email}.`,
    );
    const [link] = await mailTo(newEmail);
    expect(link?.subject).toBe("Confirm your new AI Labs e-mail address");
    const [told] = await mailTo(u.email);
    expect(told?.subject).toBe("Your AI Labs e-mail address is being changed");
    expect(told?.text).toContain(newEmail);
    const token = tokenIn(link?.text ?? "");
    expect(token.length).toBeGreaterThan(20);

    // Nothing changed yet: the old address signs in; opening the link changes nothing.
    expect(await signedIn(await signInElsewhere(u))).toBe(true);
    const page = (await confirmEmail.loader(
      args(appRequest(`/account/confirm-email?token=${encodeURIComponent(token)}`)),
    )) as { newEmail: string | null };
    expect(page.newEmail).toBe(newEmail);
    expect((await userRow(u.id))?.email).toBe(u.email);

    // Confirmed: the new address signs in, the old one no longer; the old one is told.
    expect(await confirm(token)).toEqual({ changed: newEmail });
    expect(await userRow(u.id)).toMatchObject({ email: newEmail, emailVerified: true });
    expect(await signedIn(await signInElsewhere({ ...u, email: newEmail }))).toBe(true);
    await expect(signInElsewhere(u)).rejects.toThrow();
    expect((await mailTo(u.email))[0]?.subject).toBe("Your AI Labs e-mail address was changed");
    const db = await getDb();
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, u.id), eq(auditLog.kind, "security.email-change")));
    expect(entry?.actor).toBe(newEmail);

    // Once only.
    const again = (await confirm(token)) as {
      data: { formError: string };
      init: { status: number };
    };
    expect(again.init.status).toBe(400);
    expect(again.data.formError).toBe("This link has expired or has already been used.");
  });

  it("waits while a marketplace sale on the account waits for its address to be proved", async () => {
    const u = await createUser();
    const db = await getDb();
    await fulfilPurchase(db, {
      userId: u.id,
      provider: "warriorplus",
      providerRef: `wp_${randomUUID()}`,
      product: "lifetime-access",
      amountCents: 1700,
      currency: "usd",
      awaitsAddressProof: true,
    });
    await db.update(user).set({ isAdmin: true }).where(eq(user.id, u.id));
    const refused = (await postAccount(u.cookie, {
      intent: "change-email",
      newEmail: `elsewhere-${randomUUID()}@example.test`,
      emailPassword: u.password,
    })) as Refusal;
    expect(refused.data.fieldErrors.newEmail).toMatch(/^A purchase on this account waits/);
  });
});
