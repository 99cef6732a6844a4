import { createHmac } from "node:crypto";
import { symmetricDecrypt, symmetricEncrypt } from "better-auth/crypto";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import QRCode from "qrcode";
import { recordSecurityEvent } from "../audit-log.server";
import type { Db } from "../db/client.server";
import { getDb } from "../db/db.server";
import { twoFactor, user as userTable } from "../db/schema";
import { call, checkingPassword, type Refused } from "./account-settings.server";
import { type Auth, getAuth } from "./better-auth.server";
import {
  clearCookie,
  cookieKeys,
  readSignedCookie,
  setSignedCookie,
  showRecoveryCodesCookie,
} from "./cookies.server";
import { twoFactorAlreadyOn, twoFactorNotSetUp } from "./errors.server";
import { getRateLimits, type RateLimits } from "./rate-limit.server";
import {
  generateRecoveryCodes,
  hashStoredRecoveryCodes,
  recoveryCodeToCheck,
  storeRecoveryCodes,
} from "./recovery-codes.server";
import { getSessionUser, type SessionUser } from "./session-user.server";

// Turning TOTP two-factor authentication on and off for the signed-in user
// (/account), through Better Auth's twoFactor plugin. The sign-in side is in
// sign-in.server.ts.

export type { Refused };

/** What the user needs to add the account to an authenticator app. */
export type TwoFactorSetup = {
  ok: true;
  /** The base32 secret, for typing in by hand. */
  secret: string;
  /** The otpauth:// URI the QR code encodes. */
  uri: string;
  /** The QR code as an SVG data URL, for an <img>. */
  qrCode: string;
};

/**
 * Step 1 of turning TOTP on: checks the password and stores a new, not yet
 * confirmed secret (replacing an unconfirmed one); two-factor stays off until
 * confirmTwoFactorSetup.
 */
export async function startTwoFactorSetup(
  request: Request,
  password: string,
): Promise<TwoFactorSetup | Refused> {
  const auth = await getAuth();
  const result = await checkingPassword(request, () =>
    call(() =>
      auth.api.enableTwoFactor({ body: { password, method: "totp" }, headers: request.headers }),
    ),
  );
  if (!result.ok) return result;
  if (result.value.method !== "totp") throw new Error("enableTwoFactor: expected the TOTP method");
  return describeTwoFactorSetup(result.value.totpURI);
}

/**
 * The QR code and typed-in key for an otpauth:// URI (startTwoFactorSetup's,
 * or the same one posted back with a wrong code, to show the step again).
 * Only displays: the secret that counts is the one Better Auth stored.
 */
