/** Business constants the pages and the checkout share (docs/product.md, Strings and numbers). */
export const site = {
  brand: "AI Labs",
  tagline: "Build and launch AI SaaS apps without writing code",
  supportEmail: "support@ailabs.app",
  /** Where the public pages live, for canonical URLs, Open Graph and the sitemap. */
  canonicalOrigin: "https://ailabs.app",
} as const;

export type Product = {
  id: string;
  name: string;
  description: string;
  amountCents: number;
  regularAmountCents: number;
  currency: "usd";
  benefits: readonly string[];
};

/** The one plan sold in-product (docs/product.md, Prices and products). */
export const lifetimeAccess: Product = {
  id: "lifetime-access",
  name: "Lifetime Access",
  description:
    "Full membership and training access, the software boilerplate, the idea generator and more. Pay once.",
  amountCents: 2500,
  regularAmountCents: 19700,
  currency: "usd",
  benefits: [
    "Complete AI SaaS development course",
    "Step-by-step monetization guide",
    "AI boilerplate templates",
    "Business idea generator",
    "Launch strategy framework",
    "Marketing toolkit",
    "Private community access",
    "Lifetime updates",
  ],
};

export const products: Readonly<Record<string, Product>> = { [lifetimeAccess.id]: lifetimeAccess };

/**
 * The affiliate-marketplace funnel (docs/product.md, Launch and funnel), by
 * product key. Only the front end (lifetime-access) opens the course; the
 * others are add-ons. Their prices here are the defaults of the offer settings
 * the pages read (the owner sets them on /admin/products, decision 032; the
 * front end's marketplace price is offer2PriceCents).
 */
export const funnelProducts = {
  "lifetime-access": { name: "Lifetime Access", amountCents: 1700 },
  "bump-vip": { name: "VIP Upgrade", amountCents: 495 },
  "white-label": { name: "12-in-1 White Label Package", amountCents: 3700 },
  "custom-saas": { name: "Custom SaaS Build and 1-on-1 Coaching", amountCents: 99700 },
} as const satisfies Record<string, { name: string; amountCents: number }>;

export type FunnelProductKey = keyof typeof funnelProducts;
export const funnelProductKeys = Object.keys(funnelProducts) as FunnelProductKey[];

/** The order bump: offered on the plan page beside the plan, bought with it as its own purchase. */
export const orderBump = "bump-vip" satisfies FunnelProductKey;

/** The one-click upsells offered after the plan is paid, in the funnel's order. */
export const upsellProducts = [
  "white-label",
  "custom-saas",
] as const satisfies readonly FunnelProductKey[];
export type UpsellProduct = (typeof upsellProducts)[number];

export const isUpsellProduct = (id: unknown): id is UpsellProduct =>
  upsellProducts.some((p) => p === id);

/** Which offer of the funnel a product is sold as (the sales CSV's `offer`). */
export function offerOf(
  product: string,
): "front end" | "bump" | "upsell 1" | "upsell 2" | "product" {
  if (product === accessProduct) return "front end";
  if (product === orderBump) return "bump";
  if (product === upsellProducts[0]) return "upsell 1";
  if (product === upsellProducts[1]) return "upsell 2";
  return "product";
}

/** The funnel's steps after the plan: each upsell's page, and where accepting or declining it leads. */
export const upsellSteps = {
  "white-label": { page: "/white-label-upsell", next: "/custom-saas-upsell" },
  "custom-saas": { page: "/custom-saas-upsell", next: "/custom-saas-thank-you" },
} as const satisfies Record<UpsellProduct, { page: string; next: string }>;

/**
 * Where a member is offered a product they do not hold: a course only it
 * opens is a locked card on the dashboard that leads there. The VIP Upgrade
 * is only sold with the plan, at checkout: it has no page of its own.
 */
export const productOfferPaths: Readonly<Record<FunnelProductKey, string | null>> = {
  "lifetime-access": "/payment-options",
  "bump-vip": null,
  "white-label": "/white-label-upsell",
  "custom-saas": "/custom-saas-upsell",
};

/** What unlocks a course: the first of the products that open it, its name and offer page. */
export type CourseUnlock = { product: string; name: string; href: string | null };

/** The first product of `products` and where it is offered, named by `nameOf` (the offer settings). */
export function unlockOf(
  products: readonly string[],
  nameOf: (product: string) => string,
): CourseUnlock | null {
  const product = products[0];
  if (product === undefined) return null;
  const href = Object.hasOwn(productOfferPaths, product)
    ? productOfferPaths[product as FunnelProductKey]
    : null;
  return { product, name: nameOf(product), href };
}

