import { describe, expect, it } from "vitest";
import { applyCoupon, couponEndsAt, couponMessages, offerDefaults } from "./offer";

describe("the advertised coupon at the checkout", () => {
  const offer = { ...offerDefaults, couponCode: "LAUNCH", couponSavingCents: 300 };

  it("takes its code whatever the case and spaces, and takes off its saving", () => {
    expect(applyCoupon(offer, " launch ", 2500)).toEqual({
      ok: true,
      code: "LAUNCH",
      savingCents: 300,
    });
  });

  it("refuses another code", () => {
    expect(applyCoupon(offer, "LAUNCH10", 2500)).toEqual({
      ok: false,
      error: couponMessages.unknown,
    });
  });

  it("never takes off more than the price", () => {
    expect(applyCoupon({ ...offer, couponSavingCents: 9900 }, "LAUNCH", 2500)).toMatchObject({
      savingCents: 2500,
    });
  });

  it("works to the end of its last day in the launch time zone, then says it has expired", () => {
    const ending = { ...offer, couponEndsOn: "2026-06-13", launchTimeZone: "America/Chicago" };
    // Midnight in Chicago (UTC-5 in June) is 05:00 UTC on the next day.
    expect(couponEndsAt(ending)).toBe(Date.parse("2026-06-14T05:00:00Z"));
    const before = Date.parse("2026-06-14T04:59:59Z");
    expect(applyCoupon(ending, "LAUNCH", 2500, before)).toMatchObject({ ok: true });
    expect(applyCoupon(ending, "LAUNCH", 2500, before + 1000)).toEqual({
      ok: false,
      error: couponMessages.expired,
    });
    // No last day: no end.
    expect(couponEndsAt(offer)).toBeNull();
    expect(applyCoupon(offer, "LAUNCH", 2500, Date.parse("2099-01-01"))).toMatchObject({
      ok: true,
    });
  });
});
