import { ContestBlock, FunnelBlock } from "~/components/marketing/affiliate";
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
import { pageMetaFor } from "~/lib/seo";
import { offerLoader } from "~/server/settings/offer-settings.server";
import type { Route } from "./+types/jv-affiliate";
import { ownFooterIslands } from "./handles";

export const loader = offerLoader;

export const handle = ownFooterIslands;

export const meta: Route.MetaFunction = () => pageMetaFor("/jv-affiliate");

const sections: SectionRows = [
  [
    "funnel",
    "Funnel and Commissions",
    <FunnelBlock
      key="funnel"
      className="mt-4 text-center text-slate-600"
      summary={(t) => (
        <>
          Every step pays 50%. One buyer through the whole funnel: {formatUsd(t.totalCents)} in
          sales, {formatUsd(t.maxCommissionCents)} to you.
        </>
      )}
    />,
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
