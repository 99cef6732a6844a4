import { createHash, randomBytes } from "node:crypto";
import { salesFunnel } from "~/config/site";
import { chapterImageSources, videoHosts } from "../content/sanitize.server";

/**
 * The Content-Security-Policy of every answer. Scripts run only from this
 * origin and the checkout provider's, plus the inline ones a page names: by a nonce made for each
 * rendered page (entry.server.tsx), or by their hashes for a page whose bytes
 * are fixed (prerendered pages, static-files.server.ts). Never
 * 'unsafe-inline'. Frames only from the video hosts chapters may embed,
 * images only from where chapters may take them (sanitize.server.ts).
 */
export function contentSecurityPolicy(inlineScripts: readonly string[] = []): string {
  return [
    `script-src 'self' ${checkoutProviderScripts.join(" ")}${inlineScripts.map((source) => ` ${source}`).join("")}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    `frame-src ${videoHosts.map((host) => `https://${host}`).join(" ")}`,
    `img-src ${chapterImageSources.join(" ")}`,
  ].join("; ");
}

/**
 * The checkout provider's origin (the marketplace the sales pages sell
 * through), whose disclaimer script the upsell pages add to the body
 * (salesFunnel.checkoutDisclaimerScriptUrl, use-body-script.ts), and that
 * script's own origin when it is configured elsewhere.
 */
const checkoutProviderScripts = [
  ...new Set(
    [salesFunnel.checkoutUrls.whiteLabel, salesFunnel.checkoutDisclaimerScriptUrl]
      .filter((url): url is string => url !== null)
      .map((url) => new URL(url).origin),
  ),
];

/** A fresh nonce for one rendered page (128 random bits). */
export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

const inlineScript = /<script\b(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/** `'sha256-…'` of each inline script in a page, for a page whose bytes never change. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(inlineScript)) {
    const digest = createHash("sha256")
      .update(match[1] ?? "")
      .digest("base64");
    hashes.add(`'sha256-${digest}'`);
  }
  return [...hashes];
}
