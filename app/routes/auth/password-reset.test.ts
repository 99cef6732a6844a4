import { desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
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
    expired?: boolean;
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
    expect(again.data.expired).toBe(true);
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
    expect(result.data.expired).toBe(true);
    expect(redirectTarget(await signIn(u.email, u.password))).toBe("/payment-options");
  });

  it.each([
    [{ password: "short", confirmPassword: "short" }, "password", "at least 8 characters"],
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

  it("a page without a token or with an unknown one offers a new link", async () => {
    expect((await reset.loader(args(appRequest("/reset-password")))).usable).toBe(false);
    expect(
      (await reset.loader(args(appRequest("/reset-password?token=made-up-token")))).usable,
    ).toBe(false);
  });
});
