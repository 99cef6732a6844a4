import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { passwordTooCommon } from "~/lib/password-rule";
import { getAuth } from "~/server/auth/better-auth.server";
import {
  hashingQueueLength,
  hashingSlots,
  passwordWork,
  serverBusy,
} from "~/server/auth/password.server";
import { signInLinkSent } from "~/server/auth/sign-in.server";
import { getDb } from "~/server/db/db.server";
import { emailOutbox, user } from "~/server/db/schema";
import { createTestApp } from "~/test/app-handler";
import { appRequest, origin, redirectTarget, run, uniqueEmail } from "~/test/helpers";
import * as login from "./login";
import * as signup from "./signup";

type FormResult = {
  init?: { status?: number };
  data: { fieldErrors: Record<string, string>; formError: string | null };
};

const { app } = await createTestApp();

function submit(form: Record<string, string>) {
  return run(() =>
    signup.action({ request: appRequest("/signup", { form }), params: {}, context: {} } as never),
  );
}

function asForm(result: unknown) {
  return result as FormResult;
}

describe("sign-up", () => {
  it("creates the account, signs in and lands on /payment-options", async () => {
    const email = uniqueEmail();
    const result = await submit({ name: "Ada Lovelace", email, password: "analytical engine" });
    expect(redirectTarget(result)).toBe("/payment-options");
    const cookies = (result as Response).headers.getSetCookie().join("\n");
    expect(cookies).toMatch(/session_token=/);
    expect(cookies).toMatch(/HttpOnly/i);
    expect(cookies).toMatch(/SameSite=Lax/i);
    const [row] = await (await getDb()).select().from(user).where(eq(user.email, email));
    expect(row?.name).toBe("Ada Lovelace");
    expect(row?.isAdmin).toBe(false);
  });

  it.each([
    [
      { name: "", email: uniqueEmail(), password: "long enough" },
      "name",
      "Please enter your full name",
    ],
    [
      { name: "A", email: "not-an-email", password: "long enough" },
      "email",
      "Please enter a valid email address",
    ],
    [
      { name: "A", email: uniqueEmail(), password: "ninechars" },
      "password",
      "Password must be at least 10 characters",
    ],
    [
      { name: "A", email: uniqueEmail(), password: "x".repeat(129) },
      "password",
      "Password must be at most 128 characters",
    ],
  ])("answers 400 with a field error for %o", async (form, field, message) => {
    const result = asForm(await submit(form));
    expect(result.init?.status).toBe(400);
    expect(result.data.fieldErrors[field]).toBe(message);
  });

  it.each([["1234567890"], ["Password123"], ["  qwertyuiop  "]])(
    "refuses %o, a password on the common-password list, and creates no account",
    async (password) => {
      const email = uniqueEmail();
      const result = asForm(await submit({ name: "A", email, password }));
      expect(result.init?.status).toBe(400);
      expect(result.data.formError).toBe(passwordTooCommon);
      expect(JSON.stringify(result.data)).not.toContain(password.trim());
      const db = await getDb();
      expect(await db.select().from(user).where(eq(user.email, email))).toHaveLength(0);
    },
  );

  it("never echoes the password back", async () => {
    const result = asForm(await submit({ name: "A", email: "bad", password: "secret-value-123" }));
    expect(JSON.stringify(result.data)).not.toContain("secret-value-123");
  });

  it("refuses an e-mail already in use with a clear message, in any letter case", async () => {
    const email = uniqueEmail();
    await submit({ name: "First", email, password: "first password" });
    const result = asForm(
      await submit({ name: "Second", email: email.toUpperCase(), password: "second password" }),
    );
    expect(result.init?.status).toBe(400);
    expect(result.data.formError).toBe(
      "An account with this email already exists. Sign in instead.",
    );
  });

  it("keeps isAdmin false when a sign-up request sends isAdmin: true", async () => {
    const auth = await getAuth();
    const email = uniqueEmail();
    await auth.api
      .signUpEmail({
        body: { name: "Mallory", email, password: "sneaky password", isAdmin: true } as never,
        headers: new Headers({ origin }),
      })
      .catch(() => undefined);
    const rows = await (await getDb()).select().from(user).where(eq(user.email, email));
    expect(rows.every((r) => r.isAdmin === false)).toBe(true);
  });
});