/** The product whose purchase opens the members' area (access.server.ts). */
export const accessProduct = lifetimeAccess.id;

/**
 * The one price formatter: whole dollars with thousands separators ($1,997),
 * cents only when there are some ($4.95).
 */
// Built once: a formatter per call costs more than the formatting (a report formats thousands).
const wholeDollars = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const dollarsAndCents = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

export function formatUsd(cents: number): string {
  return `$${(cents % 100 === 0 ? wholeDollars : dollarsAndCents).format(cents / 100)}`;
}

/** An amount in cents: dollars for USD, else the cents and the currency's code. */
export function formatAmount(cents: number, currency: string): string {
  return currency === "usd" ? formatUsd(cents) : `${cents} ${currency.toUpperCase()}`;
}

// ─── Sales funnel: sales pages, upgrades, upsells and the thank-you page ───
// What an operator changes for a launch in code sits in this block: the launch
// coupons, the No Thanks targets, the bonus values and the support handles.
// The prices and buy links here are the defaults of offer settings the owner
// changes in the console (decisions 012 and 032). Amounts are in cents.

export type SalesFunnel = {
  /** The price on the marketplace sales pages (/ailabs-offer, /ailabs-offer2); the in-product price is lifetimeAccess.amountCents. */
  marketplacePriceCents: number;
  /** The struck-through regular price on the sales pages. */
  marketplaceRegularPriceCents: number;
  /**
   * The discount the price box shows: $172 beside $17-against-$197 ($197 minus the
   * in-product $25). A set figure, not computed.
   */
  marketplaceDiscountCents: number;
  /** What the launch coupon takes off at the marketplace checkout. */
  couponSavingCents: number;
  /** The launch coupon shown on each sales page variant. */
  coupons: { readonly offer: string; readonly offer2: string };
  /** Marketplace checkout pages; the sales pages take no payment themselves. */
  checkoutUrls: {
    readonly mainOffer: string;
    readonly whiteLabel: string;
    readonly coaching: string;
  };
  /** Where each upsell's No Thanks link goes: the next step of the funnel. */
  noThanksUrls: { readonly whiteLabel: string; readonly coaching: string };
  /**
   * The checkout provider's disclaimer script, added to the body while an
   * upsell page is shown. null: nothing is loaded.
   */
  checkoutDisclaimerScriptUrl: string | null;
  whiteLabel: { regularPriceCents: number; priceCents: number };
  coaching: {
    regularPriceCents: number;
    priceCents: number;
    /**
     * Coaching clients taken on at a time: the default of the offer setting
     * coachingClientCap; the places left are counted from the purchases (places-left.server.ts).
     */
    clientCap: number;
    reviewHours: number;
    supportDays: number;
    revisionRounds: number;
  };
  /** Bonus values as the sales pages show them (the community is per year there). */
  bonusValuesCents: {
    boilerplate: number;
    launchPlan: number;
    promptVault: number;
    communityPerYear: number;
  };
  /**
   * The first `customers` buyers get a bonus template and three more bonuses
   * worth `bonusValueCents`; the sales pages show how many places are left.
   */
  firstCustomers: { customers: number; bonusValueCents: number };
  guaranteeDays: number;
  /** The sales-page countdown starts here (2 days 23:59:59) on every visit. */
  countdownStartSeconds: number;
  /** Where custom-build buyers reach the team; both ask for the order number. */
  contactHandles: {
    readonly chat: { readonly service: string; readonly handle: string };
    readonly messaging: { readonly service: string; readonly handle: string; readonly url: string };
  };
};

