import { describe, expect, it } from "vitest";
import { preloadScriptsAfterPaint } from "./script-priority.server";

describe("module preloads", () => {
  it("are asked for at low priority, every one of them; the rest of the page is as it was", () => {
    const html =
      '<head><link rel="stylesheet" href="/a.css"/><link rel="modulepreload" href="/a.js" nonce="n"/><link rel="modulepreload" href="/b.js"/></head><body><script type="module">import("/a.js")</script></body>';
    expect(preloadScriptsAfterPaint(Buffer.from(html)).toString()).toBe(
      '<head><link rel="stylesheet" href="/a.css"/><link rel="modulepreload" fetchpriority="low" href="/a.js" nonce="n"/><link rel="modulepreload" fetchpriority="low" href="/b.js"/></head><body><script type="module">import("/a.js")</script></body>',
    );
    const plain = Buffer.from("<p>no scripts</p>");
    expect(preloadScriptsAfterPaint(plain)).toBe(plain);
  });
});
