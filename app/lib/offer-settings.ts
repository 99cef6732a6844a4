// The offer settings the owner edits at /admin/settings (docs/decisions/012):
// the stored shape (cents, ISO dates), its defaults (the values the pages had
// before the setting existed), the form's schema (dollars, text) and the labels
// the pages show. The shape, defaults and labels are in offer.ts, which the
// pages' browser code imports without the schemas; this module adds those.
import {
  isoDate,
  isTimeZone,
  localDateTime,
  type OfferSettings,
  offerSettingKeys,
  validDate,
} from "./offer";
import { z } from "./zod";

export * from "./offer";

// ─── The stored value: each field checked on its own, so one bad field falls back alone ───

const cents = z.number().int().min(0).max(100_000_000);
const httpsUrl = z.url({ protocol: /^https$/ }).max(500);

export const storedFieldSchemas = {
  planPriceCents: cents.min(1),
  planRegularPriceCents: cents,
  offer2PriceCents: cents.min(1),
  couponCode: z.string().regex(/^[A-Z0-9_-]{1,32}$/),
  couponSavingCents: cents,
  launchAt: z.string().regex(localDateTime),
  launchTimeZone: z.string().refine(isTimeZone),
  contestStart: z.string().regex(isoDate).refine(validDate),
  contestEnd: z.string().regex(isoDate).refine(validDate),
  mainOfferUrl: httpsUrl,
  whiteLabelUrl: httpsUrl,
  customSaasUrl: httpsUrl,
  discordInviteUrl: z
    .url({ protocol: /^https?$/ })
    .max(500)
    .nullable(),
  supportEmail: z.email().max(254),
} satisfies Record<keyof OfferSettings, z.ZodType>;

/**
 * The settings a stored value gives: each valid field of it over `defaults`.
 * A field missing or no longer valid keeps its default.
 */
export function settingsFromStored(stored: unknown, defaults: OfferSettings): OfferSettings {
  const out: Record<string, unknown> = { ...defaults };
  if (stored && typeof stored === "object") {
    for (const key of offerSettingKeys) {
      const value = (stored as Record<string, unknown>)[key];
      // null (the Discord invite left empty): the default, DISCORD_INVITE_URL where set.
      if (value === undefined || value === null) continue;
      const parsed = storedFieldSchemas[key].safeParse(value);
      if (parsed.success) out[key] = parsed.data;
    }
  }
  return out as OfferSettings;
}

// ─── The form: money in dollars, dates as the inputs give them ───

const dollars = (what: string) =>
  z
    .string(`Please enter ${what}`)
    .trim()
    .min(1, `Please enter ${what}`)
    .regex(/^\$?\d{1,7}(\.\d{1,2})?$/, `Enter ${what} in dollars, for example 17 or 4.95`)
    .transform((v) => Math.round(Number(v.replace("$", "")) * 100));

const httpsLink = (what: string) =>
  z
    .string(`Please enter ${what}`)
    .trim()
    .min(1, `Please enter ${what}`)
    .max(500, "This link is too long")
    .pipe(
      z.url({
        protocol: /^https$/,
        message: `${what[0]?.toUpperCase()}${what.slice(1)} must be an https:// address`,
      }),
    );

export const offerSettingsFormSchema = z
  .object({
    planPrice: dollars("the plan's price").refine((c) => c > 0, "The price must be above $0"),
    planRegularPrice: dollars("the struck-through price"),
    offer2Price: dollars("the second sales page's price").refine(
      (c) => c > 0,
      "The price must be above $0",
    ),
    couponCode: z
      .string("Please enter a coupon code")
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9_-]{1,32}$/, "Use 1 to 32 letters, digits, - or _"),
    couponSaving: dollars("what the coupon saves"),
    launchAt: z
      .string("Please enter the launch date and time")
      .trim()
      .transform((v) => v.slice(0, 16))
      .pipe(
        z
          .string()
          .regex(localDateTime, "Enter the launch as a date and time")
          .refine((v) => validDate(v.slice(0, 10)), "That date does not exist"),
      ),
    launchTimeZone: z
      .string("Please enter a time zone")
      .trim()
      .refine(isTimeZone, "Enter a time zone name such as America/Chicago or Europe/London"),
    contestStart: z
      .string("Please enter the contest's first day")
      .trim()
      .regex(isoDate, "Enter the contest's first day as a date")
      .refine(validDate, "That date does not exist"),
    contestEnd: z
      .string("Please enter the contest's last day")
      .trim()
      .regex(isoDate, "Enter the contest's last day as a date")
      .refine(validDate, "That date does not exist"),
    mainOfferUrl: httpsLink("the main offer's buy link"),
    whiteLabelUrl: httpsLink("the white label buy link"),
    customSaasUrl: httpsLink("the custom SaaS buy link"),
    discordInviteUrl: z
      .string()
      .trim()
      .max(500, "This link is too long")
      .default("")
      .transform((v) => v || null)
      .pipe(
        z
          .url({ protocol: /^https?$/, message: "Enter the invite as a web address (https://…)" })
          .nullable(),
      ),
    supportEmail: z
      .string("Please enter the support e-mail")
      .trim()
      .max(254, "This address is too long")
      .pipe(z.email("Please enter a valid e-mail address"))
      .transform((v) => v.toLowerCase()),
  })
  .refine((v) => v.contestEnd >= v.contestStart, {
    path: ["contestEnd"],
    message: "The contest's last day must not be before its first day",
  })
  .transform(
    (v): OfferSettings => ({
      planPriceCents: v.planPrice,
      planRegularPriceCents: v.planRegularPrice,
      offer2PriceCents: v.offer2Price,
      couponCode: v.couponCode,
      couponSavingCents: v.couponSaving,
      launchAt: v.launchAt,
      launchTimeZone: v.launchTimeZone,
      contestStart: v.contestStart,
      contestEnd: v.contestEnd,
      mainOfferUrl: v.mainOfferUrl,
      whiteLabelUrl: v.whiteLabelUrl,
      customSaasUrl: v.customSaasUrl,
      discordInviteUrl: v.discordInviteUrl,
      supportEmail: v.supportEmail,
    }),
  );

export type OfferSettingsForm = Record<keyof z.input<typeof offerSettingsFormSchema>, string>;

const toDollars = (c: number) => (c % 100 === 0 ? String(c / 100) : (c / 100).toFixed(2));

/** The form's fields for stored settings (what the inputs show). */
export function formValues(s: OfferSettings): OfferSettingsForm {
  return {
    planPrice: toDollars(s.planPriceCents),
    planRegularPrice: toDollars(s.planRegularPriceCents),
    offer2Price: toDollars(s.offer2PriceCents),
    couponCode: s.couponCode,
    couponSaving: toDollars(s.couponSavingCents),
    launchAt: s.launchAt,
    launchTimeZone: s.launchTimeZone,
    contestStart: s.contestStart,
    contestEnd: s.contestEnd,
    mainOfferUrl: s.mainOfferUrl,
    whiteLabelUrl: s.whiteLabelUrl,
    customSaasUrl: s.customSaasUrl,
    discordInviteUrl: s.discordInviteUrl ?? "",
    supportEmail: s.supportEmail,
  };
}

/** The keys whose values differ between two settings, for the audit log. */
export function changedKeys(before: OfferSettings, after: OfferSettings): (keyof OfferSettings)[] {
  return offerSettingKeys.filter((k) => before[k] !== after[k]);
}
