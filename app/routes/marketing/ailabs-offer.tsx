import { salesDemoTiming } from "~/components/marketing/build-demo-timeline";
import { SalesPage, type SalesVariant } from "~/components/marketing/sales-page";
import { demoPrompts } from "~/content/sales";
import { pageMetaFor } from "~/lib/seo";
import { offerLoader } from "~/server/settings/offer-settings.server";
import type { Route } from "./+types/ailabs-offer";
import { ownFooter } from "./handles";

export const handle = ownFooter;

const variant: SalesVariant = {
  priceSetting: "planPriceCents",
  headline: "Build and Launch Your Own AI SaaS App in 7 Days, Without Writing Code",
  subheadline:
    "The step-by-step course and toolkit that takes you from a written prompt to a live AI app that takes payments, even if you have never coded before.",
  demoTiming: salesDemoTiming,
  demoPrompts: demoPrompts.slice(0, 1),
};

export const loader = offerLoader;

export const meta: Route.MetaFunction = ({ data }) => pageMetaFor("/ailabs-offer", data?.offer);

export default function AilabsOffer() {
  return <SalesPage variant={variant} />;
}
