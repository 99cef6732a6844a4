import QRCode from "qrcode";
import { getAuth } from "./better-auth.server";
import {
  clearCookie,
  cookieKeys,
  readSignedCookie,
  setSignedCookie,
  showRecoveryCodesCookie,
} from "./cookies.server";
import { twoFactorAlreadyOn, twoFactorErrorMessage, twoFactorNotSetUp } from "./errors.server";
import { getSessionUser, type SessionUser } from "./guards.server";
import { getRateLimits, type RateLimits, tooManyAttempts } from "./rate-limit.server";

// Turning TOTP two-factor authentication on and off for the signed-in user
// (/account), through Better Auth's twoFactor plugin. The sign-in side is in
// sign-in.server.ts.

export type Refused = { ok: false; error: string };

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

async function call<T>(fn: () => Promise<T>): Promise<{ ok: true; value: T } | Refused> {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    return { ok: false, error: twoFactorErrorMessage(error) };
  }
}

/**
 * A password check of the signed-in account, counted per account like a
 * sign-in (RATE_LIMIT_LOGIN_PER_ADDRESS_AND_EMAIL per window): a stolen
 * session cookie cannot be used to guess the password. A right password
 * starts the count again.
 */
async function checkingPassword<T extends { ok: boolean }>(
  request: Request,
  fn: () => Promise<T | Refused>,
  limits: RateLimits = getRateLimits(),
): Promise<T | Refused> {
  const user = await getSessionUser(request);
  // Without a session Better Auth refuses the call itself.
  if (!user) return fn();
  if (!(await limits.accountPassword.perAccount.hit(user.id))) {
    return { ok: false, error: tooManyAttempts };
  }
  const result = await fn();
  if (result.ok) await limits.accountPassword.perAccount.reset(user.id);
  return result;
}

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
 * Step 2: a correct code from the app turns two-factor on. Answers the
 * headers to pass on with a redirect: the new session cookie Better Auth
 * issues (it replaces the session, so this request's own cookie is dead) and
 * a 5-minute cookie that lets the next /account page show the recovery codes
 * once (takeRecoveryCodesToShow).
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
  const headers = new Headers(verified.value.headers);
  const value = `${user.id}.${Date.now() + 5 * 60_000}`;
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
  const [userId, expires] = value.split(".");
  if (userId !== user.id || Number(expires) < Date.now() || !user.twoFactorEnabled) {
    return { recoveryCodes: [], headers };
  }
  const auth = await getAuth();
  const { backupCodes } = await auth.api.viewBackupCodes({ body: { userId: user.id } });
  return { recoveryCodes: backupCodes, headers };
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
  return result.ok ? { ok: true, headers: result.value.headers } : result;
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
  return result.ok ? { ok: true, recoveryCodes: result.value.backupCodes } : result;
}
