import { SalesPage } from "~/components/marketing/sales-page";
import { salesVariants } from "~/content/sales";
import { pageMetaFor } from "~/lib/seo";
import { salesPageLoader } from "~/server/payments/places-left.server";
import type { Route } from "./+types/ailabs-offer2";
import { ownFooterIslands } from "./handles";

export const handle = ownFooterIslands;

export const loader = salesPageLoader;

export const meta: Route.MetaFunction = ({ data }) => pageMetaFor("/ailabs-offer2", data?.offer);

export default function AilabsOffer2({ loaderData }: Route.ComponentProps) {
  return (
    <SalesPage
      variant={salesVariants["/ailabs-offer2"]}
      firstCustomersLeft={loaderData.firstCustomersLeft}
    />
  );
}