describe("login", () => {
  it("signs in with the right password and routes an unpaid user to /payment-options", async () => {
    const email = uniqueEmail();
    await submit({ name: "Grace", email, password: "compiler pass" });
    const result = await run(() =>
      login.action({
        request: appRequest("/login", { form: { email, password: "compiler pass" } }),
        params: {},
        context: {},
      } as never),
    );
    expect(redirectTarget(result)).toBe("/payment-options");
  });

  it("refuses a wrong password and stays on the page with the error", async () => {
    const email = uniqueEmail();
    await submit({ name: "Grace", email, password: "compiler pass" });
    const result = asForm(
      await run(() =>
        login.action({
          request: appRequest("/login", { form: { email, password: "wrong pass" } }),
          params: {},
          context: {},
        } as never),
      ),
    );
    expect(result.init?.status).toBe(400);
    expect(result.data.formError).toBe("Invalid email or password");
  });

  it("answers 400 with field errors for an empty form", async () => {
    const result = asForm(
      await run(() =>
        login.action({
          request: appRequest("/login", { form: {} }),
          params: {},
          context: {},
        } as never),
      ),
    );
    expect(result.init?.status).toBe(400);
    expect(Object.keys(result.data.fieldErrors).sort()).toEqual(["email", "password"]);
  });
});

describe("a busy server (decision 026)", () => {
  it("answers sign-up and sign-in 503 with Retry-After at once while the hashing queue is full, and nothing is created", async () => {
    // Hold every hashing slot and every place in line.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const holders = Array.from(
      { length: passwordWork.running() + hashingSlots + hashingQueueLength },
      () => passwordWork.run(() => held),
    );
    const email = uniqueEmail();
    const post = (path: string, form: Record<string, string>) =>
      app.fetch(
        new Request(`${origin}${path}`, {
          method: "POST",
          headers: {
            origin,
            accept: "text/html",
            "content-type": "application/x-www-form-urlencoded",
          },
          body: new URLSearchParams(form).toString(),
        }),
      );
    try {
      const started = performance.now();
      // The page (no JavaScript) and the data request the browser's form sends.
      for (const path of ["/signup", "/signup.data"]) {
        const answer = await post(path, { name: "Busy Day", email, password: "analytical engine" });
        expect(answer.status).toBe(503);
        expect(answer.headers.get("Retry-After")).toBe("5");
        expect(answer.headers.getSetCookie()).toEqual([]);
        expect(await answer.text()).toContain(serverBusy);
      }
      expect(performance.now() - started).toBeLessThan(2000);
      const signIn = await post("/login", { email, password: "analytical engine" });
      expect(signIn.status).toBe(503);
      expect(signIn.headers.get("Retry-After")).toBe("5");
      expect(await signIn.text()).toContain(serverBusy);
    } finally {
      release();
      await Promise.all(holders);
    }
    const rows = await (await getDb()).select().from(user).where(eq(user.email, email));
    expect(rows).toHaveLength(0);
    // Once the line clears, the same sign-up goes through.
    const again = await submit({ name: "Busy Day", email, password: "analytical engine" });
    expect(redirectTarget(again)).toBe("/payment-options");
  });
});

describe("login throttling", () => {
  it("refuses further attempts for an account after 10 failures, even with the right password", async () => {
    const email = uniqueEmail();
    await submit({ name: "Grace", email, password: "compiler pass" });
    const attempt = (password: string) =>
      run(() =>
        login.action({
          request: appRequest("/login", { form: { email, password } }),
          params: {},
          context: {},
        } as never),
      );
    for (let i = 0; i < 10; i++) expect(asForm(await attempt("wrong pass")).init?.status).toBe(400);
    const blocked = asForm(await attempt("compiler pass"));
    expect(blocked.init?.status).toBe(429);
    expect(blocked.data.formError).toMatch(/Too many attempts/);
  });

  it("past the account's limit for new places, the e-mailed link in the form lets the right password through", async () => {
    const email = uniqueEmail();
    await submit({ name: "Grace", email, password: "compiler pass" });
    const attempt = (form: Record<string, string>, clientIp: string) =>
      run(() =>
        login.action({
          request: appRequest("/login", { form: { email, ...form }, clientIp }),
          params: {},
          context: {},
        } as never),
      );
    for (const ip of ["203.0.113.31", "203.0.113.32", "203.0.113.33"]) {
      for (let i = 0; i < 10; i++) await attempt({ password: "wrong pass" }, ip);
    }
    const held = asForm(await attempt({ password: "compiler pass" }, "198.51.100.31"));
    expect(held.init?.status).toBe(429);
    expect(held.data.formError).toBe(signInLinkSent);
    const [mail] = await (await getDb())
      .select({ text: emailOutbox.text })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, email), eq(emailOutbox.subject, "Sign in to AI Labs")));
    const link = mail?.text.match(/\/login\?link=([\w-]+)/)?.[1] ?? "";
    expect(link).not.toBe("");
    const signedIn = await attempt({ password: "compiler pass", link }, "198.51.100.31");
    expect(redirectTarget(signedIn)).toBe("/payment-options");
  });
});
