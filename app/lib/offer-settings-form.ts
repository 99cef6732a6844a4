// The offer settings' form at /admin/settings (docs/decisions/012): its schema
// (money in dollars, dates as the inputs give them), used by the browser and
// the action alike, and the form's values for stored settings. The stored
// shape, its defaults and labels are in offer.ts; reading a stored value is
// server/settings/stored-offer-settings.server.ts.
import {
  customSaasPaymentChoices,
  isoDate,
  isTimeZone,
  localDateTime,
  type OfferSettings,
  type ProductNameSetting,
  type ProductPriceSetting,
  sellInChoices,
  validDate,
} from "./offer";
import { z } from "./zod";

/** An amount typed in dollars (17, 4.95, $17), as cents. */
export const dollars = (what: string) =>
  z
    .string(`Please enter ${what}`)
    .trim()
    .min(1, `Please enter ${what}`)
    .regex(/^\$?\d{1,7}(\.\d{1,2})?$/, `Enter ${what} in dollars, for example 17 or 4.95`)
    .transform((v) => Math.round(Number(v.replace("$", "")) * 100))
    .refine((c) => c <= 100_000_000, "Enter at most $1,000,000");

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

/** The settings this form edits: all but the products' names and prices, which are on /admin/products. */
export type OfferSettingsFormFields = Omit<OfferSettings, ProductPriceSetting | ProductNameSetting>;

export const offerSettingsFormSchema = z
  .object({
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
    couponEndsOn: z
      .string()
      .trim()
      .default("")
      .pipe(
        z.union([
          z.literal(""),
          z
            .string()
            .regex(isoDate, "Enter the coupon's last day as a date")
            .refine(validDate, "That date does not exist"),
        ]),
      ),
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
    sellIn: z.enum(sellInChoices, "Choose where buyers pay"),
    customSaasPayment: z.enum(customSaasPaymentChoices, "Choose how the Custom SaaS build is paid"),
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
    sellerName: z
      .string("Please enter the seller's name")
      .trim()
      .min(1, "Please enter the seller's name")
      .max(200, "This name is too long"),
    sellerAddress: z
      .string()
      .trim()
      .max(500, "This address is too long")
      .default("")
      .transform((v) => v.replace(/\r\n?/g, "\n")),
    coachingClientCap: z
      .string("Please enter how many clients you take at a time")
      .trim()
      .regex(/^\d{1,4}$/, "Enter a whole number of clients, for example 10")
      .transform(Number)
      .refine((n) => n >= 1 && n <= 1000, "Enter between 1 and 1000 clients"),
  })
  .refine((v) => v.contestEnd >= v.contestStart, {
    path: ["contestEnd"],
    message: "The contest's last day must not be before its first day",
  })
  .transform(
    (v): OfferSettingsFormFields => ({
      offer2PriceCents: v.offer2Price,
      couponCode: v.couponCode,
      couponSavingCents: v.couponSaving,
      couponEndsOn: v.couponEndsOn,
      launchAt: v.launchAt,
      launchTimeZone: v.launchTimeZone,
      contestStart: v.contestStart,
      contestEnd: v.contestEnd,
      sellIn: v.sellIn,
      customSaasPayment: v.customSaasPayment,
      mainOfferUrl: v.mainOfferUrl,
      whiteLabelUrl: v.whiteLabelUrl,
      customSaasUrl: v.customSaasUrl,
      discordInviteUrl: v.discordInviteUrl,
      supportEmail: v.supportEmail,
      sellerName: v.sellerName,
      sellerAddress: v.sellerAddress,
      coachingClientCap: v.coachingClientCap,
    }),
  );

export type OfferSettingsForm = Record<keyof z.input<typeof offerSettingsFormSchema>, string>;

/** Cents as the inputs show them: 17, 4.95. */
export const toDollars = (c: number) => (c % 100 === 0 ? String(c / 100) : (c / 100).toFixed(2));

/** The form's fields for stored settings (what the inputs show). */
export function formValues(s: OfferSettings): OfferSettingsForm {
  return {
    offer2Price: toDollars(s.offer2PriceCents),
    couponCode: s.couponCode,
    couponSaving: toDollars(s.couponSavingCents),
    couponEndsOn: s.couponEndsOn,
    launchAt: s.launchAt,
    launchTimeZone: s.launchTimeZone,
    contestStart: s.contestStart,
    contestEnd: s.contestEnd,
    sellIn: s.sellIn,
    customSaasPayment: s.customSaasPayment,
    mainOfferUrl: s.mainOfferUrl,
    whiteLabelUrl: s.whiteLabelUrl,
    customSaasUrl: s.customSaasUrl,
    discordInviteUrl: s.discordInviteUrl ?? "",
    supportEmail: s.supportEmail,
    sellerName: s.sellerName,
    sellerAddress: s.sellerAddress,
    coachingClientCap: String(s.coachingClientCap),
  };
}
