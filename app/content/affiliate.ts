import { affiliateFunnel, affiliateLaunch, formatUsd } from "~/config/site";
import { commissionTable } from "~/lib/commission";
import {
  contestLabel,
  launchLabel,
  type OfferSettings,
  type ProductNameSetting,
  productNameIn,
  productPriceKeys,
  winnersLabel,
} from "~/lib/offer";

/** The offer settings the launch copy names (app/lib/offer-settings.ts). */
type LaunchDates = Pick<
  OfferSettings,
  "launchAt" | "launchTimeZone" | "contestStart" | "contestEnd"
>;
/** The offer settings the funnel's figures come from: the front end's marketplace price, the add-ons' prices. */
type FunnelPrice = Pick<
  OfferSettings,
  | "offer2PriceCents"
  | "bumpPriceCents"
  | "whiteLabelPriceCents"
  | "customSaasPriceCents"
  | ProductNameSetting
>;

// Copy of the affiliate pages (/jv-affiliate and /jv-doc).

/** The funnel at the offer's front-end price, each item with its commission, and the totals. */
export const funnelFor = (offer: FunnelPrice) =>
  commissionTable(
    affiliateFunnel(
      (key) =>
        key === "lifetime-access" ? offer.offer2PriceCents : offer[productPriceKeys[key].price],
      (key) => productNameIn(offer, key),
    ),
  );

/** "Why Promote AI Labs" on /jv-affiliate. */
export const reasons = (
  offer: LaunchDates & FunnelPrice,
): readonly { title: string; text: string }[] => {
  const { totalCents, maxCommissionCents } = funnelFor(offer);
  return [
    {
      title: "A buyer-friendly frontend",
      text: `At ${formatUsd(offer.offer2PriceCents)}, lifetime access to a full AI SaaS course is an easy yes for lists interested in AI, online business and side income.`,
    },
    {
      title: "Big-ticket backend",
      text: `One buyer taking the whole funnel is worth ${formatUsd(totalCents)}, and your 50% of it is ${formatUsd(maxCommissionCents)}.`,
    },
    {
      title: "A story people want",
      text: "Build an AI app from one written prompt and launch it in 7 days: no coding, no developers, a 23% free-to-paid conversion claim backed by the training.",
    },
    {
      title: "Low refunds by design",
      text: "Buyers get login details by e-mail within about 5 minutes, a real members' area and a 30-day no-questions money-back guarantee, so they stay.",
    },
    {
      title: "Ready-made promotion",
      text: "A demo video, 11 e-mail swipes and four banner sizes are written and waiting for you. Paste your link and send.",
    },
    {
      title: "A launch you can plan around",
      text: `Launch on ${launchLabel(offer)}, full blast on ${contestLabel(offer)}, winners announced ${winnersLabel(offer)}.`,
    },
  ];
};

/** The promotional resources cards on /jv-affiliate. */
export const resourceCards: readonly { to: string; title: string; text: string }[] = [
  { to: "/demo-swipes?tab=demo", title: "Demo video", text: "Show your list the product at work." },
  {
    to: "/demo-swipes?tab=short-emails",
    title: "E-mail swipes",
    text: "Four short and seven long e-mails, ready to paste.",
  },
  {
    to: "/demo-swipes?tab=banners",
    title: "Banners",
    text: "728x90, 300x250, 468x60 and 160x600, ready to download.",
  },
];

/** The resources list on /jv-doc. */
export const resourceLinks: readonly { to: string; label: string }[] = [
  { to: "/demo-swipes?tab=demo", label: "Demo video and usage tips" },
  { to: "/demo-swipes?tab=short-emails", label: "Short e-mail swipes (4)" },
  { to: "/demo-swipes?tab=long-emails", label: "Long e-mail swipes (7)" },
  { to: "/demo-swipes?tab=banners", label: "Banners in four sizes" },
];

/** "Important Dates" on /jv-doc. */
export const launchDates = (offer: LaunchDates): readonly { date: string; what: string }[] => [
  { date: launchLabel(offer), what: "Launch: the cart opens and links go live" },
  {
    date: contestLabel(offer),
    what: `Full blast: ${affiliateLaunch.fullBlast.hours} hours of ${affiliateLaunch.fullBlast.commissionPercent}% commission on the frontend plus the bump`,
  },
  { date: winnersLabel(offer), what: "Contest winners announced" },
];
