import { describe, expect, it } from "vitest";
import { parseForm } from "./forms";
import { contestLabel, launchInstant, launchLabel, offerDefaults, winnersLabel } from "./offer";
import { formValues, offerSettingsFormSchema } from "./offer-settings-form";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
};
const defaults = formValues(offerDefaults);

describe("offer settings", () => {
  it("defaults to the config's values", () => {
    expect(offerDefaults).toMatchObject({
      planPriceCents: 2500,
      planRegularPriceCents: 19700,
      offer2PriceCents: 1700,
      couponCode: "LAUNCH",
      couponSavingCents: 300,
      launchTimeZone: "America/Chicago",
      mainOfferUrl: "https://warriorplus.com/o2/buy/ailabs/main",
      discordInviteUrl: null,
      supportEmail: "support@ailabs.app",
    });
    expect(defaults).toMatchObject({ offer2Price: "17", couponSaving: "3", discordInviteUrl: "" });
    // The products' prices are on /admin/products, not in this form.
    expect(defaults).not.toHaveProperty("planPrice");
  });

  it("reads the default form back as the defaults", () => {
    const parsed = parseForm(offerSettingsFormSchema, form(defaults));
    const {
      planPriceCents: _plan,
      planRegularPriceCents: _planRegular,
      bumpPriceCents: _bump,
      whiteLabelPriceCents: _whiteLabel,
      whiteLabelRegularPriceCents: _whiteLabelRegular,
      customSaasPriceCents: _customSaas,
      customSaasRegularPriceCents: _customSaasRegular,
      planName: _planName,
      bumpName: _bumpName,
      whiteLabelName: _whiteLabelName,
      customSaasName: _customSaasName,
      ...edited
    } = offerDefaults;
    expect(parsed).toEqual({ ok: true, data: edited });
  });

  it("takes money in dollars and stores cents", () => {
    const parsed = parseForm(
      offerSettingsFormSchema,
      form({ ...defaults, couponSaving: "4.95", offer2Price: "$17", couponCode: " save10 " }),
    );
    expect(parsed.ok && parsed.data).toMatchObject({
      couponSavingCents: 495,
      offer2PriceCents: 1700,
      couponCode: "SAVE10",
    });
  });

  it("refuses bad input with a message per field", () => {
    const parsed = parseForm(
      offerSettingsFormSchema,
      form({
        ...defaults,
        couponSaving: "twenty",
        offer2Price: "0",
        couponCode: "no spaces",
        launchAt: "2025-02-30T10:00",
        launchTimeZone: "Mars/Olympus",
        contestStart: "2025-06-14",
        contestEnd: "2025-06-13",
        mainOfferUrl: "http://warriorplus.com/buy",
        whiteLabelUrl: "",
        discordInviteUrl: "discord",
        supportEmail: "support@",
      }),
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.fieldErrors).toEqual({
      couponSaving: "Enter what the coupon saves in dollars, for example 17 or 4.95",
      offer2Price: "The price must be above $0",
      couponCode: "Use 1 to 32 letters, digits, - or _",
      launchAt: "That date does not exist",
      launchTimeZone: "Enter a time zone name such as America/Chicago or Europe/London",
      contestEnd: "The contest's last day must not be before its first day",
      mainOfferUrl: "The main offer's buy link must be an https:// address",
      whiteLabelUrl: "Please enter the white label buy link",
      discordInviteUrl: "Enter the invite as a web address (https://…)",
      supportEmail: "Please enter a valid e-mail address",
    });
  });

  it("keeps the seller's name and postal address for receipts, one line each", () => {
    const parsed = parseForm(
      offerSettingsFormSchema,
      form({
        ...defaults,
        sellerName: " AI Labs LLC ",
        sellerAddress: "1 Main St\r\nAustin, TX 78701\r\nUSA ",
      }),
    );
    expect(parsed.ok && parsed.data).toMatchObject({
      sellerName: "AI Labs LLC",
      sellerAddress: "1 Main St\nAustin, TX 78701\nUSA",
    });
    const refused = parseForm(
      offerSettingsFormSchema,
      form({ ...defaults, sellerName: "  ", sellerAddress: "x".repeat(501) }),
    );
    expect(!refused.ok && refused.fieldErrors).toEqual({
      sellerName: "Please enter the seller's name",
      sellerAddress: "This address is too long",
    });
  });

  it("takes the coaching clients at a time as a whole number from 1 to 1000", () => {
    expect(offerDefaults.coachingClientCap).toBe(10);
    expect(defaults.coachingClientCap).toBe("10");
    const parsed = parseForm(
      offerSettingsFormSchema,
      form({ ...defaults, coachingClientCap: " 25 " }),
    );
    expect(parsed.ok && parsed.data.coachingClientCap).toBe(25);
    for (const [typed, message] of [
      ["", "Enter a whole number of clients, for example 10"],
      ["2.5", "Enter a whole number of clients, for example 10"],
      ["0", "Enter between 1 and 1000 clients"],
      ["1001", "Enter between 1 and 1000 clients"],
    ]) {
      const refused = parseForm(
        offerSettingsFormSchema,
        form({ ...defaults, coachingClientCap: typed as string }),
      );
      expect(!refused.ok && refused.fieldErrors, typed).toEqual({ coachingClientCap: message });
    }
  });

  it("turns a wall-clock launch in a time zone into the instant, across daylight saving", () => {
    expect(launchInstant("2025-06-06T11:00", "America/Chicago")).toBe("2025-06-06T16:00:00.000Z");
    expect(launchInstant("2025-01-06T11:00", "America/Chicago")).toBe("2025-01-06T17:00:00.000Z");
    expect(launchInstant("2026-12-01T09:30", "Europe/Paris")).toBe("2026-12-01T08:30:00.000Z");
    expect(launchLabel(offerDefaults)).toBe("June 6, 2025 at 11:00 AM CDT");
  });

  it("labels the contest's days", () => {
    expect(contestLabel(offerDefaults)).toBe("June 12-13, 2025");
    expect(contestLabel({ contestStart: "2026-06-30", contestEnd: "2026-07-01" })).toBe(
      "June 30 - July 1, 2026",
    );
    expect(contestLabel({ contestStart: "2026-12-31", contestEnd: "2027-01-01" })).toBe(
      "December 31, 2026 - January 1, 2027",
    );
    expect(winnersLabel(offerDefaults)).toBe("June 13, 2025");
  });
});
