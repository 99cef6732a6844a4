import { desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { passwordTooCommon } from "~/lib/password-rule";
import { getSessionUser } from "~/server/auth/guards.server";
import { resetRequestedMessage, storedResetIdentifier } from "~/server/auth/password-reset.server";
import { getDb } from "~/server/db/db.server";
import { emailOutbox, verification } from "~/server/db/schema";
import { appRequest, createUser, redirectTarget, run, uniqueEmail } from "~/test/helpers";
import * as forgot from "./forgot-password";
import * as login from "./login";
import * as reset from "./reset-password";

type FormResult = {
  init?: { status?: number };
  data: {
    fieldErrors: Record<string, string>;
    formError: string | null;
    sent?: string | null;
  };
};

const args = (request: Request) => ({ request, params: {}, context: {} }) as never;

async function askForLink(email: string) {
  return run(() => forgot.action(args(appRequest("/forgot-password", { form: { email } }))));
}

async function outboxTo(email: string) {
  const db = await getDb();
  return db
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.to, email))
    .orderBy(desc(emailOutbox.createdAt));
}

/** The token of the newest reset link e-mailed to this address. */
async function tokenMailedTo(email: string): Promise<string> {
  const [message] = await outboxTo(email);
  const token = message?.text.match(/\/reset-password\?token=([\w-]+)/)?.[1];
  if (!token) throw new Error("no reset link in the outbox");
  return token;
}

function submitReset(form: Record<string, string>) {
  return run(() => reset.action(args(appRequest("/reset-password", { form }))));
}

function signIn(email: string, password: string) {
  return run(() => login.action(args(appRequest("/login", { form: { email, password } }))));
}

describe("forgot password", () => {
  it("e-mails a one-hour link to an existing account and answers the same message", async () => {
    const u = await createUser({ name: "Forgetful Fred" });
    const result = (await askForLink(u.email.toUpperCase())) as FormResult["data"];
    expect(result.sent).toBe(resetRequestedMessage);
    const [message] = await outboxTo(u.email);
    expect(message?.subject).toBe("Reset your AI Labs password");
    expect(message?.text).toContain("Hi Forgetful Fred,");
    expect(message?.text).toContain("valid for 1 hour");
    expect(message?.text).toContain("http://localhost:3000/reset-password?token=");
    const token = await tokenMailedTo(u.email);
    const [row] = await (await getDb())
      .select()
      .from(verification)
      .where(eq(verification.identifier, storedResetIdentifier(token)));
    const minutesLeft = ((row?.expiresAt.getTime() ?? 0) - Date.now()) / 60_000;
    expect(minutesLeft).toBeGreaterThan(58);
    expect(minutesLeft).toBeLessThanOrEqual(60);
    // Stored hashed: no row holds the token itself.
    const all = await (await getDb())
      .select({ identifier: verification.identifier })
      .from(verification);
    expect(all.some((r) => r.identifier.includes(token))).toBe(false);
  });

  it("answers the same message for an unknown address and sends nothing", async () => {
    const email = uniqueEmail("nobody");
    const result = (await askForLink(email)) as FormResult["data"];
    expect(result.sent).toBe(resetRequestedMessage);
    expect(await outboxTo(email)).toHaveLength(0);
  });

  it("answers 400 with a field error for an invalid address", async () => {
    const result = (await askForLink("not-an-email")) as FormResult;
    expect(result.init?.status).toBe(400);
    expect(result.data.fieldErrors.email).toBe("Please enter a valid email address");
  });

  it("limits requests per address: the fourth within the hour is refused", async () => {
    const u = await createUser();
    for (let i = 0; i < 3; i++) {
      expect(((await askForLink(u.email)) as FormResult["data"]).sent).toBe(resetRequestedMessage);
    }
    const blocked = (await askForLink(u.email)) as FormResult;
    expect(blocked.init?.status).toBe(429);
    expect(blocked.data.formError).toMatch(/Too many attempts/);
    expect(await outboxTo(u.email)).toHaveLength(3);
  });
});

