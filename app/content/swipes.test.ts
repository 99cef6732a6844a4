import { describe, expect, it } from "vitest";
import { offerDefaults } from "~/lib/offer";
import {
  defaultSwipeValues,
  fillSwipe,
  LINK_PLACEHOLDER,
  NAME_PLACEHOLDER,
  swipesFor,
  tabFromQuery,
} from "./swipes";

const { short: shortSwipes, long: longSwipes } = swipesFor(offerDefaults);

describe("e-mail swipes", () => {
  it("are 4 short and 7 long, each with a subject, the name and the link", () => {
    expect(shortSwipes).toHaveLength(4);
    expect(longSwipes).toHaveLength(7);
    const all = [...shortSwipes, ...longSwipes];
    expect(new Set(all.map((s) => s.id)).size).toBe(11);
    expect(new Set(all.map((s) => s.subject)).size).toBe(11);
    for (const swipe of all) {
      expect(swipe.body).toContain(NAME_PLACEHOLDER);
      expect(swipe.body).toContain(LINK_PLACEHOLDER);
    }
    // Every long one is longer than any short one.
    const words = (s: { body: string }) => s.body.split(/\s+/).length;
    expect(Math.min(...longSwipes.map(words))).toBeGreaterThan(Math.max(...shortSwipes.map(words)));
  });

  it("quote the offer settings' marketplace and struck prices", () => {
    const { short, long } = swipesFor({ offer2PriceCents: 2900, planRegularPriceCents: 29900 });
    const text = [...short, ...long].map((s) => `${s.subject}\n${s.body}`).join("\n");
    expect(text).toContain("$29 for lifetime access");
    expect(text).toContain("normally lists at $299");
    expect(text).not.toContain("$17 ");
    expect(text).not.toMatch(/\$197(?! value)/);
  });

  it("fill every placeholder, taking the values literally", () => {
    const swipe = shortSwipes[0];
    if (!swipe) throw new Error("no swipe");
    const text = fillSwipe(swipe, { name: "Ana", link: "https://x.test/?a=1&b=$&" });
    expect(text.startsWith(`Subject: ${swipe.subject}\n\nHi Ana,`)).toBe(true);
    expect(text).toContain("https://x.test/?a=1&b=$&");
    expect(text).not.toContain(NAME_PLACEHOLDER);
    expect(text).not.toContain(LINK_PLACEHOLDER);
  });

  it("keep a placeholder whose value is left empty", () => {
    const swipe = longSwipes[6];
    if (!swipe) throw new Error("no swipe");
    const text = fillSwipe(swipe, { name: " ", link: "" });
    expect(text).toContain(`Hi ${NAME_PLACEHOLDER},`);
    expect(text).toContain(LINK_PLACEHOLDER);
    expect(fillSwipe(swipe, defaultSwipeValues)).toContain(defaultSwipeValues.link);
  });
});

describe("the tab a ?tab= value opens", () => {
  it.each([
    [null, "demo"],
    ["demo", "demo"],
    ["short-emails", "short-emails"],
    ["emails", "short-emails"],
    ["long-emails", "long-emails"],
    ["banners", "banners"],
    ["BANNERS", "demo"],
    ["constructor", "demo"],
  ])("%s opens %s", (value, tab) => {
    expect(tabFromQuery(value)).toBe(tab);
  });
});
