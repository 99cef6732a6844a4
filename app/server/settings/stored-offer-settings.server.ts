// The stored offer settings (offer_settings.value): each field checked on its
// own, so one bad field falls back to its default alone.
import {
  customSaasPaymentChoices,
  isoDate,
  isTimeZone,
  localDateTime,
  type OfferSettings,
  offerSettingKeys,
  sellInChoices,
  validDate,
} from "~/lib/offer";
import { z } from "~/lib/zod";

const cents = z.number().int().min(0).max(100_000_000);
const httpsUrl = z.url({ protocol: /^https$/ }).max(500);

const productName = z.string().trim().min(1).max(80);

export const storedFieldSchemas = {
  planName: productName,
  bumpName: productName,
  whiteLabelName: productName,
  customSaasName: productName,
  planPriceCents: cents.min(1),
  planRegularPriceCents: cents,
  bumpPriceCents: cents.min(1),
  whiteLabelPriceCents: cents.min(1),
  whiteLabelRegularPriceCents: cents,
  customSaasPriceCents: cents.min(1),
  customSaasRegularPriceCents: cents,
  offer2PriceCents: cents.min(1),
  couponCode: z.string().regex(/^[A-Z0-9_-]{1,32}$/),
  couponSavingCents: cents,
  couponEndsOn: z.union([z.literal(""), z.string().regex(isoDate).refine(validDate)]),
  launchAt: z.string().regex(localDateTime),
  launchTimeZone: z.string().refine(isTimeZone),
  contestStart: z.string().regex(isoDate).refine(validDate),
  contestEnd: z.string().regex(isoDate).refine(validDate),
  sellIn: z.enum(sellInChoices),
  customSaasPayment: z.enum(customSaasPaymentChoices),
  mainOfferUrl: httpsUrl,
  whiteLabelUrl: httpsUrl,
  customSaasUrl: httpsUrl,
  discordInviteUrl: z
    .url({ protocol: /^https?$/ })
    .max(500)
    .nullable(),
  supportEmail: z.email().max(254),
  sellerName: z.string().min(1).max(200),
  sellerAddress: z.string().max(500),
  coachingClientCap: z.number().int().min(1).max(1000),
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

/** The keys whose values differ between two settings, for the audit log. */
export function changedKeys(before: OfferSettings, after: OfferSettings): (keyof OfferSettings)[] {
  return offerSettingKeys.filter((k) => before[k] !== after[k]);
}
