import { SalesPage } from "~/components/marketing/sales-page";
import { salesVariants } from "~/content/sales";
import { pageMetaFor } from "~/lib/seo";
import { salesPageLoader } from "~/server/payments/places-left.server";
import type { Route } from "./+types/ailabs-offer";
import { ownFooterIslands } from "./handles";

export const handle = ownFooterIslands;

export const loader = salesPageLoader;

export const meta: Route.MetaFunction = ({ data }) => pageMetaFor("/ailabs-offer", data?.offer);

export default function AilabsOffer({ loaderData }: Route.ComponentProps) {
  return (
    <SalesPage
      variant={salesVariants["/ailabs-offer"]}
      firstCustomersLeft={loaderData.firstCustomersLeft}
    />
  );
}
