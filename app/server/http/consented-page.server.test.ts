import { describe, expect, it } from "vitest";
import { consentedPage, hasChosenConsent } from "./consented-page.server";

describe("pages for a visitor who has chosen in the cookie banner", () => {
  it("tells a stored choice from none", () => {
    for (const cookie of [
      "cookie_consent=all",
      "a=b; cookie_consent=essential",
      "cookie_consent=none; better-auth.session_token=x",
    ]) {
      expect(hasChosenConsent(cookie), cookie).toBe(true);
    }
    for (const cookie of [
      null,
      undefined,
      "",
      "a=b",
      "cookie_consent=maybe",
      "xcookie_consent=all",
    ]) {
      expect(hasChosenConsent(cookie), String(cookie)).toBe(false);
    }
  });

  it("marks the page's <html> element, which the stylesheet hides the banner under", () => {
    const page = '<!DOCTYPE html><html lang="en"><head></head><body>x</body></html>';
    const marked = Buffer.from(consentedPage(new Uint8Array(Buffer.from(page)))).toString();
    expect(marked).toBe(
      '<!DOCTYPE html><html data-cookie-consent="" lang="en"><head></head><body>x</body></html>',
    );
    const data = new Uint8Array(Buffer.from('[{"_1":2}]'));
    expect(consentedPage(data)).toBe(data);
  });
});
