import { describe, expect, it } from "vitest";
import { affiliateFunnel, formatUsd } from "~/config/site";
import { offerDefaults } from "~/lib/offer-settings";
import {
  launchDates,
  maxCommissionCents,
  reasons,
  resourceCards,
  resourceLinks,
  totalCents,
} from "./affiliate";
import { tabIds } from "./swipes";

describe("affiliate page copy", () => {
  it("pays half of the whole funnel", () => {
    const sum = affiliateFunnel.reduce((total, step) => total + step.amountCents, 0);
    expect(totalCents).toBe(sum);
    expect(maxCommissionCents).toBe(Math.floor(sum / 2));
    expect(
      reasons(offerDefaults)
        .map((r) => r.text)
        .join(" "),
    ).toContain(formatUsd(maxCommissionCents));
  });

  it("links every resource to a tab of /demo-swipes", () => {
    for (const { to } of [...resourceCards, ...resourceLinks]) {
      const url = new URL(to, "https://example.com");
      expect(url.pathname).toBe("/demo-swipes");
      expect(tabIds).toContain(url.searchParams.get("tab"));
    }
  });

  it("names three launch dates, each once", () => {
    expect(launchDates(offerDefaults)).toHaveLength(3);
    expect(new Set(launchDates(offerDefaults).map((d) => d.date)).size).toBe(3);
  });
});
