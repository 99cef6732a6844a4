import { describe, expect, it } from "vitest";
import {
  analyticsDeletions,
  consentCookies,
  isAnalyticsCookie,
  parseConsent,
  readConsent,
} from "./cookie-consent";

describe("parseConsent", () => {
  it("accepts exactly all, essential and none", () => {
    expect(parseConsent("all")).toBe("all");
    expect(parseConsent("essential")).toBe("essential");
    expect(parseConsent("none")).toBe("none");
  });

  it("ignores anything else", () => {
    for (const value of [
      "",
      "ALL",
      " all",
      "yes",
      "true",
      "essential-only",
      "null",
      null,
      undefined,
    ]) {
      expect(parseConsent(value)).toBeNull();
    }
  });
});

describe("readConsent", () => {
  const now = Date.UTC(2025, 4, 21);
  const day = 24 * 3600 * 1000;

  it("finds the consent cookie among others, with the date it was chosen", () => {
    expect(readConsent("a=1; cookie_consent=essential; _ga=GA1.1.2", now)).toEqual({
      consent: "essential",
      chosenAt: now,
    });
    expect(readConsent(`cookie_consent=none; cookie_consent_at=${now - 5 * day}`, now)).toEqual({
      consent: "none",
      chosenAt: now - 5 * day,
    });
  });

  it("is null with no cookie, an invalid value or a name that only looks alike", () => {
    expect(readConsent("", now)).toBeNull();
    expect(readConsent("cookie_consent=maybe", now)).toBeNull();
    expect(readConsent("cookie_consent=", now)).toBeNull();
    expect(readConsent("my_cookie_consent=all; cookie_consent_v2=all", now)).toBeNull();
    expect(readConsent("cookie_consent=%E0%A4%A", now)).toBeNull();
  });

  it("lasts 2 years from the choice", () => {
    const twoYears = 2 * 365 * day;
    const at = (chosenAt: number) =>
      readConsent(`cookie_consent=all; cookie_consent_at=${chosenAt}`, now);
    expect(at(now - twoYears + 1000)?.consent).toBe("all");
    expect(at(now - twoYears)).toBeNull();
  });

  it("an unreadable or future date counts as chosen now", () => {
    for (const date of ["soon", "-5", "1e400", String(now + day)]) {
      expect(readConsent(`cookie_consent=all; cookie_consent_at=${date}`, now)?.chosenAt).toBe(now);
    }
  });
});

describe("consentCookies", () => {
  const now = Date.UTC(2025, 4, 21);

  it("keeps a new choice for 2 years, site-wide, SameSite=Lax, with its date", () => {
    expect(consentCookies({ consent: "all", chosenAt: now }, { secure: false, now })).toEqual([
      "cookie_consent=all; Max-Age=63072000; Path=/; SameSite=Lax",
      `cookie_consent_at=${now}; Max-Age=63072000; Path=/; SameSite=Lax`,
    ]);
  });

  it("renews an older choice only for what is left of its 2 years", () => {
    const [consent] = consentCookies(
      { consent: "essential", chosenAt: now - 1000 * 1000 },
      { secure: false, now },
    );
    expect(consent).toContain("Max-Age=63071000;");
  });

  it("is Secure on https", () => {
    for (const c of consentCookies({ consent: "none", chosenAt: now }, { secure: true, now })) {
      expect(c).toMatch(/; Secure$/);
    }
  });
});

describe("analytics cookies", () => {
  it("are the names starting with _ga, _gid or _gat", () => {
    for (const name of ["_ga", "_ga_ABC123", "_gid", "_gat", "_gat_UA-1"]) {
      expect(isAnalyticsCookie(name)).toBe(true);
    }
    for (const name of ["cookie_consent", "ga", "session_token", "__ga", "_gcl_au"]) {
      expect(isAnalyticsCookie(name)).toBe(false);
    }
  });

  it("are expired host-only and on every parent domain", () => {
    const deletions = analyticsDeletions(
      "_ga=GA1.1.1; cookie_consent=all; _gid=GA1.1.2; session_token=x",
      "www.ailabs.app",
    );
    expect(deletions).toHaveLength(6);
    expect(deletions.every((d) => /Max-Age=0; Path=\//.test(d))).toBe(true);
    expect(
      deletions.filter((d) => d.startsWith("_ga=;")).map((d) => d.split("Domain=")[1]),
    ).toEqual([undefined, ".www.ailabs.app", ".ailabs.app"]);
    expect(deletions.some((d) => d.includes("session_token") || d.includes("cookie_consent"))).toBe(
      false,
    );
  });

  it("on localhost or an IP address are expired host-only", () => {
    expect(analyticsDeletions("_ga=1", "localhost")).toEqual([
      "_ga=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/",
    ]);
    expect(analyticsDeletions("_ga=1", "127.0.0.1")).toHaveLength(1);
  });

  it("none present: nothing to delete", () => {
    expect(analyticsDeletions("cookie_consent=none", "ailabs.app")).toEqual([]);
  });
});
