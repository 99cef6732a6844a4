import {
  type FunnelProductKey,
  funnelProducts,
  lifetimeAccess,
  salesFunnel,
  site,
} from "~/config/site";

// The offer settings as the pages read them (docs/decisions/012): their shape,
// defaults and the labels the pages show. No schema here: the sales pages'
// code in the browser imports this module, and the validation library stays
// on the server and the admin's form (offer-settings.ts, which re-exports this).

/** Where the funnel sells (OfferSettings.sellIn). */
export const sellInChoices = ["product", "marketplace"] as const;
export type SellIn = (typeof sellInChoices)[number];

/** How the Custom SaaS build is paid after the plan (OfferSettings.customSaasPayment). */
export const customSaasPaymentChoices = ["one-click", "checkout"] as const;
export type CustomSaasPayment = (typeof customSaasPaymentChoices)[number];

export type OfferSettings = {
  /**
   * The products' names, as every page, receipt and e-mail names them (edited on
   * /admin/products with their prices): Lifetime Access, the VIP Upgrade bump,
   * the 12-in-1 White Label package, the Custom SaaS build.
   */
  planName: string;
  bumpName: string;
  whiteLabelName: string;
  customSaasName: string;
  /** Lifetime Access (the plan): the landing page, the first sales page, the checkout. */
  planPriceCents: number;
  /** The struck-through regular price beside it. */
  planRegularPriceCents: number;
  /** The VIP Upgrade bump. The products' prices are edited on /admin/products. */
  bumpPriceCents: number;
  /** The 12-in-1 White Label package and its struck-through price: /white-label-upsell, /upgrades. */
  whiteLabelPriceCents: number;
  whiteLabelRegularPriceCents: number;
  /** The Custom SaaS build and its struck-through price: /custom-saas-upsell, /upgrades. */
  customSaasPriceCents: number;
  customSaasRegularPriceCents: number;
  /** The price on the second sales page (/ailabs-offer2). */
  offer2PriceCents: number;
  /** The launch coupon both sales pages show, and what it takes off. */
  couponCode: string;
  couponSavingCents: number;
  /**
   * The coupon's last day (YYYY-MM-DD in `launchTimeZone`): the checkout takes
   * it until that day ends. "": no end.
   */
  couponEndsOn: string;
  /** The launch instant as a wall-clock time (YYYY-MM-DDTHH:mm) in `launchTimeZone`. */
  launchAt: string;
  /** An IANA time zone (America/Chicago). */
  launchTimeZone: string;
  /** The contest's first and last day (YYYY-MM-DD); winners are announced on the last. */
  contestStart: string;
  contestEnd: string;
  /**
   * Where the funnel's buy buttons lead: this site's checkout ("product") or the
   * marketplace links below ("marketplace"). The pages show the marketplace's
   * whenever no card provider or test checkout is on (publicOffer()).
   */
  sellIn: SellIn;
  /**
   * How "Apply Now" on /custom-saas-upsell takes its payment when the funnel
   * sells in the product: in one click with the card of the plan's order, or
   * at a checkout page where the card is entered again (a Stripe Checkout
   * Session, or the test checkout).
   */
  customSaasPayment: CustomSaasPayment;
  /** Marketplace buy links: the main offer, the white label upsell, the custom SaaS upsell. */
  mainOfferUrl: string;
  whiteLabelUrl: string;
  customSaasUrl: string;
  /** The members' Discord invite; null: the DISCORD_INVITE_URL setting, else "coming soon". */
  discordInviteUrl: string | null;
  supportEmail: string;
  /** Who sells, as every receipt names them: a name and a postal address (lines). */
  sellerName: string;
  sellerAddress: string;
  /**
   * How many Custom SaaS clients are taken at a time: the spots /custom-saas-upsell
   * counts down from the real purchases; it stops selling when none are left.
   */
  coachingClientCap: number;
};

/**
 * What public pages get of the offer settings: all but the members' Discord
 * invite and the seller's details, which only receipts show.
 */
export type PublicOffer = Omit<OfferSettings, "discordInviteUrl" | "sellerName" | "sellerAddress">;

