import { consentMarker } from "~/components/cookie-banner";
import { consentCookieName } from "~/lib/cookie-consent";

/**
 * Pages for a visitor who has chosen in the cookie banner. The banner is in
 * every page's HTML and app.css hides it under `<html data-cookie-consent>`;
 * in the browser an inline script sets that mark, but without JavaScript only
 * the server can. So a page answered to a visitor whose request carries a
 * choice has the mark in its bytes: a prerendered page from its second copy
 * in memory (static-files.server.ts), a rendered one as it is rendered
 * (entry.server.tsx), a kept member page under its own key (page-cache.server.ts).
 */

/** The same test as the banner's inline script (consentCheckScript): a stored choice. */
const chosen = new RegExp(`(^|;\\s*)${consentCookieName}=(all|essential|none)(;|$)`);

/** Whether a Cookie header carries a choice made in the cookie banner. */
export function hasChosenConsent(cookieHeader: string | null | undefined): boolean {
  return cookieHeader ? chosen.test(cookieHeader) : false;
}

const htmlTag = Buffer.from("<html");
const mark = Buffer.from(` ${consentMarker}=""`);

/** A page's HTML with the mark on its <html> element; anything without one as it is. */
export function consentedPage(html: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const bytes = Buffer.from(html.buffer, html.byteOffset, html.byteLength);
  const at = bytes.indexOf(htmlTag);
  if (at === -1) return html;
  const end = at + htmlTag.byteLength;
  return new Uint8Array(Buffer.concat([bytes.subarray(0, end), mark, bytes.subarray(end)]));
}
