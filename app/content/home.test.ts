import { describe, expect, it } from "vitest";
import { benefits, homeDisclaimer, learningList } from "./home";

describe("home page copy", () => {
  it("has three benefit cards, each with a title, text and an icon path", () => {
    expect(benefits).toHaveLength(3);
    for (const b of benefits) {
      expect(b.title).not.toBe("");
      expect(b.text.length).toBeGreaterThan(40);
      expect(b.icon).toMatch(/^M/);
    }
    expect(new Set(benefits.map((b) => b.title)).size).toBe(3);
  });

  it("lists nine distinct lessons and says results are not promised", () => {
    expect(learningList).toHaveLength(9);
    expect(new Set(learningList).size).toBe(9);
    expect(homeDisclaimer).toContain("not a promise or guarantee");
  });
});
