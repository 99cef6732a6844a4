import { describe, expect, it } from "vitest";
import { offerDefaults } from "~/lib/offer";
import { changedKeys, settingsFromStored } from "./stored-offer-settings.server";

describe("the stored offer settings", () => {
  it("keeps the default of a stored field that is missing or no longer valid", () => {
    const stored = { planPriceCents: 1900, couponCode: "bad code", discordInviteUrl: null };
    const settings = settingsFromStored(stored, {
      ...offerDefaults,
      discordInviteUrl: "https://discord.gg/env",
    });
    expect(settings.planPriceCents).toBe(1900);
    expect(settings.couponCode).toBe("LAUNCH");
    expect(settings.discordInviteUrl).toBe("https://discord.gg/env");
    expect(changedKeys(offerDefaults, settings)).toEqual(["planPriceCents", "discordInviteUrl"]);
  });
});
