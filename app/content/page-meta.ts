import type { PublicOffer } from "~/components/marketing/use-offer";
import { formatUsd, salesFunnel, site } from "~/config/site";
import type { publicPagePaths } from "~/route-policies";

/** A public page's route: its key in app/route-policies.ts. */
export type PublicPagePath = (typeof publicPagePaths)[number];

export type PageText = {
  title: string;
  /** A function for a description quoting an offer setting: it gets the page's `offer`. */
  description: string | ((offer: PublicOffer) => string);
};

const { coaching, guaranteeDays } = salesFunnel;

/**
 * The title and description of every public page (pageMetaFor in
 * app/lib/seo.ts makes its meta tags). Keyed by the route policies' public
 * pages: a page missing here does not compile.
 */
export const pageTexts: Record<PublicPagePath, PageText> = {
  "/": {
    title: `${site.brand}: Build and launch AI SaaS apps without writing code`,
    description:
      "Turn a written prompt into a working AI SaaS app, launch it in 7 days and start earning. A complete course and toolkit: one payment, lifetime access.",
  },
  "/ailabs-offer": {
    title: "AI Labs: Build and Launch an AI SaaS App in 7 Days",
    description: (offer) =>
      `Turn a written prompt into a live AI SaaS app that takes payments, no coding needed. Lifetime access for a one-time ${formatUsd(offer.planPriceCents)}, with a ${guaranteeDays}-day money-back guarantee.`,
  },
  "/ailabs-offer2": {
    title: "AI Labs: Turn a Prompt Into an AI App People Pay For",
    description: (offer) =>
      `Build, launch and earn from AI SaaS apps without coding: the 7-day launch formula, a ready boilerplate and four bonuses. One-time ${formatUsd(offer.offer2PriceCents)}, ${guaranteeDays}-day money-back guarantee.`,
  },
  "/white-label-upsell": {
    title: "12-in-1 White Label AI SaaS Empire | AI Labs",
    description: (offer) =>
      `Twelve ready-made AI SaaS tools with full source code, a marketing pack and video tutorials. Sell them under your own brand. ${formatUsd(offer.whiteLabelRegularPriceCents)} regular, ${formatUsd(offer.whiteLabelPriceCents)} today, one-time payment.`,
  },
  "/custom-saas-upsell": {
    title: "Custom SaaS & 1-on-1 Coaching | AI Labs",
    description: (offer) =>
      `We build your custom AI SaaS app with you and coach you 1-on-1 to launch, with ${coaching.supportDays} days of post-launch support. Only ${offer.coachingClientCap} clients. ${formatUsd(offer.customSaasRegularPriceCents)} regular, ${formatUsd(offer.customSaasPriceCents)} today.`,
  },
  "/custom-saas-thank-you": {
    title: "Thank You: Your Custom AI SaaS Partnership Is Active | AI Labs",
    description:
      "Your order is confirmed. Contact the team with your order number, prepare your vision document and see what happens next in your custom AI SaaS development partnership.",
  },
  "/privacy-policy": {
    title: `Privacy Policy | ${site.brand}`,
    description: `How ${site.brand} collects, uses and protects your personal data, which cookies we use, and how to exercise your rights under the GDPR.`,
  },
  "/terms-of-service": {
    title: `Terms of Service | ${site.brand}`,
    description: `The terms for buying and using ${site.brand} Lifetime Access: your account, payment, the 30-day money-back guarantee, acceptable use and our earnings disclaimer.`,
  },
  "/upgrades": {
    title: "Upgrades: White Label AI SaaS Empire and Custom SaaS Coaching | AI Labs",
    description: (offer) =>
      `Two ways to go further with AI Labs: 12 white-label AI SaaS tools for ${formatUsd(offer.whiteLabelPriceCents)}, or a custom AI SaaS built with you plus 1-on-1 coaching.`,
  },
  "/jv-affiliate": {
    title: "Promote AI Labs: Affiliate Launch | AI Labs",
    description:
      "Join the AI Labs launch as an affiliate: 50% commission across a four-step funnel, a $350 / $250 / $150 revenue contest and a 24-hour 100% commission full blast.",
  },
  "/jv-doc": {
    title: "AI Labs Joint-Venture Document | AI Labs",
    description:
      "Everything affiliates need for the AI Labs launch: product details, funnel and 50% commissions, contest rules, key dates, resources and your affiliate link.",
  },
  "/demo-swipes": {
    title: "Promotional Resources: Demo, Swipes and Banners | AI Labs",
    description:
      "Everything to promote AI Labs: the demo video, short and long e-mail swipes with your affiliate link filled in, and four banner sizes to download.",
  },
};
