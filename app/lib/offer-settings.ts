import { lifetimeAccess, salesFunnel, site } from "~/config/site";
import { z } from "./zod";

// The offer settings the owner edits at /admin/settings (docs/decisions/012):
// the stored shape (cents, ISO dates), its defaults (the values the pages had
// before the setting existed), the form's schema (dollars, text) and the labels
// the pages show. Shared by the browser and the server.

export type OfferSettings = {
  /** The plan's price: the landing page, the first sales page, the checkout. */
  planPriceCents: number;
  /** The struck-through regular price beside it. */
  planRegularPriceCents: number;
  /** The price on the second sales page (/ailabs-offer2). */
  offer2PriceCents: number;
  /** The launch coupon both sales pages show, and what it takes off. */
  couponCode: string;
  couponSavingCents: number;
  /** The launch instant as a wall-clock time (YYYY-MM-DDTHH:mm) in `launchTimeZone`. */
  launchAt: string;
  /** An IANA time zone (America/Chicago). */
  launchTimeZone: string;
  /** The contest's first and last day (YYYY-MM-DD); winners are announced on the last. */
  contestStart: string;
  contestEnd: string;
  /** Marketplace buy links: the main offer, the white label upsell, the custom SaaS upsell. */
  mainOfferUrl: string;
  whiteLabelUrl: string;
  customSaasUrl: string;
  /** The members' Discord invite; null: the DISCORD_INVITE_URL setting, else "coming soon". */
  discordInviteUrl: string | null;
  supportEmail: string;
};

export const offerSettingKeys = [
  "planPriceCents",
  "planRegularPriceCents",
  "offer2PriceCents",
  "couponCode",
  "couponSavingCents",
  "launchAt",
  "launchTimeZone",
  "contestStart",
  "contestEnd",
  "mainOfferUrl",
  "whiteLabelUrl",
  "customSaasUrl",
  "discordInviteUrl",
  "supportEmail",
] as const satisfies readonly (keyof OfferSettings)[];

/** The values the pages showed before the settings existed (app/config/site.ts). */
export const offerDefaults: OfferSettings = {
  planPriceCents: lifetimeAccess.amountCents,
  planRegularPriceCents: lifetimeAccess.regularAmountCents,
  offer2PriceCents: salesFunnel.marketplacePriceCents,
  couponCode: salesFunnel.coupons.offer,
  couponSavingCents: salesFunnel.couponSavingCents,
  launchAt: "2025-06-06T11:00",
  launchTimeZone: "America/Chicago",
  contestStart: "2025-06-12",
  contestEnd: "2025-06-13",
  mainOfferUrl: salesFunnel.checkoutUrls.mainOffer,
  whiteLabelUrl: salesFunnel.checkoutUrls.whiteLabel,
  customSaasUrl: salesFunnel.checkoutUrls.coaching,
  discordInviteUrl: null,
  supportEmail: site.supportEmail,
};

/** Whether `zone` is a time zone this runtime knows (IANA names: Europe/Paris, UTC). */
export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const localDateTime = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;
const isoDate = /^\d{4}-\d{2}-\d{2}$/;

function validDate(v: string): boolean {
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
}

/** The UTC offset of `zone` at `utcMs`, in milliseconds. */
function zoneOffsetMs(utcMs: number, zone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    })
      .formatToParts(new Date(utcMs))
      .map((p) => [p.type, p.value]),
  );
  const asUtc = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return asUtc - utcMs;
}

/** The instant (ISO, UTC) of a wall-clock time `YYYY-MM-DDTHH:mm` in `zone`. */
export function launchInstant(local: string, zone: string): string {
  const m = localDateTime.exec(local);
  if (!m) return new Date(Number.NaN).toString();
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  let utc = wall - zoneOffsetMs(wall, zone);
  utc = wall - zoneOffsetMs(utc, zone);
  return new Date(utc).toISOString();
}

/** "June 6, 2025 at 11:00 AM CDT": the launch as the pages show it. */
export function launchLabel(s: Pick<OfferSettings, "launchAt" | "launchTimeZone">): string {
  const at = new Date(launchInstant(s.launchAt, s.launchTimeZone));
  const date = at.toLocaleDateString("en-US", {
    timeZone: s.launchTimeZone,
    month: "long",
    day: "numeric",
    year: "numeric",
  });
  const time = at.toLocaleTimeString("en-US", {
    timeZone: s.launchTimeZone,
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  });
  return `${date} at ${time}`;
}

const dayLabel = (day: string, withYear = true) =>
  new Date(`${day}T12:00:00Z`).toLocaleDateString("en-US", {
    timeZone: "UTC",
    month: "long",
    day: "numeric",
    ...(withYear ? { year: "numeric" } : {}),
  });

/** "June 12-13, 2025" (or "June 30 - July 1, 2025"): the contest's days. */
export function contestLabel(s: Pick<OfferSettings, "contestStart" | "contestEnd">): string {
  if (s.contestStart === s.contestEnd) return dayLabel(s.contestEnd);
  const sameMonth = s.contestStart.slice(0, 7) === s.contestEnd.slice(0, 7);
  if (sameMonth) {
    return `${dayLabel(s.contestStart, false)}-${Number(s.contestEnd.slice(8))}, ${s.contestEnd.slice(0, 4)}`;
  }
  return `${dayLabel(s.contestStart, s.contestStart.slice(0, 4) !== s.contestEnd.slice(0, 4))} - ${dayLabel(s.contestEnd)}`;
}

/** The day the contest's winners are announced: its last day. */
export const winnersLabel = (s: Pick<OfferSettings, "contestEnd">) => dayLabel(s.contestEnd);

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
