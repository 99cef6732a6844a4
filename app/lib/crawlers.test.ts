import { describe, expect, it } from "vitest";
import { publicPagePaths } from "~/route-policies";
import { robotsTxt, sitemapXml } from "./crawlers";

describe("sitemapXml", () => {
  it("lists every public page once, with the canonical origin", () => {
    const xml = sitemapXml("https://ailabs.app");
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns=/);
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual(publicPagePaths.map((p) => `https://ailabs.app${p}`));
  });

  it("escapes XML", () => {
    expect(sitemapXml("https://x.test", ["/a?b=1&c=2"])).toContain(
      "<loc>https://x.test/a?b=1&amp;c=2</loc>",
    );
  });
});

describe("robotsTxt", () => {
  it("allows the public pages and keeps members, admin, checkout and APIs out", () => {
    const txt = robotsTxt("https://ailabs.app");
    expect(txt).toContain("User-agent: *\nAllow: /\n");
    for (const p of [
      "/dashboard",
      "/course/",
      "/admin",
      "/app-builder",
      "/app-idea-generator",
      "/bonuses",
      "/account",
      "/api/",
      "/checkout/",
    ]) {
      expect(txt).toContain(`\nDisallow: ${p}\n`);
    }
    expect(txt).not.toMatch(/Disallow: \/\n/);
    expect(txt).toContain("Sitemap: https://ailabs.app/sitemap.xml");
  });
});
