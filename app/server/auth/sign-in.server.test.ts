import { and, desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/server/db/db.server";
import { account, emailOutbox, signInAddress } from "~/server/db/schema";
import { loadEnv } from "~/server/env.server";
import { appRequest, createUser, uniqueEmail } from "~/test/helpers";
import { hashPassword, testPasswordCost } from "./password.server";
import { createRateLimits } from "./rate-limit.server";
import { signInLinkSent, signInWithPassword } from "./sign-in.server";
import { isSignInLinkFor } from "./sign-in-link.server";

// docs/decisions/021-no-sign-in-lockout.md: nobody can lock a member out of sign-in.

/** The limits a server process starts with (the defaults): a new set is a restart. */
const freshLimits = () => createRateLimits(loadEnv({ DATA_DIR: "memory://" }).rateLimits);

const signIn = (
  limits: ReturnType<typeof freshLimits>,
  clientIp: string,
  credentials: { email: string; password: string; link?: string },
) => signInWithPassword(appRequest("/login", { form: {}, clientIp }), credentials, limits);

/** 30 wrong passwords from 3 addresses, 10 each: the per-address-and-e-mail limit of each. */
async function guessFromThreeAddresses(limits: ReturnType<typeof freshLimits>, email: string) {
  for (const ip of ["203.0.113.11", "203.0.113.12", "203.0.113.13"]) {
    for (let i = 0; i < 10; i++) {
      const outcome = await signIn(limits, ip, { email, password: `wrong guess ${i}` });
      expect(outcome).toMatchObject({ status: "refused", httpStatus: 400 });
    }
  }
}

/** The sign-in links e-mailed to this address, newest first. */
async function linksMailedTo(email: string) {
  return (await getDb())
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to, email), eq(emailOutbox.subject, "Sign in to AI Labs")))
    .orderBy(desc(emailOutbox.createdAt));
}

describe("sign-in lockout", () => {
  it("30 wrong passwords from 3 addresses leave the owner's usual address open, after a restart too", async () => {
    const owner = await createUser({ isAdmin: true });
    const home = "198.51.100.21";
    expect(await signIn(freshLimits(), home, owner)).toMatchObject({ status: "signed-in" });
    const db = await getDb();
    expect(
      await db.select().from(signInAddress).where(eq(signInAddress.userId, owner.id)),
    ).toMatchObject([{ address: home }]);

    // The server restarts (no memory of the sign-in above), then strangers guess.
    const limits = freshLimits();
    await guessFromThreeAddresses(limits, owner.email);
    // A stranger at a fourth address is held back...
    expect(
      await signIn(limits, "203.0.113.14", { email: owner.email, password: "another guess" }),
    ).toMatchObject({ status: "refused", httpStatus: 429 });
    // ...the owner at home is not.
    expect(await signIn(limits, home, owner)).toMatchObject({
      status: "signed-in",
      home: "/dashboard",
    });
  });

  it("from a new address past the account's limit: a one-time sign-in link by e-mail lets the right password through once", async () => {
    const member = await createUser({ paid: true });
    const limits = freshLimits();
    await guessFromThreeAddresses(limits, member.email);

    const travelling = "198.51.100.22";
    const held = await signIn(limits, travelling, member);
    expect(held).toEqual({ status: "refused", httpStatus: 429, error: signInLinkSent });
    const [mail] = await linksMailedTo(member.email);
    const link = mail?.text.match(/\/login\?link=([\w-]+)/)?.[1];
    if (!link) throw new Error("no sign-in link in the e-mail");

    // A stranger keeps failing, and sends no more e-mails (one link per window).
    expect(
      await signIn(limits, "203.0.113.15", { email: member.email, password: "guess again" }),
    ).toMatchObject({ status: "refused", httpStatus: 429 });
    expect(await linksMailedTo(member.email)).toHaveLength(1);
    // A link does not help a wrong password, nor another account's e-mail.
    expect(
      await signIn(limits, "203.0.113.16", { email: member.email, password: "guessing", link }),
    ).toMatchObject({ status: "refused", httpStatus: 400 });

    expect(await signIn(limits, travelling, { ...member, link })).toMatchObject({
      status: "signed-in",
      home: "/dashboard",
    });
    // Used once: it is gone, and this address is now known.
    expect(await isSignInLinkFor(await getDb(), link, member.email)).toBe(false);
    expect(await signIn(limits, travelling, member)).toMatchObject({ status: "signed-in" });
  });

  it("answers an unknown e-mail with a common password exactly like a wrong password for an account", async () => {
    const member = await createUser({ paid: true });
    const limits = freshLimits();
    const common = "password1234";
    const wrong = await signIn(limits, "203.0.113.31", { email: member.email, password: common });
    const unknown = await signIn(limits, "203.0.113.32", {
      email: uniqueEmail(),
      password: common,
    });
    expect(wrong).toEqual({
      status: "refused",
      httpStatus: 400,
      error: "Invalid email or password",
    });
    expect(unknown).toEqual(wrong);
  });

  it("answers an unknown e-mail past its limit the same way, and sends nothing", async () => {
    const email = uniqueEmail("nobody");
    const limits = freshLimits();
    await guessFromThreeAddresses(limits, email);
    expect(await signIn(limits, "198.51.100.23", { email, password: "any password" })).toEqual({
      status: "refused",
      httpStatus: 429,
      error: signInLinkSent,
    });
    expect(await linksMailedTo(email)).toHaveLength(0);
  });
});

describe("password hash upgrade", () => {
  it("rehashes a hash of an older cost at the next successful sign-in, not at a failed one", async () => {
    const u = await createUser();
    const db = await getDb();
    // The earliest format: no cost in the hash, r=16.
    const [, , salt, key] = (await hashPassword(u.password, { N: 16384, r: 16, p: 1 })).split("$");
    const legacy = `scrypt$${salt}$${key}`;
    await db.update(account).set({ password: legacy }).where(eq(account.userId, u.id));
    const stored = async () =>
      (await db.select({ hash: account.password }).from(account).where(eq(account.userId, u.id)))[0]
        ?.hash;

    const limits = freshLimits();
    expect(
      await signIn(limits, "198.51.100.24", { ...u, password: "not the password" }),
    ).toMatchObject({ status: "refused" });
    expect(await stored()).toBe(legacy);

    expect(await signIn(limits, "198.51.100.24", u)).toMatchObject({ status: "signed-in" });
    const upgraded = await stored();
    const { N, r, p } = testPasswordCost;
    expect(upgraded).toMatch(new RegExp(`^scrypt\\$n=${N},r=${r},p=${p}\\$`));
    expect(await signIn(limits, "198.51.100.24", u)).toMatchObject({ status: "signed-in" });
    expect(await stored()).toBe(upgraded);
  });
});
