import { describe, expect, it } from "vitest";
import { site } from "~/config/site";
import { bannerCode, bannerHref, bannerPath, banners } from "./banners";
import { LINK_PLACEHOLDER } from "./swipes";

describe("banners", () => {
  it("come in four sizes, each with its own file", () => {
    expect(banners).toHaveLength(4);
    expect(new Set(banners.map(bannerPath)).size).toBe(4);
    expect(bannerPath({ width: 728, height: 90 })).toBe("/banners/ailabs-728x90.png");
  });

  it("link to the affiliate's web address, trimmed", () => {
    expect(bannerHref(" https://example.com/r/123 ")).toBe("https://example.com/r/123");
    expect(bannerHref("http://example.com")).toBe("http://example.com");
  });

  it("keep the placeholder while the link is not a web address", () => {
    expect(bannerHref("")).toBe(LINK_PLACEHOLDER);
    expect(bannerHref("example.com")).toBe(LINK_PLACEHOLDER);
    expect(bannerHref("javascript:alert(1)")).toBe(LINK_PLACEHOLDER);
  });

  it("give HTML with the link escaped and the image on the canonical origin", () => {
    const banner = { width: 300, height: 250, name: "Medium rectangle" };
    const code = bannerCode(banner, 'https://example.com/?a=1&b="2"<');
    expect(code).toContain('href="https://example.com/?a=1&amp;b=&quot;2&quot;&lt;"');
    expect(code).toContain(`src="${site.canonicalOrigin}/banners/ailabs-300x250.png"`);
    expect(code).toContain('width="300" height="250"');
  });
});
