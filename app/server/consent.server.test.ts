import { describe, expect, it } from "vitest";
import { consentCookieName, consentDateCookieName, readConsent } from "~/lib/cookie-consent";
import { localPath } from "~/lib/cookie-consent-form";
import { createTestApp } from "~/test/app-handler";
import { origin } from "~/test/helpers";

const { app } = await createTestApp();

function post(body: Record<string, string>, headers: Record<string, string> = { origin }) {
  return app.fetch(
    new Request(`${origin}/cookie-consent`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(body),
    }),
  );
}

/** The Cookie header a browser would send after these Set-Cookie headers (deletions dropped). */
function cookiesAfter(response: Response): string {
  return response.headers
    .getSetCookie()
    .filter((c) => !/Max-Age=0/.test(c))
    .map((c) => c.split(";")[0])
    .join("; ");
}

describe("the cookie banner's form without its script (POST /cookie-consent)", () => {
  it("stores each choice for 2 years and goes back to the page", async () => {
    for (const consent of ["all", "essential", "none"] as const) {
      const response = await post({ consent, returnTo: "/ailabs-offer?x=1" });
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe("/ailabs-offer?x=1");
      const set = response.headers.getSetCookie();
      const stored = set.find((c) => c.startsWith(`${consentCookieName}=`)) ?? "";
      expect(stored).toMatch(
        new RegExp(`^${consentCookieName}=${consent}; Max-Age=63072000; Path=/; SameSite=Lax$`),
      );
      expect(set.some((c) => c.startsWith(`${consentDateCookieName}=`))).toBe(true);
      expect(readConsent(cookiesAfter(response))?.consent).toBe(consent);
    }
  });

  it("deletes analytics cookies unless all are accepted", async () => {
    const cookie = "_ga=GA1.1.1; _gid=GA1.2.2; other=1";
    const declined = await post({ consent: "none", returnTo: "/" }, { origin, cookie });
    const deletions = declined.headers.getSetCookie().filter((c) => /Max-Age=0/.test(c));
    expect(deletions.some((c) => c.startsWith("_ga=;"))).toBe(true);
    expect(deletions.some((c) => c.startsWith("_gid=;"))).toBe(true);
    expect(deletions.some((c) => c.startsWith("other="))).toBe(false);
    const accepted = await post({ consent: "all", returnTo: "/" }, { origin, cookie });
    expect(accepted.headers.getSetCookie().some((c) => /Max-Age=0/.test(c))).toBe(false);
  });

  it("goes back only to a page of this site: returnTo, else the Referer, else home", async () => {
    for (const returnTo of [
      "//evil.test/x",
      "/\\evil.test",
      "https://evil.test/",
      "javascript:alert(1)",
    ]) {
      expect((await post({ consent: "none", returnTo })).headers.get("location")).toBe("/");
    }
    const withReferer = await post(
      { consent: "none" },
      { origin, referer: `${origin}/jv-doc?a=b` },
    );
    expect(withReferer.headers.get("location")).toBe("/jv-doc?a=b");
    const foreign = await post({ consent: "none" }, { origin, referer: "https://evil.test/x" });
    expect(foreign.headers.get("location")).toBe("/");
    expect(localPath("/a/b?c#d", origin)).toBe("/a/b?c#d");
  });

  it("never leaves the site for a returnTo that only normalizes to another host", async () => {
    // The URL parser turns each of these into the path "//evil.example" (or "///..."),
    // which a browser reads as a link to another host.
    for (const returnTo of [
      "/..//evil.example",
      "/a/..//evil.example/x?y=1",
      "/%2e%2e//evil.example",
      "/.//evil.example",
      "/x/../\\evil.example",
      "/..///evil.example",
    ]) {
      const response = await post({ consent: "essential", returnTo });
      expect({ returnTo, location: response.headers.get("location") }).toEqual({
        returnTo,
        location: "/",
      });
    }
    const referer = await post(
      { consent: "none" },
      { origin, referer: `${origin}/..//evil.example` },
    );
    expect(referer.headers.get("location")).toBe("/");
    // A path that only looks odd stays on the site.
    expect((await post({ consent: "all", returnTo: "/a/../jv-doc" })).headers.get("location")).toBe(
      "/jv-doc",
    );
  });

  it("refuses a bad choice with 400, another site with 403, and a GET with 405", async () => {
    const bad = await post({ consent: "maybe" });
    expect(bad.status).toBe(400);
    expect(bad.headers.getSetCookie()).toEqual([]);
    expect((await post({ consent: "all" }, {})).status).toBe(403);
    expect((await post({ consent: "all" }, { origin: "https://evil.test" })).status).toBe(403);
    expect((await app.fetch(new Request(`${origin}/cookie-consent`))).status).toBe(405);
  });
});

describe("the banner in every page's HTML", () => {
  it("is a plain form with the four buttons, and the head hides it once a choice is stored", async () => {
    const html = await (await app.fetch(new Request(`${origin}/ailabs-offer`))).text();
    expect(html).toContain('id="cookie-banner"');
    expect(html).toMatch(/<form[^>]* action="\/cookie-consent" method="post"/);
    expect(html).toContain('name="returnTo" value="/ailabs-offer"');
    for (const value of ["none", "essential", "all"]) {
      expect(html).toMatch(new RegExp(`type="submit" value="${value}"[^>]* name="consent"`));
    }
    expect(html).toContain("<summary");
    const head = html.slice(0, html.indexOf("</head>"));
    expect(head).toContain("document.documentElement.setAttribute(");
  });
});
