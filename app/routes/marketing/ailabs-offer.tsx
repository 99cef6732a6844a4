import { salesDemoTiming } from "~/components/marketing/build-demo-timeline";
import { SalesPage, type SalesVariant } from "~/components/marketing/sales-page";
import { formatUsd, salesFunnel } from "~/config/site";
import { demoPrompts } from "~/content/sales";
import { pageMeta } from "~/lib/seo";
import type { RouteHandle } from "~/root";
import type { Route } from "./+types/ailabs-offer";

/** This page renders its own footer with the earnings disclaimer. */
export const handle: RouteHandle = { ownFooter: true };

const variant: SalesVariant = {
  coupon: salesFunnel.coupons.offer,
  headline: "Build and Launch Your Own AI SaaS App in 7 Days, Without Writing Code",
  subheadline:
    "The step-by-step course and toolkit that takes you from a written prompt to a live AI app that takes payments, even if you have never coded before.",
  demoTiming: salesDemoTiming,
  demoPrompts: demoPrompts.slice(0, 1),
};

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "AI Labs: Build and Launch an AI SaaS App in 7 Days",
    description: `Turn a written prompt into a live AI SaaS app that takes payments, no coding needed. Lifetime access for a one-time ${formatUsd(salesFunnel.marketplacePriceCents)}, with a ${salesFunnel.guaranteeDays}-day money-back guarantee.`,
    path: "/ailabs-offer",
  });

export default function AilabsOffer() {
  return <SalesPage variant={variant} />;
}
