import { createHash, randomBytes } from "node:crypto";
import { salesFunnel } from "~/config/site";
import { policyFor } from "~/route-policies";
import { chapterImageSources, videoHosts } from "../content/sanitize.server";

export type PolicyOptions = {
  /** The page's path: the pages that load the marketplace's script allow its host (route-policies.ts). */
  path?: string;
  /** `npm run dev`: Vite injects each stylesheet as a <style> element. */
  development?: boolean;
};

/**
 * The Content-Security-Policy of every answer. Everything comes from this
 * origin (`default-src 'self'`) unless a directive below says otherwise.
 * Scripts: this origin, plus the inline ones a page names, by a nonce made
 * for each rendered page (entry.server.tsx) or by their hashes for a page
 * whose bytes are kept (prerendered pages, static-files.server.ts; member
 * pages in the page cache, keptPagePolicy), never 'unsafe-inline'; the
 * marketplace's script host only on the pages that load its script. Frames
 * only from the video hosts chapters may embed; images from where chapters
 * may take them, http: too (below). Style attributes are allowed (progress
 * bars set their width), <style> elements are not.
 */
export function contentSecurityPolicy(
  inlineScripts: readonly string[] = [],
  { path, development = false }: PolicyOptions = {},
): string {
  const scripts = [
    "'self'",
    ...(path && policyFor(path).marketplaceScript ? checkoutProviderScripts : []),
    ...inlineScripts,
  ];
  return [
    "default-src 'self'",
    `script-src ${scripts.join(" ")}`,
    development ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
    "style-src-attr 'unsafe-inline'",
    `img-src ${imageSources.join(" ")}`,
    `frame-src ${videoHosts.map((host) => `https://${host}`).join(" ")}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * Chapter images may be at http:// addresses (the specification allows them).
 * `https:` already admits any host, so `http:` admits no new one; browsers
 * load such an image on an https page as https (mixed-content upgrade).
 * `upgrade-insecure-requests` was not used instead: it would also move this
 * site's own requests to https on a plain-http deployment (local, tests).
 */
const imageSources = [...new Set([...chapterImageSources, "http:"])];

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

const nonceSource = /'nonce-([A-Za-z0-9+/=]+)'/;
const nonceAttribute = / nonce="[A-Za-z0-9+/=]+"/g;

/**
 * A prerendered page without the nonce attributes of its render at build: its
 * policy names its inline scripts by their hashes, so the nonce in its bytes,
 * the same for every visitor, would be valid nowhere; it is taken out.
 */
export function withoutNonces(html: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const text = Buffer.from(html.buffer, html.byteOffset, html.byteLength).toString("utf8");
  if (!text.includes(' nonce="')) return html;
  return new Uint8Array(Buffer.from(text.replace(nonceAttribute, "")));
}

const scriptElement = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/**
 * `'sha256-…'` of each inline script whose opening tag carries `attribute`
 * (the render's nonce), as it reads once that attribute is taken out of the
 * page. A script without it (one injected into the page's content) is not
 * named, so it stays blocked.
 */
function noncedScriptHashes(html: string, attribute: string): string[] {
  const hashes = new Set<string>();
  for (const [, tag = "", content = ""] of html.matchAll(scriptElement)) {
    if (!tag.includes(attribute) || /\ssrc=/i.test(tag)) continue;
    const digest = createHash("sha256").update(content.replaceAll(attribute, "")).digest("base64");
    hashes.add(`'sha256-${digest}'`);
  }
  return [...hashes];
}

/**
 * A rendered page as the page cache keeps it, to be answered many times: the
 * inline scripts its render gave the nonce named by their hashes in the policy
 * instead of that nonce, and the nonce taken out of its bytes, so no nonce is
 * ever valid for more than one answer. Only scripts that carried the nonce are
 * named: one without it (in a member's content, say) stays blocked, as it was
 * on the first answer. Done once, when the page is kept: each later answer is
 * the same bytes and the same header.
 */
export function keptPage(
  body: Uint8Array<ArrayBuffer>,
  policy: string | undefined,
): { body: Uint8Array<ArrayBuffer>; policy: string | undefined } {
  const nonce = policy?.match(nonceSource);
  if (!policy || !nonce) return { body, policy };
  const attribute = Buffer.from(` nonce="${nonce[1]}"`);
  const html = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const hashes = noncedScriptHashes(html.toString("utf8"), attribute.toString());
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = html.indexOf(attribute); at !== -1; at = html.indexOf(attribute, from)) {
    parts.push(html.subarray(from, at));
    from = at + attribute.byteLength;
  }
  parts.push(html.subarray(from));
  const kept = new Uint8Array(Buffer.concat(parts));
  return { body: kept, policy: policy.replace(nonce[0], hashes.join(" ")).replace(/ ;/, ";") };
}
