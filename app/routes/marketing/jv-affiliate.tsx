import { CommissionTableView, ContestBlock } from "~/components/marketing/affiliate";
import {
  AffiliateHeader,
  AffiliateHero,
  ReasonCards,
  ResourceCards,
  SupportBox,
} from "~/components/marketing/affiliate-sections";
import { MarketingPage } from "~/components/marketing/marketing-page";
import { type SectionRows, TitledSections } from "~/components/marketing/section";
import { formatUsd } from "~/config/site";
import { maxCommissionCents, totalCents } from "~/content/affiliate";
import { pageMetaFor } from "~/lib/seo";
import { offerLoader } from "~/server/settings/offer-settings.server";
import type { Route } from "./+types/jv-affiliate";
import { ownFooter } from "./handles";

export const loader = offerLoader;

export const handle = ownFooter;

export const meta: Route.MetaFunction = () => pageMetaFor("/jv-affiliate");

const sections: SectionRows = [
  [
    "funnel",
    "Funnel and Commissions",
    <>
      <CommissionTableView />
      <p className="mt-4 text-center text-slate-600">
        Every step pays 50%. One buyer through the whole funnel: {formatUsd(totalCents)} in sales,{" "}
        {formatUsd(maxCommissionCents)} to you.
      </p>
    </>,
  ],
  ["contest", "Launch Contest", <ContestBlock key="contest" />],
  ["reasons", "Why Promote AI Labs", <ReasonCards key="reasons" />],
  ["resources", "Promotional Resources", <ResourceCards key="resources" />],
  ["support", "Affiliate Support", <SupportBox key="support" />],
];

export default function JvAffiliate() {
  return (
    <MarketingPage background="bg-slate-50" header={<AffiliateHeader />} disclaimer={false}>
      <AffiliateHero />

      <TitledSections
        sections={sections}
        className="mx-auto max-w-5xl px-4 py-12"
        titleClassName="text-center text-2xl font-extrabold text-slate-900 sm:text-3xl"
        bodyClassName="mt-8"
      />
    </MarketingPage>
  );
}