describe("reset password", () => {
  it("sets the new password, signs every session out and lands on /login with a message", async () => {
    const u = await createUser();
    await askForLink(u.email);
    const token = await tokenMailedTo(u.email);
    const page = await reset.loader(args(appRequest(`/reset-password?token=${token}`)));
    expect(page).toEqual({ token, usable: true });

    const result = await submitReset({
      token,
      password: "brand new password",
      confirmPassword: "brand new password",
    });
    expect(redirectTarget(result)).toBe("/login?reset=1");
    expect((result as Response).headers.getSetCookie().join("\n")).toMatch(
      /better-auth\.session_token=; Path=\/; Max-Age=0/,
    );
    // The session the user had before is gone.
    expect(await getSessionUser(appRequest("/dashboard", { cookie: u.cookie }))).toBeNull();
    expect(redirectTarget(await signIn(u.email, "brand new password"))).toBe("/payment-options");
    expect(((await signIn(u.email, u.password)) as FormResult).init?.status).toBe(400);
  });

  it("works once: the used link says it has expired and offers a new one", async () => {
    const u = await createUser();
    await askForLink(u.email);
    const token = await tokenMailedTo(u.email);
    const form = { token, password: "first new password", confirmPassword: "first new password" };
    expect(redirectTarget(await submitReset(form))).toBe("/login?reset=1");
    const again = (await submitReset({
      ...form,
      password: "second new password",
      confirmPassword: "second new password",
    })) as FormResult;
    expect(again.init?.status).toBe(400);
    expect(again.data.formError).toBe("This link has expired or has already been used.");
    const page = await reset.loader(args(appRequest(`/reset-password?token=${token}`)));
    expect(page.usable).toBe(false);
  });

  it("refuses an expired link", async () => {
    const u = await createUser();
    await askForLink(u.email);
    const token = await tokenMailedTo(u.email);
    await (await getDb())
      .update(verification)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verification.identifier, storedResetIdentifier(token)));
    const page = await reset.loader(args(appRequest(`/reset-password?token=${token}`)));
    expect(page.usable).toBe(false);
    const result = (await submitReset({
      token,
      password: "too late password",
      confirmPassword: "too late password",
    })) as FormResult;
    expect(result.init?.status).toBe(400);
    expect(result.data.formError).toBe("This link has expired or has already been used.");
    expect(redirectTarget(await signIn(u.email, u.password))).toBe("/payment-options");
  });

  it.each([
    [{ password: "ninechars", confirmPassword: "ninechars" }, "password", "at least 10 characters"],
    [
      { password: "long enough one", confirmPassword: "long enough two" },
      "confirmPassword",
      "The passwords do not match",
    ],
  ])(
    "answers 400 with a clear field error for %o, never echoing it",
    async (fields, field, msg) => {
      const u = await createUser();
      await askForLink(u.email);
      const token = await tokenMailedTo(u.email);
      const result = (await submitReset({ token, ...fields })) as FormResult;
      expect(result.init?.status).toBe(400);
      expect(result.data.fieldErrors[field]).toContain(msg);
      expect(JSON.stringify(result.data)).not.toContain(fields.password);
      // The link still works after a validation error.
      expect((await reset.loader(args(appRequest(`/reset-password?token=${token}`)))).usable).toBe(
        true,
      );
    },
  );

  it("refuses a common password with a field error, and the link still works", async () => {
    const u = await createUser();
    await askForLink(u.email);
    const token = await tokenMailedTo(u.email);
    const common = { token, password: "password1234", confirmPassword: "password1234" };
    const result = (await submitReset(common)) as FormResult;
    expect(result.init?.status).toBe(400);
    expect(result.data.fieldErrors.password).toBe(passwordTooCommon);
    expect(await reset.loader(args(appRequest(`/reset-password?token=${token}`)))).toEqual({
      token,
      usable: true,
    });
    expect(redirectTarget(await signIn(u.email, u.password))).toBe("/payment-options");
  });

  it("a page without a token or with an unknown one offers a new link", async () => {
    expect((await reset.loader(args(appRequest("/reset-password")))).usable).toBe(false);
    expect(
      (await reset.loader(args(appRequest("/reset-password?token=made-up-token")))).usable,
    ).toBe(false);
  });
});

describe("reset links of one account", () => {
  const usable = async (token: string) =>
    (await reset.loader(args(appRequest(`/reset-password?token=${token}`)))).usable;
  const askFrom = (email: string, clientIp: string) =>
    run(() =>
      forgot.action(args(appRequest("/forgot-password", { form: { email }, clientIp }))),
    ) as Promise<FormResult["data"] | FormResult>;

  it("a new request replaces the older link", async () => {
    const u = await createUser();
    await askFrom(u.email, "192.0.2.41");
    const first = await tokenMailedTo(u.email);
    await askFrom(u.email, "192.0.2.41");
    const second = await tokenMailedTo(u.email);
    expect(second).not.toBe(first);
    expect(await usable(first)).toBe(false);
    expect(await usable(second)).toBe(true);
  });

  it("using one link ends every other outstanding link of the account", async () => {
    const u = await createUser();
    const other = await createUser();
    await askFrom(u.email, "192.0.2.42");
    const mailed = await tokenMailedTo(u.email);
    // Links made another way stay outstanding beside it (a set-password link kept from
    // before this version, say); another account's link is not touched.
    const db = await getDb();
    const older = "an-older-link-of-the-same-account";
    const othersLink = "a-link-of-another-account";
    for (const [token, userId] of [
      [older, u.id],
      [othersLink, other.id],
    ] as const) {
      await db.insert(verification).values({
        id: crypto.randomUUID(),
        identifier: storedResetIdentifier(token),
        value: userId,
        expiresAt: new Date(Date.now() + 3_600_000),
      });
    }
    expect(await usable(older)).toBe(true);
    const form = { token: mailed, password: "a new password", confirmPassword: "a new password" };
    expect(redirectTarget(await submitReset(form))).toBe("/login?reset=1");
    expect(await usable(older)).toBe(false);
    expect(await usable(othersLink)).toBe(true);
    const again = (await submitReset({ ...form, token: older })) as FormResult;
    expect(again.data.formError).toBe("This link has expired or has already been used.");
  });

  it("requests made by others cannot use up the member's own", async () => {
    const u = await createUser();
    // The member signs in from home once: an address the account knows.
    const home = "192.0.2.43";
    const signedIn = await run(() =>
      login.action(
        args(
          appRequest("/login", { form: { email: u.email, password: u.password }, clientIp: home }),
        ),
      ),
    );
    expect(redirectTarget(signedIn)).toBe("/payment-options");
    // Strangers at many addresses ask for the member's links until they are refused.
    let refused = 0;
    for (let i = 1; i <= 8; i++) {
      for (let n = 0; n < 3; n++) {
        const answer = await askFrom(u.email, `203.0.113.${100 + i}`);
        if ("init" in answer && answer.init?.status === 429) refused += 1;
      }
    }
    expect(refused).toBeGreaterThan(0);
    const sentBefore = (await outboxTo(u.email)).length;
    // The member, at home, still gets a link, and it is the one that works.
    expect(((await askFrom(u.email, home)) as FormResult["data"]).sent).toBe(resetRequestedMessage);
    expect(await outboxTo(u.email)).toHaveLength(sentBefore + 1);
    expect(await usable(await tokenMailedTo(u.email))).toBe(true);
  });
});
