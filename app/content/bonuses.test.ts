import { describe, expect, it } from "vitest";
import { bonusDownloads } from "~/config/site";
import { memberBonuses } from "./bonuses";

describe("member bonuses", () => {
  it("offer every download once, and the community without a file", () => {
    const files = memberBonuses.flatMap((b) => (b.file ? [b.file] : []));
    expect(files.sort()).toEqual(Object.keys(bonusDownloads).sort());
    expect(memberBonuses.filter((b) => !b.file).map((b) => b.title)).toEqual([
      "Private Community (Discord)",
    ]);
  });

  it("state a value and what each includes", () => {
    for (const bonus of memberBonuses) {
      expect(bonus.value).toMatch(/^\$\d/);
      expect(bonus.includes.length).toBeGreaterThan(0);
      expect(bonus.action).not.toBe("");
    }
  });
});
