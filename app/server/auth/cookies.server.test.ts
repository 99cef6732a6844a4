import { describe, expect, it } from "vitest";
import {
  clearCookie,
  clearSessionCookies,
  cookieKeys,
  readPendingSignIn,
  readSignedCookie,
  sessionCookieName,
  setSignedCookie,
  signCookieValue,
  twoFactorCookieName,
  usesSecureCookies,
} from "./cookies.server";

const secret = "a-test-secret-that-is-long-enough-000";

describe("the Secure flag and cookie names", () => {
  it("are Secure, with Better Auth's __Secure- prefix, only when PUBLIC_ORIGIN is https", () => {
    expect(usesSecureCookies("https://ailabs.example")).toBe(true);
    expect(usesSecureCookies("http://localhost:3000")).toBe(false);
    expect(cookieKeys({ authSecret: secret, publicOrigin: "https://a.example" })).toEqual({
      secret,
      secure: true,
    });
    expect(sessionCookieName(false)).toBe("better-auth.session_token");
    expect(sessionCookieName(true)).toBe("__Secure-better-auth.session_token");
    expect(twoFactorCookieName(true)).toBe("__Secure-better-auth.two_factor");
  });
});

describe("signed cookies", () => {
  it("reads back what it signs, and nothing signed with another secret", () => {
    const header = `a=1; note=${signCookieValue("user.123", secret)}`;
    expect(readSignedCookie(header, "note", secret)).toBe("user.123");
    expect(readSignedCookie(header, "note", "another-secret")).toBeNull();
    expect(readSignedCookie(header, "other", secret)).toBeNull();
    expect(readSignedCookie(null, "note", secret)).toBeNull();
  });

  it("sets and clears an app cookie: HttpOnly, SameSite=Lax, Path=/, Secure on https", () => {
    const keys = { secret, secure: true };
    const [set] = setSignedCookie(new Headers(), "note", "v", 300, keys).getSetCookie();
    expect(set).toBe(
      `note=${signCookieValue("v", secret)}; Path=/; HttpOnly; SameSite=Lax; Secure; Max-Age=300`,
    );
    const [cleared] = clearCookie(new Headers(), "note", { secure: false }).getSetCookie();
    expect(cleared).toBe("note=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
  });

  it("reads a pending two-factor sign-in only from Better Auth's signed two_factor cookie", () => {
    const keys = { secret, secure: false };
    const cookie = `better-auth.two_factor=${signCookieValue("challenge", secret)}`;
    const request = new Request("http://localhost/", { headers: { cookie } });
    expect(readPendingSignIn(request, keys)).toBe("challenge");
    expect(readPendingSignIn(request, { secret, secure: true })).toBeNull();
    expect(readPendingSignIn(new Request("http://localhost/"), keys)).toBeNull();
  });
});

describe("clearSessionCookies", () => {
  it("expires the session token and data under both names", () => {
    const cookies = clearSessionCookies().getSetCookie();
    expect(cookies).toHaveLength(4);
    for (const name of [
      "better-auth.session_token",
      "__Secure-better-auth.session_token",
      "better-auth.session_data",
      "__Secure-better-auth.session_data",
    ]) {
      expect(cookies.some((c) => c.startsWith(`${name}=;`) && /Max-Age=0/.test(c))).toBe(true);
    }
  });
});
