import { loopingDemoTiming } from "~/components/marketing/build-demo-timeline";
import { SalesPage, type SalesVariant } from "~/components/marketing/sales-page";
import { demoPrompts } from "~/content/sales";
import { pageMetaFor } from "~/lib/seo";
import { offerLoader } from "~/server/settings/offer-settings.server";
import type { Route } from "./+types/ailabs-offer2";
import { ownFooter } from "./handles";

export const handle = ownFooter;

const variant: SalesVariant = {
  priceSetting: "offer2PriceCents",
  headline: "Turn One Written Prompt Into an AI App People Pay For",
  subheadline:
    "AI Labs shows non-coders how to build, launch and earn from AI software-as-a-service apps with a proven 7-day launch formula.",
  demoTiming: loopingDemoTiming,
  demoPrompts,
};

export const loader = offerLoader;

export const meta: Route.MetaFunction = ({ data }) => pageMetaFor("/ailabs-offer2", data?.offer);

export default function AilabsOffer2() {
  return <SalesPage variant={variant} />;
}
