import { Link } from "react-router";
import { ContestBlock, FunnelBlock, LaunchCountdown } from "~/components/marketing/affiliate";
import {
  AffiliateLinkDetails,
  ContactDetails,
  DatesList,
  ProductDetails,
  ResourceList,
} from "~/components/marketing/jv-doc-blocks";
import { MarketingPage } from "~/components/marketing/marketing-page";
import { type SectionRows, TitledSections } from "~/components/marketing/section";
import { formatUsd } from "~/config/site";
import { pageMetaFor } from "~/lib/seo";
import { offerLoader } from "~/server/settings/offer-settings.server";
import type { Route } from "./+types/jv-doc";
import { ownFooter } from "./handles";

export const loader = offerLoader;

export const handle = ownFooter;

export const meta: Route.MetaFunction = () => pageMetaFor("/jv-doc");

/** The document's blocks in order. */
const blocks: SectionRows = [
  ["product", "The Product", <ProductDetails key="product" />],
  [
    "funnel",
    "Funnel and Commission Structure",
    <FunnelBlock
      key="funnel"
      className="mt-4 text-slate-600"
      summary={(t) => (
        <>
          Total funnel value {formatUsd(t.totalCents)}; maximum commission per sale{" "}
          {formatUsd(t.maxCommissionCents)}.
        </>
      )}
    />,
  ],
  ["contest", "Launch Contest", <ContestBlock key="contest" />],
  ["dates", "Important Dates", <DatesList key="dates" />],
  ["link", "Your Affiliate Link", <AffiliateLinkDetails key="link" />],
  ["resources", "Resources", <ResourceList key="resources" />],
  ["contact", "Contact", <ContactDetails key="contact" />],
];

export default function JvDoc() {
  return (
    <MarketingPage
      background="bg-slate-100"
      mainClassName="mx-auto max-w-4xl space-y-8 px-4 py-8"
      disclaimer={false}
    >
      <Link to="/jv-affiliate" className="inline-block font-semibold text-indigo-700 underline">
        ← Back to the affiliate page
      </Link>
      <header className="text-center">
        <LaunchCountdown compact />
        <h1 className="mt-4 text-3xl font-extrabold text-slate-900 sm:text-4xl">
          AI Labs Joint-Venture Document
        </h1>
        <p className="mx-auto mt-3 max-w-2xl text-slate-600">
          The launch at a glance: what you are promoting, what you earn, when to mail and where to
          find your swipes.
        </p>
      </header>

      <TitledSections
        sections={blocks}
        className="rounded-2xl bg-white p-6 shadow-sm sm:p-8"
        titleClassName="text-2xl font-extrabold text-slate-900"
        bodyClassName="mt-4"
      />
    </MarketingPage>
  );
}
