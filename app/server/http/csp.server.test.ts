import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  contentSecurityPolicy,
  inlineScriptHashes,
  keptPage,
  newNonce,
  withoutNonces,
} from "./csp.server";

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

describe("Content-Security-Policy", () => {
  it("loads everything from this origin unless a directive says otherwise", () => {
    const policy = contentSecurityPolicy();
    expect(policy.split("; ")[0]).toBe("default-src 'self'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("base-uri 'self'");
    expect(policy).toContain("form-action 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    // Style attributes (progress bars), but no <style> element outside development.
    expect(policy).toContain("style-src 'self';");
    expect(policy).toContain("style-src-attr 'unsafe-inline'");
    expect(contentSecurityPolicy([], { development: true })).toContain(
      "style-src 'self' 'unsafe-inline'",
    );
  });

  it("allows scripts from this origin and the named inline ones only, never unsafe-inline", () => {
    const policy = contentSecurityPolicy(["'nonce-abc'"], { path: "/dashboard" });
    expect(policy).toContain("script-src 'self' 'nonce-abc';");
    expect(policy).not.toMatch(/script-src[^;]*unsafe/);
    expect(contentSecurityPolicy()).toContain("script-src 'self';");
  });

  it("allows the marketplace's script host on the two upsell pages only", () => {
    for (const path of ["/white-label-upsell", "/custom-saas-upsell"]) {
      expect(contentSecurityPolicy(["'nonce-abc'"], { path })).toContain(
        "script-src 'self' https://warriorplus.com 'nonce-abc';",
      );
    }
    for (const path of ["/", "/ailabs-offer", "/upgrades", "/custom-saas-thank-you", "/login"]) {
      expect(contentSecurityPolicy([], { path })).not.toContain("warriorplus");
    }
    expect(contentSecurityPolicy()).not.toContain("warriorplus");
  });

  it("allows frames from the video hosts chapters may embed, images from where chapters take them, http: too", () => {
    const policy = contentSecurityPolicy();
    expect(policy).toContain(
      "frame-src https://www.youtube.com https://www.youtube-nocookie.com https://player.vimeo.com",
    );
    expect(policy).toContain("img-src 'self' data: https: http:;");
  });

  it("hashes each inline script of a page, not the external ones", () => {
    const inline = 'window.__ctx = {"a":"</b>"};';
    const html = `<head><script src="/assets/a.js"></script><script type="module">${inline}</script><script>${inline}</script></head>`;
    expect(inlineScriptHashes(html)).toEqual([sha256(inline)]);
    expect(inlineScriptHashes("<p>no scripts</p>")).toEqual([]);
  });

  it("makes a different nonce for every page", () => {
    const nonces = new Set(Array.from({ length: 100 }, newNonce));
    expect(nonces.size).toBe(100);
    expect([...nonces][0]).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });

  it("keeps a rendered page with its inline scripts named by hashes, its nonce gone", () => {
    const nonce = newNonce();
    const [first, second] = ["a()", "b()"];
    const html = `<html><head><script nonce="${nonce}">${first}</script></head><body><p>nonce="${nonce}" as text</p><script nonce="${nonce}" type="module">${second}</script><script type="module" nonce="${nonce}" src="/x.js"></script></body></html>`;
    const policy = contentSecurityPolicy([`'nonce-${nonce}'`], { path: "/dashboard" });
    const kept = keptPage(new Uint8Array(Buffer.from(html)), policy);
    const text = Buffer.from(kept.body).toString();
    expect(text).not.toContain(` nonce="${nonce}"`);
    expect(text).toContain(`<script>${first}</script>`);
    expect(text).toContain(`<script type="module" src="/x.js">`);
    expect(kept.policy).toBe(
      policy.replace(`'nonce-${nonce}'`, `${sha256(first)} ${sha256(second)}`),
    );
    // Without scripts or without a nonce: as it was.
    const bare = keptPage(
      new Uint8Array(Buffer.from("<p>hi</p>")),
      contentSecurityPolicy([`'nonce-${nonce}'`]),
    );
    expect(bare.policy).toContain("script-src 'self';");
    const plain = new Uint8Array(Buffer.from("<p>hi</p>"));
    expect(keptPage(plain, contentSecurityPolicy()).body).toBe(plain);
  });

  it("keeps a rendered page without allowing an inline script its render did not give the nonce", () => {
    const nonce = newNonce();
    const [own, injected] = ["a()", "alert(document.cookie)"];
    const html = `<html><head><script nonce="${nonce}">${own}</script></head><body><div class="chapter"><script>${injected}</script></div></body></html>`;
    const policy = contentSecurityPolicy([`'nonce-${nonce}'`], { path: "/dashboard" });
    const kept = keptPage(new Uint8Array(Buffer.from(html)), policy);
    expect(kept.policy).toContain(sha256(own));
    expect(kept.policy).not.toContain(sha256(injected));
    expect(kept.policy).toBe(policy.replace(`'nonce-${nonce}'`, sha256(own)));
  });

  it("takes the nonces of a build-time render out of a prerendered page", () => {
    const page = (nonce: string) =>
      `<head><link rel="modulepreload" href="/a.js"${nonce}/><script${nonce}>a()</script></head>`;
    for (let i = 0; i < 3; i++) {
      const nonce = ` nonce="${newNonce()}"`;
      const out = withoutNonces(new Uint8Array(Buffer.from(page(nonce))));
      expect(Buffer.from(out).toString()).toBe(page(""));
    }
    const plain = new Uint8Array(Buffer.from(page("")));
    expect(withoutNonces(plain)).toBe(plain);
  });
});
