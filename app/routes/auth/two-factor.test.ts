import { symmetricDecrypt, symmetricEncrypt } from "better-auth/crypto";
import { desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as root from "~/root";
import * as account from "~/routes/members/account";
import { getSessionUser } from "~/server/auth/guards.server";
import { createSetPasswordToken, resetPassword } from "~/server/auth/password-reset.server";
import { createRateLimits, tooManyAttempts } from "~/server/auth/rate-limit.server";
import { hashStoredRecoveryCodes } from "~/server/auth/recovery-codes.server";
import { verifySignInCode } from "~/server/auth/sign-in.server";
import { totpCodeUsed } from "~/server/auth/two-factor.server";
import { getDb } from "~/server/db/db.server";
import { auditLog, session, twoFactor, user } from "~/server/db/schema";
import { getEnv, loadEnv } from "~/server/env.server";
import {
  appRequest,
  createUser,
  redirectTarget,
  run,
  type TestUser,
  uniqueEmail,
} from "~/test/helpers";
import { totpCode } from "~/test/totp";
import * as login from "./login";
import * as loginTwoFactor from "./login-two-factor";

type ActionResult = {
  data: {
    fieldErrors: Record<string, string>;
    formError: string | null;
    setup?: { secret: string; uri: string; qrCode: string };
    recoveryCodes?: string[];
  };
  init?: { status?: number; headers?: HeadersInit } | null;
};
const asResult = (r: unknown) => r as ActionResult;

/** A browser's cookie jar: the Cookie header after applying Set-Cookie headers. */
function applyCookies(cookie: string, headers: Headers | HeadersInit | undefined): string {
  const jar = new Map(
    cookie
      .split("; ")
      .filter(Boolean)
      .map((c) => [c.slice(0, c.indexOf("=")), c.slice(c.indexOf("=") + 1)] as const),
  );
  for (const set of new Headers(headers).getSetCookie()) {
    const [pair = ""] = set.split(";");
    const name = pair.slice(0, pair.indexOf("="));
    const value = pair.slice(pair.indexOf("=") + 1);
    if (!value || /max-age=0/i.test(set)) jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([n, v]) => `${n}=${v}`).join("; ");
}

const args = (request: Request) => ({ request, params: {}, context: {} }) as never;

async function postAccount(cookie: string, form: Record<string, string>) {
  return run(() => account.action(args(appRequest("/account", { cookie, form }))));
}

/** Turns TOTP on for the user through /account; the secret, recovery codes and new cookie. */
async function enableTwoFactor(u: TestUser) {
  const started = asResult(await postAccount(u.cookie, { intent: "enable", password: u.password }));
  const setup = started.data.setup;
  if (!setup) throw new Error(`enable failed: ${JSON.stringify(started.data)}`);
  const confirmed = await postAccount(u.cookie, {
    intent: "confirm",
    code: totpCode(setup.secret),
    uri: setup.uri,
  });
  if (redirectTarget(confirmed) !== "/account") throw new Error("confirm failed");
  const shown = await loadAccount(applyCookies(u.cookie, (confirmed as Response).headers));
  return {
    secret: setup.secret,
    recoveryCodes: shown.data.recoveryCodes ?? [],
    cookie: shown.cookie,
  };
}

/** GET /account: its data and the cookie jar after it. */
async function loadAccount(cookie: string) {
  const result = (await account.loader(args(appRequest("/account", { cookie })))) as unknown as {
    data: { twoFactorEnabled: boolean; recoveryCodes: string[] | null };
    init?: { headers?: HeadersInit };
  };
  return { data: result.data, cookie: applyCookies(cookie, result.init?.headers) };
}

/** Posts e-mail and password to /login; the response and the cookie jar after it. */
async function signInWithPassword(u: TestUser, cookie = "") {
  const form = { email: u.email, password: u.password };
  const result = await run(() => login.action(args(appRequest("/login", { cookie, form }))));
  const headers = result instanceof Response ? result.headers : undefined;
  return { result, cookie: applyCookies(cookie, headers) };
}

async function submitCode(cookie: string, form: Record<string, string>) {
  const result = await run(() =>
    loginTwoFactor.action(args(appRequest("/login/two-factor", { cookie, form }))),
  );
  const headers = result instanceof Response ? result.headers : undefined;
  return { result, cookie: applyCookies(cookie, headers) };
}

async function twoFactorRow(userId: string) {
  const db = await getDb();
  const [u] = await db.select().from(user).where(eq(user.id, userId));
  const [row] = await db.select().from(twoFactor).where(eq(twoFactor.userId, userId));
  return { enabled: u?.twoFactorEnabled, row };
}

describe("turning two-factor on at /account", () => {
  it("asks for the password, shows a QR code and key, and turns on with a correct code", async () => {
    const u = await createUser({ paid: true });
    const wrongPassword = asResult(
      await postAccount(u.cookie, { intent: "enable", password: "not my password" }),
    );
    expect(wrongPassword.init?.status).toBe(400);
    expect(wrongPassword.data.fieldErrors.password).toBe("Incorrect password");

    const started = asResult(
      await postAccount(u.cookie, { intent: "enable", password: u.password }),
    );
    const setup = started.data.setup;
    expect(setup?.secret).toMatch(/^[A-Z2-7]{32,}$/);
    expect(setup?.uri).toMatch(/^otpauth:\/\/totp\/AI%20Labs:/);
    expect(setup?.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(setup?.qrCode.split(",")[1] ?? "", "base64").toString()).toContain("<svg");
    // Pending until confirmed.
    expect((await twoFactorRow(u.id)).enabled).toBe(false);

    const wrong = asResult(
      await postAccount(u.cookie, { intent: "confirm", code: "000000", uri: setup?.uri ?? "" }),
    );
    expect(wrong.init?.status).toBe(400);
    expect(wrong.data.fieldErrors.code).toMatch(/not right/);
    expect(wrong.data.setup?.secret).toBe(setup?.secret);
    expect((await twoFactorRow(u.id)).enabled).toBe(false);

    const confirmed = await postAccount(u.cookie, {
      intent: "confirm",
      code: totpCode(setup?.secret ?? ""),
      uri: setup?.uri ?? "",
    });
    expect(redirectTarget(confirmed)).toBe("/account");
    const state = await twoFactorRow(u.id);
    expect(state.enabled).toBe(true);
    expect(state.row?.verified).toBe(true);
    // Better Auth replaced the session: the old cookie is signed out, the new one signed in.
    expect(await getSessionUser(appRequest("/account", { cookie: u.cookie }))).toBeNull();
    const cookie = applyCookies(u.cookie, (confirmed as Response).headers);
    expect((await getSessionUser(appRequest("/account", { cookie })))?.twoFactorEnabled).toBe(true);

    // The next /account page shows the 10 recovery codes, once.
    const shown = await loadAccount(cookie);
    expect(shown.data.twoFactorEnabled).toBe(true);
    expect(shown.data.recoveryCodes).toHaveLength(10);
    expect(new Set(shown.data.recoveryCodes).size).toBe(10);
    // Without characters that are easy to confuse (0/O, 1/l/I).
    for (const code of shown.data.recoveryCodes ?? []) {
      expect(code).toMatch(/^[2-9A-HJKMNP-Z]{5}-[2-9A-HJKMNP-Z]{5}$/);
    }
    expect((await loadAccount(shown.cookie)).data.recoveryCodes).toBeNull();
    // Stored encrypted, not as given.
    expect(state.row?.secret).not.toContain(setup?.secret);
    expect(state.row?.backupCodes).not.toContain(shown.data.recoveryCodes?.[0]);
    // Confirming again shows nothing new.
    const again = await postAccount(shown.cookie, {
      intent: "confirm",
      code: totpCode(setup?.secret ?? ""),
      uri: setup?.uri ?? "",
    });
    expect(asResult(again).data.fieldErrors.code).toMatch(/already on/);
    expect((await loadAccount(shown.cookie)).data.recoveryCodes).toBeNull();
  });

  it("is for members only", async () => {
    const u = await createUser();
    const result = await run(() =>
      account.loader(args(appRequest("/account", { cookie: u.cookie }))),
    );
    expect(redirectTarget(result)).toBe("/payment-options");
  });

  it("prompts an admin until two-factor is on", async () => {
    const u = await createUser({ isAdmin: true });
    const load = async (cookie: string) =>
      (await root.loader(args(appRequest("/dashboard", { cookie })))).user;
    expect(await load(u.cookie)).toMatchObject({ isAdmin: true, twoFactorEnabled: false });
    const { cookie } = await enableTwoFactor(u);
    expect(await load(cookie)).toMatchObject({ isAdmin: true, twoFactorEnabled: true });
  });
});

describe("signing in with two-factor on", () => {
  it("after the password, is not signed in until a correct code", async () => {
    const u = await createUser({ paid: true });
    const { secret } = await enableTwoFactor(u);
    const db = await getDb();
    const sessionsBefore = await db.select().from(session).where(eq(session.userId, u.id));

    const first = await signInWithPassword(u);
    expect(redirectTarget(first.result)).toBe("/login/two-factor");
    expect(first.cookie).toMatch(/better-auth\.two_factor=/);
    expect(first.cookie).not.toMatch(/session_token=/);
    // The intermediate state is no session: no row was kept, and no page sees a user.
    expect(await db.select().from(session).where(eq(session.userId, u.id))).toHaveLength(
      sessionsBefore.length,
    );
    expect(await getSessionUser(appRequest("/dashboard", { cookie: first.cookie }))).toBeNull();
    const dashboard = await import("~/routes/members/dashboard");
    expect(
      redirectTarget(
        await run(() => dashboard.loader(args(appRequest("/dashboard", { cookie: first.cookie })))),
      ),
    ).toBe("/login");

    // The code step shows for the pending sign-in only.
    expect(
      await run(() =>
        loginTwoFactor.loader(args(appRequest("/login/two-factor", { cookie: first.cookie }))),
      ),
    ).toEqual({ method: "totp" });
    expect(
      redirectTarget(await run(() => loginTwoFactor.loader(args(appRequest("/login/two-factor"))))),
    ).toBe("/login");

    const wrong = await submitCode(first.cookie, { method: "totp", code: "000000" });
    expect(asResult(wrong.result).init?.status).toBe(400);
    expect(asResult(wrong.result).data.formError).toMatch(/not right/);
    expect(await getSessionUser(appRequest("/dashboard", { cookie: wrong.cookie }))).toBeNull();

    const right = await submitCode(first.cookie, { method: "totp", code: totpCode(secret) });
    expect(redirectTarget(right.result)).toBe("/dashboard");
    const signedIn = await getSessionUser(appRequest("/dashboard", { cookie: right.cookie }));
    expect(signedIn?.id).toBe(u.id);
    expect(right.cookie).not.toMatch(/two_factor=/);
  });

  it("routes a user without payment to /payment-options after the code", async () => {
    const u = await createUser();
    // /account is for members; turn it on as a member, then take the payment away.
    const db = await getDb();
    await db.update(user).set({ isAdmin: true }).where(eq(user.id, u.id));
    const { secret } = await enableTwoFactor(u);
    await db.update(user).set({ isAdmin: false }).where(eq(user.id, u.id));
    const first = await signInWithPassword(u);
    const right = await submitCode(first.cookie, { method: "totp", code: totpCode(secret) });
    expect(redirectTarget(right.result)).toBe("/payment-options");
  });

  it("takes a recovery code instead, once only", async () => {
    const u = await createUser({ paid: true });
    const { recoveryCodes } = await enableTwoFactor(u);
    const [code, other = ""] = recoveryCodes;

    const first = await signInWithPassword(u);
    expect(
      await run(() =>
        loginTwoFactor.loader(
          args(appRequest("/login/two-factor?method=recovery", { cookie: first.cookie })),
        ),
      ),
    ).toEqual({ method: "recovery" });
    const used = await submitCode(first.cookie, { method: "recovery", code: code ?? "" });
    expect(redirectTarget(used.result)).toBe("/dashboard");

    const second = await signInWithPassword(u);
    const reused = await submitCode(second.cookie, { method: "recovery", code: code ?? "" });
    expect(asResult(reused.result).init?.status).toBe(400);
    expect(asResult(reused.result).data.formError).toMatch(/not valid or was already used/);
    // Another code works, typed without its dash.
    const withoutDash = await submitCode(second.cookie, {
      method: "recovery",
      code: other.replace("-", ""),
    });
    expect(redirectTarget(withoutDash.result)).toBe("/dashboard");
  });

  it("counts code attempts per account and answers 429 past the limit", async () => {
    const u = await createUser({ paid: true });
    const { secret } = await enableTwoFactor(u);
    const limits = createRateLimits(
      loadEnv({ DATA_DIR: "memory://", RATE_LIMIT_TWO_FACTOR_PER_ACCOUNT: "2" }).rateLimits,
    );
    const first = await signInWithPassword(u);
    const attempt = (code: string) =>
      verifySignInCode(
        appRequest("/login/two-factor", { cookie: first.cookie }),
        { method: "totp", code },
        limits,
      );
    expect(await attempt("000000")).toMatchObject({ status: "refused", httpStatus: 400 });
    expect(await attempt("000001")).toMatchObject({ status: "refused", httpStatus: 400 });
    // Even the right code is refused once the account's window is used up.
    expect(await attempt(totpCode(secret))).toMatchObject({
      status: "refused",
      httpStatus: 429,
      error: "Too many attempts. Please wait a few minutes and try again.",
    });
  });

  it("refuses a forged or missing pending sign-in cookie", async () => {
    const forged = await submitCode("better-auth.two_factor=2fa-abc.c2lnbmF0dXJl", {
      method: "totp",
      code: "123456",
    });
    expect(asResult(forged.result).init?.status).toBe(400);
    expect(asResult(forged.result).data.formError).toMatch(/expired/);
    expect(getEnv().authSecret).toBeTruthy();
  });
});

describe("a code is accepted once", () => {
  it("an authenticator code that signed one session in cannot sign in another", async () => {
    const u = await createUser({ paid: true });
    const { secret } = await enableTwoFactor(u);
    const code = totpCode(secret);
    const first = await signInWithPassword(u);
    const used = await submitCode(first.cookie, { method: "totp", code });
    expect(redirectTarget(used.result)).toBe("/dashboard");

    const second = await signInWithPassword(u);
    const replayed = await submitCode(second.cookie, { method: "totp", code });
    expect(asResult(replayed.result).init?.status).toBe(400);
    expect(asResult(replayed.result).data.formError).toBe(totpCodeUsed);
    expect(await getSessionUser(appRequest("/dashboard", { cookie: replayed.cookie }))).toBeNull();
    // An older code of the window is refused too; the next one works.
    const older = await submitCode(second.cookie, {
      method: "totp",
      code: totpCode(secret, Date.now() - 30_000),
    });
    expect(asResult(older.result).data.formError).toBe(totpCodeUsed);
    const next = await submitCode(second.cookie, {
      method: "totp",
      code: totpCode(secret, Date.now() + 30_000),
    });
    expect(redirectTarget(next.result)).toBe("/dashboard");
  });

  it("of two sign-ins sending the same code at once, one is signed in", async () => {
    const u = await createUser({ paid: true });
    const { secret } = await enableTwoFactor(u);
    const [a, b] = await Promise.all([signInWithPassword(u), signInWithPassword(u)]);
    const code = totpCode(secret, Date.now() + 30_000);
    const results = await Promise.all([
      submitCode(a?.cookie ?? "", { method: "totp", code }),
      submitCode(b?.cookie ?? "", { method: "totp", code }),
    ]);
    const signedIn = results.filter((r) => redirectTarget(r.result) === "/dashboard");
    expect(signedIn).toHaveLength(1);
    const refused = results.find((r) => redirectTarget(r.result) === null);
    expect(asResult(refused?.result).data.formError).toBe(totpCodeUsed);
  });

  it("stores recovery codes as hashes and takes them in any letter case", async () => {
    const u = await createUser({ paid: true });
    const { recoveryCodes } = await enableTwoFactor(u);
    const { row } = await twoFactorRow(u.id);
    const stored = JSON.parse(row?.backupCodes ?? "[]") as string[];
    expect(stored).toHaveLength(10);
    for (const entry of stored) expect(entry).toMatch(/^s1\.[\w-]{22}\.[\w-]{43}$/);
    // Nothing in the row gives a code back, even with the auth secret.
    for (const code of recoveryCodes) {
      expect(row?.backupCodes).not.toContain(code);
      expect(row?.backupCodes).not.toContain(code.replace("-", ""));
    }
    await expect(
      symmetricDecrypt({ key: getEnv().authSecret, data: row?.backupCodes ?? "" }),
    ).rejects.toThrow();

    const first = await signInWithPassword(u);
    const lower = await submitCode(first.cookie, {
      method: "recovery",
      code: (recoveryCodes[2] ?? "").toLowerCase(),
    });
    expect(redirectTarget(lower.result)).toBe("/dashboard");
    const after = JSON.parse((await twoFactorRow(u.id)).row?.backupCodes ?? "[]") as string[];
    expect(after).toHaveLength(9);
    const second = await signInWithPassword(u);
    const again = await submitCode(second.cookie, {
      method: "recovery",
      code: recoveryCodes[2] ?? "",
    });
    expect(asResult(again.result).data.formError).toMatch(/not valid or was already used/);
  });

  it("hashes recovery codes stored the old way, encrypted, and still takes them", async () => {
    const u = await createUser({ paid: true });
    await enableTwoFactor(u);
    const v = await createUser({ paid: true });
    await enableTwoFactor(v);
    const codes = ["ABCDE-FGHJK", "MNPQR-STUVW"];
    const legacy = await symmetricEncrypt({
      key: getEnv().authSecret,
      data: JSON.stringify(codes),
    });
    const db = await getDb();
    for (const id of [u.id, v.id]) {
      await db.update(twoFactor).set({ backupCodes: legacy }).where(eq(twoFactor.userId, id));
    }
    // At sign-in, for that user.
    const first = await signInWithPassword(u);
    const used = await submitCode(first.cookie, { method: "recovery", code: "mnpqr-stuvw" });
    expect(redirectTarget(used.result)).toBe("/dashboard");
    const row = (await twoFactorRow(u.id)).row?.backupCodes ?? "";
    expect(JSON.parse(row)).toHaveLength(1);
    expect(row).not.toContain("ABCDE");
    // Every other row, as a process starts (getAuth).
    const decrypt = (data: string) => symmetricDecrypt({ key: getEnv().authSecret, data });
    // A set encrypted with another secret is skipped, not a failure.
    const w = await createUser({ paid: true });
    await enableTwoFactor(w);
    const foreign = await symmetricEncrypt({ key: "another-secret-".repeat(3), data: "[]" });
    await db.update(twoFactor).set({ backupCodes: foreign }).where(eq(twoFactor.userId, w.id));
    expect(await hashStoredRecoveryCodes(db, decrypt)).toBe(1);
    expect(await hashStoredRecoveryCodes(db, decrypt)).toBe(0);
    const other = (await twoFactorRow(v.id)).row?.backupCodes ?? "";
    expect(JSON.parse(other)).toHaveLength(2);
    const signIn = await signInWithPassword(v);
    const taken = await submitCode(signIn.cookie, { method: "recovery", code: "ABCDEFGHJK" });
    expect(redirectTarget(taken.result)).toBe("/dashboard");
  });
});

describe("turning two-factor off", () => {
  it("needs the password; sign-in then asks for no code", async () => {
    const u = await createUser({ paid: true });
    const { cookie } = await enableTwoFactor(u);
    const wrong = asResult(await postAccount(cookie, { intent: "disable", password: "nope-nope" }));
    expect(wrong.init?.status).toBe(400);
    expect(wrong.data.fieldErrors.password).toBe("Incorrect password");
    expect((await twoFactorRow(u.id)).enabled).toBe(true);

    const off = await postAccount(cookie, { intent: "disable", password: u.password });
    expect(redirectTarget(off)).toBe("/account");
    const state = await twoFactorRow(u.id);
    expect(state.enabled).toBe(false);
    expect(state.row).toBeUndefined();

    const signIn = await signInWithPassword(u);
    expect(redirectTarget(signIn.result)).toBe("/dashboard");
  });

  it("new recovery codes replace the old ones (password required)", async () => {
    const u = await createUser({ paid: true });
    const { cookie, recoveryCodes } = await enableTwoFactor(u);
    const replaced = asResult(
      await postAccount(cookie, { intent: "new-recovery-codes", password: u.password }),
    );
    expect(replaced.data.recoveryCodes).toHaveLength(10);
    const first = await signInWithPassword(u);
    const old = await submitCode(first.cookie, {
      method: "recovery",
      code: recoveryCodes[0] ?? "",
    });
    expect(asResult(old.result).init?.status).toBe(400);
    const fresh = await submitCode(first.cookie, {
      method: "recovery",
      code: replaced.data.recoveryCodes?.[0] ?? "",
    });
    expect(redirectTarget(fresh.result)).toBe("/dashboard");
  });
});

describe("password checks on /account", () => {
  it("are counted per account like a sign-in: past the limit even the right password is refused", async () => {
    const u = await createUser({ paid: true });
    const { cookie } = await enableTwoFactor(u);
    const limit = getEnv().rateLimits.loginPerAddressAndEmail;
    for (let i = 0; i < limit; i++) {
      const wrong = asResult(
        await postAccount(cookie, { intent: "new-recovery-codes", password: "not the password" }),
      );
      expect(wrong.data.fieldErrors.password).not.toBe(tooManyAttempts);
      expect(wrong.data.recoveryCodes).toBeUndefined();
    }
    for (const form of [
      { intent: "new-recovery-codes", password: u.password },
      { intent: "disable", password: u.password },
    ]) {
      const refused = asResult(await postAccount(cookie, form));
      expect(refused.data.fieldErrors.password).toBe(tooManyAttempts);
      expect(refused.data.recoveryCodes).toBeUndefined();
    }
    // Two-factor is still on: the refused "disable" changed nothing.
    const [row] = await (await getDb()).select().from(user).where(eq(user.id, u.id));
    expect(row?.twoFactorEnabled).toBe(true);
  });

  it("start again after the right password", async () => {
    const u = await createUser({ paid: true });
    const { cookie } = await enableTwoFactor(u);
    const limit = getEnv().rateLimits.loginPerAddressAndEmail;
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < limit - 1; i++) {
        await postAccount(cookie, { intent: "new-recovery-codes", password: "not the password" });
      }
      const right = asResult(
        await postAccount(cookie, { intent: "new-recovery-codes", password: u.password }),
      );
      expect(right.data.recoveryCodes).toHaveLength(10);
    }
  });
});

