import { SalesPage } from "~/components/marketing/sales-page";
import { salesVariants } from "~/content/sales";
import { pageMetaFor } from "~/lib/seo";
import { offerLoader } from "~/server/settings/offer-settings.server";
import type { Route } from "./+types/ailabs-offer";
import { ownFooter } from "./handles";

export const handle = ownFooter;

export const loader = offerLoader;

export const meta: Route.MetaFunction = ({ data }) => pageMetaFor("/ailabs-offer", data?.offer);

export default function AilabsOffer() {
  return <SalesPage variant={salesVariants["/ailabs-offer"]} />;
}
