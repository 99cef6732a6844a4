import { describe, expect, it } from "vitest";
import { site } from "~/config/site";
import { offerDefaults } from "~/lib/offer";
import { publicPagePaths } from "~/route-policies";
import { pageMeta, pageMetaFor } from "./seo";

/** The content of a page's description tag. */
const description = (tags: ReturnType<typeof pageMeta>) =>
  tags.find((t) => "name" in t && t.name === "description")?.content;

describe("pageMeta", () => {
  it("gives the title, description, canonical URL and Open Graph tags", () => {
    const tags = pageMeta({ title: "T", description: "D", path: "/p" });
    const url = `${site.canonicalOrigin}/p`;
    expect(tags).toContainEqual({ title: "T" });
    expect(tags).toContainEqual({ name: "description", content: "D" });
    expect(tags).toContainEqual({ tagName: "link", rel: "canonical", href: url });
    expect(tags).toContainEqual({ property: "og:title", content: "T" });
    expect(tags).toContainEqual({ property: "og:description", content: "D" });
    expect(tags).toContainEqual({ property: "og:url", content: url });
    expect(tags).toContainEqual({
      property: "og:image",
      content: `${site.canonicalOrigin}/og-image.png`,
    });
  });
});

describe("pageMetaFor", () => {
  it("gives every public page its own title and description, at its own path", () => {
    const titles = new Set<string>();
    for (const path of publicPagePaths) {
      const tags = pageMetaFor(path);
      const title = (tags[0] as { title: string }).title;
      expect(title).not.toBe("");
      titles.add(title);
      expect(description(tags)).not.toBe("");
      expect(tags).toContainEqual({
        tagName: "link",
        rel: "canonical",
        href: `${site.canonicalOrigin}${path}`,
      });
    }
    expect(titles.size).toBe(publicPagePaths.length);
  });

  it("quotes the offer's price on the sales pages, the defaults without one", () => {
    const offer = { ...offerDefaults, planPriceCents: 2500, offer2PriceCents: 4900 };
    expect(description(pageMetaFor("/ailabs-offer", offer))).toContain("one-time $25,");
    expect(description(pageMetaFor("/ailabs-offer2", offer))).toContain("One-time $49,");
    expect(description(pageMetaFor("/ailabs-offer"))).toBe(
      description(pageMetaFor("/ailabs-offer", offerDefaults)),
    );
  });
});