describe("security events in the audit log", () => {
  const eventsOf = async (email: string) =>
    (await getDb()).select().from(auditLog).where(eq(auditLog.actor, email)).orderBy(auditLog.seq);

  it("records sign-ins, failed sign-ins, two-factor and password changes, without secrets", async () => {
    const u = await createUser({ paid: true });
    const wrong = await signInWithPassword({ ...u, password: "wrong-password-typed" });
    expect(asResult(wrong.result).init?.status).toBe(400);
    const { cookie, secret, recoveryCodes } = await enableTwoFactor(u);
    const first = await signInWithPassword(u);
    const bad = await submitCode(first.cookie, { method: "totp", code: "000000" });
    expect(asResult(bad.result).init?.status).toBe(400);
    const code = totpCode(secret);
    await submitCode(first.cookie, { method: "totp", code });
    const second = await signInWithPassword(u);
    await submitCode(second.cookie, { method: "recovery", code: recoveryCodes[0] ?? "" });
    const replaced = asResult(
      await postAccount(cookie, { intent: "new-recovery-codes", password: u.password }),
    );
    await postAccount(cookie, { intent: "disable", password: u.password });
    await signInWithPassword(u);
    const token = await createSetPasswordToken(await getDb(), u.id, 600);
    expect(await resetPassword(token, "a new password 42")).toMatchObject({ ok: true });
    await signInWithPassword({ ...u, email: uniqueEmail("nobody"), password: "guess-1234" });

    const events = await eventsOf(u.email);
    expect(events.map((e) => [e.kind, e.detail])).toEqual([
      ["security.sign-in-failed", "wrong password"],
      ["security.two-factor-on", null],
      ["security.two-factor-failed", "authenticator code"],
      ["security.sign-in", "password and authenticator code"],
      ["security.sign-in", "password and recovery code"],
      ["security.recovery-codes", null],
      ["security.two-factor-off", null],
      ["security.sign-in", "password"],
      ["security.password-change", "with an e-mailed link"],
    ]);
    for (const e of events) expect(e.actorId).toBe(u.id);
    const text = JSON.stringify(events);
    for (const secretText of [
      u.password,
      "wrong-password-typed",
      "a new password 42",
      secret,
      code,
      token,
      ...recoveryCodes,
      ...(replaced.data.recoveryCodes ?? []),
    ]) {
      expect(text).not.toContain(secretText);
    }
    // The audit page lists them, and filters by kind.
    const [stranger] = await (await getDb())
      .select()
      .from(auditLog)
      .where(eq(auditLog.kind, "security.sign-in-failed"))
      .orderBy(desc(auditLog.seq))
      .limit(1);
    expect(stranger).toMatchObject({ actorId: null, detail: "no such account" });
    expect(JSON.stringify(stranger)).not.toContain("guess-1234");
  });
});

describe("totpCode (test helper)", () => {
  it("matches the RFC 6238 SHA-1 test vector", () => {
    // Secret "12345678901234567890"; at 59 s the 8-digit code is 94287082.
    expect(totpCode("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", 59_000)).toBe("287082");
  });
});