export const offerSettingKeys = [
  "planName",
  "bumpName",
  "whiteLabelName",
  "customSaasName",
  "planPriceCents",
  "planRegularPriceCents",
  "bumpPriceCents",
  "whiteLabelPriceCents",
  "whiteLabelRegularPriceCents",
  "customSaasPriceCents",
  "customSaasRegularPriceCents",
  "offer2PriceCents",
  "couponCode",
  "couponSavingCents",
  "couponEndsOn",
  "launchAt",
  "launchTimeZone",
  "contestStart",
  "contestEnd",
  "sellIn",
  "customSaasPayment",
  "mainOfferUrl",
  "whiteLabelUrl",
  "customSaasUrl",
  "discordInviteUrl",
  "supportEmail",
  "sellerName",
  "sellerAddress",
  "coachingClientCap",
] as const satisfies readonly (keyof OfferSettings)[];

/** The values the pages showed before the settings existed (app/config/site.ts). */
export const offerDefaults: OfferSettings = {
  planName: funnelProducts["lifetime-access"].name,
  bumpName: funnelProducts["bump-vip"].name,
  whiteLabelName: funnelProducts["white-label"].name,
  customSaasName: funnelProducts["custom-saas"].name,
  planPriceCents: lifetimeAccess.amountCents,
  planRegularPriceCents: lifetimeAccess.regularAmountCents,
  bumpPriceCents: funnelProducts["bump-vip"].amountCents,
  whiteLabelPriceCents: salesFunnel.whiteLabel.priceCents,
  whiteLabelRegularPriceCents: salesFunnel.whiteLabel.regularPriceCents,
  customSaasPriceCents: salesFunnel.coaching.priceCents,
  customSaasRegularPriceCents: salesFunnel.coaching.regularPriceCents,
  offer2PriceCents: salesFunnel.marketplacePriceCents,
  couponCode: salesFunnel.coupons.offer,
  couponSavingCents: salesFunnel.couponSavingCents,
  couponEndsOn: "",
  launchAt: "2025-06-06T11:00",
  launchTimeZone: "America/Chicago",
  contestStart: "2025-06-12",
  contestEnd: "2025-06-13",
  sellIn: "product",
  customSaasPayment: "one-click",
  mainOfferUrl: salesFunnel.checkoutUrls.mainOffer,
  whiteLabelUrl: salesFunnel.checkoutUrls.whiteLabel,
  customSaasUrl: salesFunnel.checkoutUrls.coaching,
  discordInviteUrl: null,
  supportEmail: site.supportEmail,
  sellerName: site.brand,
  sellerAddress: "",
  coachingClientCap: salesFunnel.coaching.clientCap,
};

/** A product's price and the struck-through price beside it (none for the VIP Upgrade). */
export type ProductPrice = { priceCents: number; regularPriceCents: number | null };

/** Which offer settings hold each product's price and struck-through price. */
export const productPriceKeys = {
  "lifetime-access": { price: "planPriceCents", regular: "planRegularPriceCents" },
  "bump-vip": { price: "bumpPriceCents", regular: null },
  "white-label": { price: "whiteLabelPriceCents", regular: "whiteLabelRegularPriceCents" },
  "custom-saas": { price: "customSaasPriceCents", regular: "customSaasRegularPriceCents" },
} as const satisfies Record<
  FunnelProductKey,
  { price: keyof OfferSettings; regular: keyof OfferSettings | null }
>;

/** The offer settings that hold the products' prices. */
export type ProductPriceSetting = {
  [P in FunnelProductKey]: Exclude<
    (typeof productPriceKeys)[P][keyof (typeof productPriceKeys)[P]],
    null
  >;
}[FunnelProductKey];

/** A product's prices as every page shows them and the checkout charges. */
export function productPrice(
  offer: Pick<OfferSettings, ProductPriceSetting>,
  product: FunnelProductKey,
): ProductPrice {
  const keys = productPriceKeys[product];
  return {
    priceCents: offer[keys.price],
    regularPriceCents: keys.regular === null ? null : offer[keys.regular],
  };
}

