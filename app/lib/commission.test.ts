import { describe, expect, it } from "vitest";
import { affiliateFunnel, affiliateLaunch } from "~/config/site";
import { commissionTable, secondsUntil } from "./commission";

describe("commissionTable", () => {
  it("derives the funnel value and the top commission from the config", () => {
    const prices = {
      "lifetime-access": 1700,
      "bump-vip": 495,
      "white-label": 3700,
      "custom-saas": 99700,
    };
    const t = commissionTable(affiliateFunnel((key) => prices[key]));
    expect(t.totalCents).toBe(105595);
    expect(t.maxCommissionCents).toBe(52797);
    expect(t.rows.map((r) => r.amountCents)).toEqual([1700, 495, 3700, 99700]);
    expect(t.rows.map((r) => r.commissionCents)).toEqual([850, 247, 1850, 49850]);
  });

  it("handles an empty funnel", () => {
    expect(commissionTable([])).toEqual({ rows: [], totalCents: 0, maxCommissionCents: 0 });
  });
});

describe("secondsUntil", () => {
  const launch = affiliateLaunch.launchAt;
  const launchMs = Date.parse("2025-06-06T16:00:00Z");

  it("is the launch instant 11:00 at -05:00", () => {
    expect(new Date(launch).getTime()).toBe(launchMs);
  });

  it("counts down before the launch", () => {
    expect(secondsUntil(launch, launchMs - 90_061_000)).toBe(90_061);
    expect(secondsUntil(launch, launchMs - 1_500)).toBe(1);
  });

  it("stops at zero at and after the launch", () => {
    expect(secondsUntil(launch, launchMs)).toBe(0);
    expect(secondsUntil(launch, launchMs + 1)).toBe(0);
    expect(secondsUntil(launch, Date.parse("2026-01-01T00:00:00Z"))).toBe(0);
  });
});
