import { createHmac, timingSafeEqual } from "node:crypto";
import { getEnv } from "../env.server";

// Every cookie the app sets or reads for authentication: their names, the
// Secure flag, signing, reading and clearing. Better Auth sets its own
// cookies (session, two-factor) with the same rule (better-auth.server.ts,
// useSecureCookies), so the names here are the ones it uses.

/** Whether cookies are Secure (Better Auth's with the `__Secure-` prefix): PUBLIC_ORIGIN is https. */
export function usesSecureCookies(publicOrigin: string): boolean {
  return publicOrigin.startsWith("https://");
}

/** What signing and naming cookies needs: the auth secret and the Secure flag. */
export type CookieKeys = { secret: string; secure: boolean };

/** The process's cookie keys (BETTER_AUTH_SECRET, PUBLIC_ORIGIN). */
export function cookieKeys(
  env: { authSecret: string; publicOrigin: string } = getEnv(),
): CookieKeys {
  return { secret: env.authSecret, secure: usesSecureCookies(env.publicOrigin) };
}

const betterAuthCookie = (name: string, secure: boolean) =>
  `${secure ? "__Secure-" : ""}better-auth.${name}`;

/** The session cookie's name, as Better Auth picks it. */
export function sessionCookieName(secure: boolean): string {
  return betterAuthCookie("session_token", secure);
}

/**
 * The cookie Better Auth sets after a correct password when two-factor is on
 * (a pending sign-in, valid 10 minutes). It is never a session: only
 * sessionCookieName's cookie is read as one.
 */
export function twoFactorCookieName(secure: boolean): string {
  return betterAuthCookie("two_factor", secure);
}

/**
 * Lets the next /account page show the recovery codes once, right after
 * two-factor was turned on (two-factor.server.ts).
 */
export const showRecoveryCodesCookie = "ailabs.show_recovery_codes";

/** What the admin panel says after an action, shown once by the page it redirects to (admin.tsx). */
export const adminNoticeCookie = "ailabs.admin_notice";

/** A cookie value signed as Better Auth signs its own (read back with readSignedCookie). */
export function signCookieValue(value: string, secret: string): string {
  return encodeURIComponent(
    `${value}.${createHmac("sha256", secret).update(value).digest("base64")}`,
  );
}

/**
 * The value of one of Better Auth's signed cookies
 * (`value.base64(HMAC-SHA256(secret, value))`, URI-encoded), or null when it
 * is missing or its signature is wrong.
 */
export function readSignedCookie(
  cookieHeader: string | null,
  name: string,
  secret: string,
): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    let value: string;
    try {
      value = decodeURIComponent(
        part
          .slice(eq + 1)
          .trim()
          .replace(/^"(.*)"$/, "$1"),
      );
    } catch {
      return null;
    }
    const dot = value.lastIndexOf(".");
    if (dot < 1) return null;
    const token = value.slice(0, dot);
    const given = Buffer.from(value.slice(dot + 1), "base64");
    const expected = createHmac("sha256", secret).update(token).digest();
    return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
  }
  return null;
}

/** The signed pending two-factor sign-in in the request (its verification id), or null. */
export function readPendingSignIn(
  request: Request,
  keys: CookieKeys = cookieKeys(),
): string | null {
  return readSignedCookie(
    request.headers.get("cookie"),
    twoFactorCookieName(keys.secure),
    keys.secret,
  );
}

/**
 * A Set-Cookie value for one of the app's own cookies: HttpOnly, SameSite=Lax,
 * Path=/ (React Router fetches a page's data from `<path>.data`), Secure on https.
 */
function appCookie(name: string, value: string, maxAgeSeconds: number, secure: boolean): string {
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}; Max-Age=${maxAgeSeconds}`;
}

/** Sets a signed app cookie (read back with readSignedCookie) on the headers. */
export function setSignedCookie(
  headers: Headers,
  name: string,
  value: string,
  maxAgeSeconds: number,
  keys: CookieKeys = cookieKeys(),
): Headers {
  headers.append(
    "Set-Cookie",
    appCookie(name, signCookieValue(value, keys.secret), maxAgeSeconds, keys.secure),
  );
  return headers;
}

/** Removes one of the app's own cookies. */
export function clearCookie(
  headers: Headers,
  name: string,
  keys: Pick<CookieKeys, "secure"> = cookieKeys(),
): Headers {
  headers.append("Set-Cookie", appCookie(name, "", 0, keys.secure));
  return headers;
}

/**
 * Set-Cookie headers that remove Better Auth's session cookies (token and
 * cached data), under both names, whatever PUBLIC_ORIGIN says: after a
 * sign-out or a password reset the browser keeps no session cookie.
 */
export function clearSessionCookies(headers = new Headers()): Headers {
  for (const name of ["session_token", "session_data"]) {
    headers.append(
      "Set-Cookie",
      `${betterAuthCookie(name, false)}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`,
    );
    headers.append(
      "Set-Cookie",
      `${betterAuthCookie(name, true)}=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax`,
    );
  }
  return headers;
}