/** Which offer setting holds each product's name. */
export const productNameKeys = {
  "lifetime-access": "planName",
  "bump-vip": "bumpName",
  "white-label": "whiteLabelName",
  "custom-saas": "customSaasName",
} as const satisfies Record<FunnelProductKey, keyof OfferSettings>;

export type ProductNameSetting = (typeof productNameKeys)[FunnelProductKey];

/**
 * A product's name as the owner set it, by its key: a purchase's product may be
 * one no longer sold, which is named by its key.
 */
export function productNameIn(offer: Pick<OfferSettings, ProductNameSetting>, key: string): string {
  return Object.hasOwn(productNameKeys, key)
    ? offer[productNameKeys[key as FunnelProductKey]]
    : key;
}

/**
 * The sales pages' offers of Lifetime Access: the plan at its price (the landing
 * page and /ailabs-offer), and at the second sales page's price (/ailabs-offer2).
 */
export const planOffers = ["plan", "offer2"] as const;
export type PlanOffer = (typeof planOffers)[number];

/** What an offer of Lifetime Access charges: the plan's price, or the second sales page's. */
export function planOfferPriceCents(
  offer: Pick<OfferSettings, "planPriceCents" | "offer2PriceCents">,
  which: PlanOffer,
): number {
  return which === "offer2" ? offer.offer2PriceCents : offer.planPriceCents;
}

/** The plan page of an offer: /payment-options, naming the second sales page's price. */
export function planPagePath(which: PlanOffer): string {
  return which === "offer2" ? "/payment-options?offer=offer2" : "/payment-options";
}

/** The offer a plan page or sign-up URL names (?offer=offer2), else the plan's. */
export function planOfferIn(url: string): PlanOffer {
  return new URL(url).searchParams.get("offer") === "offer2" ? "offer2" : "plan";
}

/**
 * Where a buy button of Lifetime Access leads: /buy/{offer} (sign-up, then this
 * site's checkout) when the funnel sells in the product, else the marketplace's link.
 */
export function planBuyHref(
  offer: Pick<OfferSettings, "sellIn" | "mainOfferUrl">,
  which: PlanOffer,
) {
  return offer.sellIn === "product" ? `/buy/${which}` : offer.mainOfferUrl;
}

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

export const localDateTime = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;
export const isoDate = /^\d{4}-\d{2}-\d{2}$/;

export function validDate(v: string): boolean {
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

/** What the checkout says of a coupon it does not take (docs/product.md, Checkout). */
export const couponMessages = {
  unknown: "That coupon code is not valid.",
  expired: "That coupon has expired.",
} as const;

/** A coupon typed at the checkout, taken (its code and what it takes off) or refused. */
export type CouponCheck =
  | { ok: true; code: string; savingCents: number }
  | { ok: false; error: string };

/** The instant (ms) the coupon stops working: the end of its last day in the launch time zone. */
export function couponEndsAt(
  offer: Pick<OfferSettings, "couponEndsOn" | "launchTimeZone">,
): number | null {
  if (!offer.couponEndsOn) return null;
  const [y, m, d] = offer.couponEndsOn.split("-").map(Number);
  const next = new Date(Date.UTC(y ?? 0, (m ?? 1) - 1, (d ?? 1) + 1)).toISOString().slice(0, 10);
  return Date.parse(launchInstant(`${next}T00:00`, offer.launchTimeZone));
}

/**
 * The advertised coupon (the offer settings) applied to a price: the code is
 * read without regard to case or spaces around it; it takes off its saving,
 * never more than the price.
 */
export function applyCoupon(
  offer: Pick<
    OfferSettings,
    "couponCode" | "couponSavingCents" | "couponEndsOn" | "launchTimeZone"
  >,
  typed: string,
  priceCents: number,
  now: number = Date.now(),
): CouponCheck {
  const code = typed.trim().toUpperCase();
  if (code !== offer.couponCode) return { ok: false, error: couponMessages.unknown };
  const endsAt = couponEndsAt(offer);
  if (endsAt !== null && now >= endsAt) return { ok: false, error: couponMessages.expired };
  return { ok: true, code, savingCents: Math.min(offer.couponSavingCents, priceCents) };
}