export async function describeTwoFactorSetup(uri: string): Promise<TwoFactorSetup | Refused> {
  const parsed = URL.canParse(uri) ? new URL(uri) : null;
  const secret = parsed?.searchParams.get("secret") ?? "";
  if (parsed?.protocol !== "otpauth:" || !/^[A-Z2-7]+=*$/.test(secret) || uri.length > 512) {
    return { ok: false, error: twoFactorNotSetUp };
  }
  const svg = await QRCode.toString(uri, { type: "svg", margin: 2, errorCorrectionLevel: "M" });
  return {
    ok: true,
    secret,
    uri,
    qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`,
  };
}

/**
 * Step 2: a correct code from the app turns two-factor on, with a new set of
 * 10 recovery codes (stored hashed). Answers the headers to pass on with a
 * redirect: the new session cookie Better Auth issues (it replaces the
 * session, so this request's own cookie is dead) and a 5-minute cookie that
 * carries the codes, encrypted with the auth secret, to the next /account
 * page, which shows them once (takeRecoveryCodesToShow): the database has
 * only their hashes.
 */
export async function confirmTwoFactorSetup(
  request: Request,
  user: SessionUser,
  code: string,
): Promise<{ ok: true; headers: Headers } | Refused> {
  if (user.twoFactorEnabled) {
    return { ok: false, error: twoFactorAlreadyOn };
  }
  const auth = await getAuth();
  const verified = await call(() =>
    auth.api.verifyTOTP({ body: { code }, headers: request.headers, returnHeaders: true }),
  );
  if (!verified.ok) return verified;
  const recoveryCodes = generateRecoveryCodes();
  const db = await getDb();
  await db
    .update(twoFactor)
    .set({ backupCodes: await storeRecoveryCodes(JSON.stringify(recoveryCodes)) })
    .where(eq(twoFactor.userId, user.id));
  await recordSecurityEvent(db, user, "security.two-factor-on");
  const key = await secretConfig(auth);
  const sealed = await symmetricEncrypt({ key, data: JSON.stringify(recoveryCodes) });
  const headers = new Headers(verified.value.headers);
  const value = `${user.id}.${Date.now() + 5 * 60_000}.${sealed}`;
  setSignedCookie(headers, showRecoveryCodesCookie, value, 300);
  return { ok: true, headers };
}

/**
 * The recovery codes, once, right after two-factor was turned on (the cookie
 * confirmTwoFactorSetup set, for this user, not expired), with the headers
 * that clear that cookie; null otherwise.
 */
export async function takeRecoveryCodesToShow(
  request: Request,
  user: SessionUser,
): Promise<{ recoveryCodes: string[]; headers: Headers } | null> {
  const keys = cookieKeys();
  const cookie = request.headers.get("cookie");
  const value = readSignedCookie(cookie, showRecoveryCodesCookie, keys.secret);
  if (!value) return null;
  const headers = clearCookie(new Headers(), showRecoveryCodesCookie, keys);
  const [userId, expires, sealed = ""] = value.split(".");
  if (userId !== user.id || Number(expires) < Date.now() || !user.twoFactorEnabled) {
    return { recoveryCodes: [], headers };
  }
  const key = await secretConfig(await getAuth());
  try {
    const recoveryCodes = JSON.parse(await symmetricDecrypt({ key, data: sealed })) as string[];
    return { recoveryCodes, headers };
  } catch {
    return { recoveryCodes: [], headers };
  }
}

/** Turns two-factor off (password required); answers the new session cookie's headers. */
export async function turnOffTwoFactor(
  request: Request,
  password: string,
): Promise<{ ok: true; headers: Headers } | Refused> {
  const auth = await getAuth();
  const result = await checkingPassword(request, () =>
    call(() =>
      auth.api.disableTwoFactor({
        body: { password },
        headers: request.headers,
        returnHeaders: true,
      }),
    ),
  );
  if (!result.ok) return result;
  const user = await getSessionUser(request);
  if (user) await recordSecurityEvent(await getDb(), user, "security.two-factor-off");
  return { ok: true, headers: result.value.headers };
}

/** Replaces the recovery codes with 10 new ones (password required); the old ones stop working. */
export async function replaceRecoveryCodes(
  request: Request,
  password: string,
): Promise<{ ok: true; recoveryCodes: string[] } | Refused> {
  const auth = await getAuth();
  const result = await checkingPassword(request, () =>
    call(() => auth.api.generateBackupCodes({ body: { password }, headers: request.headers })),
  );
  if (!result.ok) return result;
  const user = await getSessionUser(request);
  if (user) await recordSecurityEvent(await getDb(), user, "security.recovery-codes");
  return { ok: true, recoveryCodes: result.value.backupCodes };
}

/** The key Better Auth encrypts two-factor secrets with (BETTER_AUTH_SECRET). */
async function secretConfig(auth: Auth) {
  return (await auth.$context).secretConfig;
}

/** A message for an authenticator code that was accepted before. */
export const totpCodeUsed = "That code was already used. Wait for the next code in your app.";

const totpPeriodSeconds = 30;

/** The 6-digit RFC 6238 code of a key at a time step (HMAC-SHA1), as Better Auth computes it. */
function totpAt(key: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const hmac = createHmac("sha1", Buffer.from(key, "utf8")).update(counter).digest();
  const offset = (hmac[hmac.length - 1] as number) & 0x0f;
  return String((hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

/**
 * Accepts an authenticator code for the user once. Finds the time step the
 * code belongs to (the current one, or one either side, as Better Auth
 * allows) and records it as the user's last accepted step with one
 * conditional UPDATE, so that of two requests with the same code (or an
 * older one) only one wins, in parallel too. "invalid": the code is not
 * right (the caller lets Better Auth refuse and count it); "used": it was
 * right, and accepted before.
 */
export async function claimTotpCode(
  db: Db,
  userId: string,
  code: string,
  now = Date.now(),
): Promise<"accepted" | "used" | "invalid"> {
  const [row] = await db
    .select({ secret: twoFactor.secret })
    .from(twoFactor)
    .where(eq(twoFactor.userId, userId));
  if (!row) return "invalid";
  const key = await symmetricDecrypt({
    key: await secretConfig(await getAuth()),
    data: row.secret,
  });
  // Secrets imported from another provider ("base32:" + key) are never made here.
  if (key.startsWith("base32:")) return "invalid";
  const current = Math.floor(now / 1000 / totpPeriodSeconds);
  const step = [current - 1, current, current + 1].find((s) => totpAt(key, s) === code);
  if (step === undefined) return "invalid";
  const claimed = await db
    .update(twoFactor)
    .set({ lastTotpStep: step })
    .where(
      and(
        eq(twoFactor.userId, userId),
        or(isNull(twoFactor.lastTotpStep), lt(twoFactor.lastTotpStep, step)),
      ),
    )
    .returning({ id: twoFactor.id });
  return claimed.length > 0 ? "accepted" : "used";
}

/**
 * The second step of a sign-in (sign-in.server.ts verifySignInCode), through
 * Better Auth's twoFactor plugin, which creates the session: an authenticator
 * code is accepted once (claimTotpCode), and a recovery code is checked by
 * its hash, in any letter case.
 */
export async function verifySecondFactor(
  request: Request,
  userId: string,
  input: { method: "totp" | "recovery"; code: string },
): Promise<{ ok: true; headers: Headers; user: { id: string; isAdmin?: unknown } } | Refused> {
  const auth = await getAuth();
  const db = await getDb();
  let code = input.code;
  if (input.method === "totp") {
    if ((await claimTotpCode(db, userId, code)) === "used")
      return { ok: false, error: totpCodeUsed };
  } else {
    const key = await secretConfig(auth);
    const decrypt = (data: string) => symmetricDecrypt({ key, data });
    await hashStoredRecoveryCodes(db, decrypt, userId);
    const [row] = await db
      .select({ backupCodes: twoFactor.backupCodes })
      .from(twoFactor)
      .where(eq(twoFactor.userId, userId));
    code = (row && (await recoveryCodeToCheck(row.backupCodes, code, decrypt)).entry) ?? code;
  }
  const body = { code };
  const options = { body, headers: request.headers, returnHeaders: true } as const;
  const result = await call(() =>
    input.method === "totp" ? auth.api.verifyTOTP(options) : auth.api.verifyBackupCode(options),
  );
  const how = input.method === "totp" ? "authenticator code" : "recovery code";
  const [account] = await db
    .select({ id: userTable.id, email: userTable.email })
    .from(userTable)
    .where(eq(userTable.id, userId));
  if (!result.ok) {
    if (account) await recordSecurityEvent(db, account, "security.two-factor-failed", how);
    return result;
  }
  if (account) await recordSecurityEvent(db, account, "security.sign-in", `password and ${how}`);
  return { ok: true, headers: result.value.headers, user: result.value.response.user };
}

export const codeNotRight = "That code is not right. Check your app and try again.";

/**
 * "Confirm it's you" (requireRecentProof): the signed-in user's password, or
 * a code from their authenticator app (accepted once, like at sign-in).
 * Counted per account like every password check of a signed-in account;
 * recorded in the audit log either way.
 */
export async function proveItIsYou(
  request: Request,
  user: SessionUser,
  proof: { password: string; code: string },
  limits: RateLimits = getRateLimits(),
): Promise<{ ok: true } | Refused> {
  const db = await getDb();
  const result = await checkingPassword(
    request,
    async (): Promise<{ ok: true } | Refused> => {
      if (proof.code && user.twoFactorEnabled) {
        const claimed = await claimTotpCode(db, user.id, proof.code.replace(/\s+/g, ""));
        if (claimed === "accepted") return { ok: true };
        return { ok: false, error: claimed === "used" ? totpCodeUsed : codeNotRight };
      }
      const auth = await getAuth();
      const checked = await call(() =>
        auth.api.verifyPassword({ body: { password: proof.password }, headers: request.headers }),
      );
      return checked.ok ? { ok: true } : checked;
    },
    limits,
  );
  const how = proof.code && user.twoFactorEnabled ? "authenticator code" : "password";
  const kind = result.ok ? "security.confirm" : "security.confirm-failed";
  await recordSecurityEvent(db, user, kind, how);
  return result;
}

/** A sign-in in the audit log (security.sign-in), with how it was made. */
export async function recordSignIn(account: { id: string; email: string }, how: string) {
  await recordSecurityEvent(await getDb(), account, "security.sign-in", how);
}

/**
 * A refused password in the audit log (security.sign-in-failed), under the
 * e-mail typed: only for a wrong e-mail or password (Better Auth's code),
 * never with what was typed as the password.
 */
export async function recordSignInRefused(email: string, code: string | undefined) {
  if (code !== "INVALID_EMAIL_OR_PASSWORD") return;
  const db = await getDb();
  const [account] = await db
    .select({ id: userTable.id })
    .from(userTable)
    .where(eq(userTable.email, email.toLowerCase()));
  await recordSecurityEvent(
    db,
    { id: account?.id ?? null, email: email.toLowerCase() },
    "security.sign-in-failed",
    account ? "wrong password" : "no such account",
  );
}