export const salesFunnel: SalesFunnel = {
  marketplacePriceCents: funnelProducts["lifetime-access"].amountCents,
  marketplaceRegularPriceCents: 19700,
  marketplaceDiscountCents: 17200,
  couponSavingCents: 300,
  coupons: { offer: "LAUNCH", offer2: "AILABSLAUNCH" },
  // Operator: replace with the offers' buy links from the marketplace dashboard.
  checkoutUrls: {
    mainOffer: "https://warriorplus.com/o2/buy/ailabs/main",
    whiteLabel: "https://warriorplus.com/o2/buy/ailabs/white-label",
    coaching: "https://warriorplus.com/o2/buy/ailabs/custom-saas",
  },
  noThanksUrls: { whiteLabel: "/custom-saas-upsell", coaching: "/dashboard" },
  checkoutDisclaimerScriptUrl: null,
  whiteLabel: { regularPriceCents: 99700, priceCents: funnelProducts["white-label"].amountCents },
  coaching: {
    regularPriceCents: 199700,
    priceCents: funnelProducts["custom-saas"].amountCents,
    clientCap: 10,
    reviewHours: 24,
    supportDays: 30,
    revisionRounds: 3,
  },
  bonusValuesCents: {
    boilerplate: 19700,
    launchPlan: 9700,
    promptVault: 14700,
    communityPerYear: 34700,
  },
  firstCustomers: { customers: 50, bonusValueCents: 29700 },
  guaranteeDays: 30,
  countdownStartSeconds: 2 * 86_400 + 23 * 3_600 + 59 * 60 + 59,
  contactHandles: {
    chat: { service: "Discord", handle: "ailabs.support" },
    messaging: {
      service: "Telegram",
      handle: "@ailabs_support",
      url: "https://t.me/ailabs_support",
    },
  },
};

// ─── Member bonuses (/bonuses) ───

/**
 * The bonuses page's cards. Where the sales page and the bonuses page disagree
 * (the community: $347 per year on the sales page, $97 on the bonuses page),
 * the sales page's value is used, so both pages show the same figure.
 */
export const memberBonusValuesCents = {
  boilerplate: salesFunnel.bonusValuesCents.boilerplate,
  launchPlan: salesFunnel.bonusValuesCents.launchPlan,
  promptVault: salesFunnel.bonusValuesCents.promptVault,
  communityPerYear: salesFunnel.bonusValuesCents.communityPerYear,
} as const;

/** The bonus files members download from /bonuses/download/{file}. */
export const bonusDownloads = {
  "todoersproject.zip": { contentType: "application/zip" },
  "30-day-launch-plan.txt": { contentType: "text/plain; charset=utf-8" },
  "ai-prompt-engineering-vault.txt": { contentType: "text/plain; charset=utf-8" },
} as const;

export type BonusFile = keyof typeof bonusDownloads;

// ─── Affiliate launch: /jv-affiliate, /jv-doc, /demo-swipes ───

export type FunnelItem = {
  key: FunnelProductKey;
  /** Where the item sits in the funnel (Frontend, Bump, OTO 1, OTO 2). */
  stage: string;
  name: string;
  amountCents: number;
  /** The affiliate's share, in percent. */
  commissionPercent: number;
};

/** The funnel affiliates promote, in order; prices come from the offer settings (affiliateFunnel). */
const funnelStages: readonly Omit<FunnelItem, "name" | "amountCents">[] = [
  { key: "lifetime-access", stage: "Frontend", commissionPercent: 50 },
  { key: "bump-vip", stage: "Bump", commissionPercent: 50 },
  { key: "white-label", stage: "OTO 1", commissionPercent: 50 },
  { key: "custom-saas", stage: "OTO 2", commissionPercent: 50 },
];

/**
 * The funnel affiliates promote, in order, at the prices `amountOf` gives (the
 * offer settings: the front end at the marketplace price, offer2PriceCents; the
 * add-ons at their own), named by `nameOf` (the offer settings; by default the
 * names of funnelProducts).
 */
export function affiliateFunnel(
  amountOf: (key: FunnelProductKey) => number,
  nameOf: (key: FunnelProductKey) => string = (key) => funnelProducts[key].name,
): readonly FunnelItem[] {
  return funnelStages.map((s) => ({
    ...s,
    name: nameOf(s.key),
    amountCents: amountOf(s.key),
  }));
}

export const affiliateLaunch = {
  /**
   * The default launch instant: 6 June 2025, 11:00 Central (-05:00). The launch
   * and the contest's days the pages show are offer settings
   * (app/lib/offer-settings.ts), which default to these.
   */
  launchAt: "2025-06-06T11:00:00-05:00",
  /** Full blast: on the contest's days (offer settings). */
  fullBlast: { hours: 24, commissionPercent: 100 },
  contest: { prizesCents: [35_000, 25_000, 15_000] },
  /** The marketplace offer page where affiliates request approval. */
  marketplaceOfferUrl: "https://warriorplus.com/aff-offer/o/ailabs",
  /** The affiliate link format the copy button hands out; the affiliate swaps in their ID. */
  affiliateLinkTemplate: "https://warriorplus.com/o2/a/ailabs/YOUR_AFFILIATE_ID",
  /** Where affiliates reach the launch team. */
  jvEmail: "support@ailabs.app",
} as const;
