import { describe, expect, it } from "vitest";
import { affiliateFunnel, formatUsd } from "~/config/site";
import { offerDefaults, productPrice } from "~/lib/offer";
import { funnelFor, launchDates, reasons, resourceCards, resourceLinks } from "./affiliate";
import { tabIds } from "./swipes";

describe("affiliate page copy", () => {
  it("pays half of the whole funnel", () => {
    const sum = affiliateFunnel((key) =>
      key === "lifetime-access"
        ? offerDefaults.offer2PriceCents
        : productPrice(offerDefaults, key).priceCents,
    ).reduce((total, step) => total + step.amountCents, 0);
    expect(sum).toBe(1700 + 495 + 3700 + 99700);
    const { totalCents, maxCommissionCents } = funnelFor(offerDefaults);
    expect(totalCents).toBe(sum);
    expect(maxCommissionCents).toBe(Math.floor(sum / 2));
    expect(
      reasons(offerDefaults)
        .map((r) => r.text)
        .join(" "),
    ).toContain(formatUsd(maxCommissionCents));
  });

  it("sells the add-ons at their prices in the offer settings", () => {
    const offer = { ...offerDefaults, whiteLabelPriceCents: 4700, customSaasPriceCents: 149700 };
    expect(funnelFor(offer).rows.map((r) => r.amountCents)).toEqual([1700, 495, 4700, 149700]);
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

  it("sells the front end at the offer settings' marketplace price", () => {
    const offer = { ...offerDefaults, offer2PriceCents: 2900 };
    const { rows, totalCents } = funnelFor(offer);
    expect(rows[0]).toMatchObject({
      key: "lifetime-access",
      amountCents: 2900,
      commissionCents: 1450,
    });
    expect(totalCents).toBe(funnelFor(offerDefaults).totalCents + 1200);
    expect(reasons(offer)[0]?.text).toContain("At $29, lifetime access");
  });
});
