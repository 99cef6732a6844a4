import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, inlineScriptHashes, newNonce } from "./csp.server";

describe("Content-Security-Policy", () => {
  it("allows scripts from this origin and the named inline ones only, never unsafe-inline", () => {
    const policy = contentSecurityPolicy(["'nonce-abc'"]);
    expect(policy).toContain("script-src 'self' https://warriorplus.com 'nonce-abc'");
    expect(policy).not.toContain("unsafe");
    expect(contentSecurityPolicy()).toContain("script-src 'self' https://warriorplus.com;");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
  });

  it("allows frames from the video hosts chapters may embed, images from where chapters take them", () => {
    const policy = contentSecurityPolicy();
    expect(policy).toContain(
      "frame-src https://www.youtube.com https://www.youtube-nocookie.com https://player.vimeo.com",
    );
    expect(policy).toContain("img-src 'self' data: https:");
  });

  it("hashes each inline script of a page, not the external ones", () => {
    const inline = 'window.__ctx = {"a":"</b>"};';
    const html = `<head><script src="/assets/a.js"></script><script type="module">${inline}</script><script>${inline}</script></head>`;
    const expected = createHash("sha256").update(inline).digest("base64");
    expect(inlineScriptHashes(html)).toEqual([`'sha256-${expected}'`]);
    expect(inlineScriptHashes("<p>no scripts</p>")).toEqual([]);
  });

  it("makes a different nonce for every page", () => {
    const nonces = new Set(Array.from({ length: 100 }, newNonce));
    expect(nonces.size).toBe(100);
    expect([...nonces][0]).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});
