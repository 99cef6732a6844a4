import { MarketingSection } from "~/components/marketing/section";
import { UpsellCta } from "~/components/marketing/upsell-cta";
import {
  RegularPrice,
  UpsellFaq,
  UpsellHero,
  UpsellLayout,
  upsellPrices,
} from "~/components/marketing/upsell-page";
import { WhiteLabelFeatureCards, WhiteLabelToolList } from "~/components/marketing/upsell-sections";
import { whiteLabelCta, whiteLabelFaq } from "~/content/upsells";
import { loadAsDocument } from "~/lib/document-load";
import { pageMetaFor } from "~/lib/seo";
import { ownsUpsell } from "~/server/payments/upsell.server";
import { offerLoader } from "~/server/settings/offer-settings.server";
import type { Route } from "./+types/white-label-upsell";
import { ownFooterIslands } from "./handles";
import { upsellAction } from "./upsell-action.server";

export async function loader({ request }: Route.LoaderArgs) {
  return { ...offerLoader(), owned: await ownsUpsell(request, "white-label") };
}
// The marketplace's script runs only under this page's own policy: always a document load.
export const clientLoader = loadAsDocument;

/** "Yes, Upgrade My Order": the card of the order just paid is charged (upsell.server.ts). */
export const action = upsellAction("white-label");

export const handle = ownFooterIslands;

export const meta: Route.MetaFunction = ({ data }) =>
  pageMetaFor("/white-label-upsell", data?.offer);

export default function WhiteLabelUpsell({ loaderData }: Route.ComponentProps) {
  const { price, regular } = upsellPrices(loaderData.offer, "white-label");
  const cta = { ...whiteLabelCta(loaderData.offer), owned: loaderData.owned };
  return (
    <UpsellLayout>
      <p className="bg-emerald-700 px-4 py-3 text-center font-semibold text-white">
        Thank you for your order! Your login details arrive by e-mail in about 5 minutes (check your
        spam folder). Before you go, one special offer for new members:
      </p>

      <UpsellHero
        eyebrow="One-time offer for new members"
        title="12-in-1 White Label AI SaaS Empire"
        lead="Twelve ready-made AI apps with full source code. Put your brand on them, set your prices and sell them as your own, starting today."
        cta={cta}
      >
        <RegularPrice regular={regular} />
        <p className="mt-1">
          <span className="text-6xl font-black text-amber-300">{price}</span>
        </p>
        <p className="mt-2 font-semibold text-indigo-100">One-time payment · Lifetime access</p>
      </UpsellHero>

      <MarketingSection
        id="features"
        title="Everything you need to run your own AI software business"
      >
        <WhiteLabelFeatureCards />
      </MarketingSection>

      <MarketingSection id="tools" title="The 12 AI tools you get" className="bg-indigo-50">
        <WhiteLabelToolList />
        <div className="mt-12">
          <UpsellCta {...cta} />
        </div>
      </MarketingSection>

      <UpsellFaq items={whiteLabelFaq} cta={cta} />
    </UpsellLayout>
  );
}
