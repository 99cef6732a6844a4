import { MarketingSection } from "~/components/marketing/section";
import {
  RegularPrice,
  UpsellFaq,
  UpsellHero,
  UpsellLayout,
  upsellPrices,
} from "~/components/marketing/upsell-page";
import {
  CoachingComparison,
  CoachingJourney,
  CoachingSpots,
} from "~/components/marketing/upsell-sections";
import { salesFunnel } from "~/config/site";
import { coachingCta, coachingFaq } from "~/content/upsells";
import { loadAsDocument } from "~/lib/document-load";
import { pageMetaFor } from "~/lib/seo";
import { coachingPageLoader } from "~/server/payments/places-left.server";
import { ownsUpsell } from "~/server/payments/upsell.server";
import type { Route } from "./+types/custom-saas-upsell";
import { ownFooterIslands } from "./handles";
import { upsellAction } from "./upsell-action.server";

export async function loader({ request }: Route.LoaderArgs) {
  return { ...coachingPageLoader(), owned: await ownsUpsell(request, "custom-saas") };
}
// The marketplace's script runs only under this page's own policy: always a document load.
export const clientLoader = loadAsDocument;

/** "Yes, Upgrade My Order": the card of the order just paid is charged (upsell.server.ts). */
export const action = upsellAction("custom-saas");

export const handle = ownFooterIslands;

const { coaching } = salesFunnel;

export const meta: Route.MetaFunction = ({ data }) =>
  pageMetaFor("/custom-saas-upsell", data?.offer);

export default function CustomSaasUpsell({ loaderData }: Route.ComponentProps) {
  const { coachingPlacesLeft: left, offer } = loaderData;
  const cap = offer.coachingClientCap;
  // Where the buttons were, once every place is taken.
  const soldOut = `All ${cap} places are taken. Write to us to hear when one opens.`;
  const { price, regular } = upsellPrices(offer, "custom-saas");
  const apply = { ...coachingCta(offer), owned: loaderData.owned };
  const cta = left > 0 ? apply : { ...apply, soldOut };
  return (
    <UpsellLayout>
      <UpsellHero
        eyebrow={<>Done with you · Limited to {cap} clients</>}
        title={
          <>
            Custom SaaS &amp; <span className="whitespace-nowrap">1-on-1</span> Coaching
          </>
        }
        lead={
          <>
            Skip the learning curve. Our team builds your own AI SaaS app with you while coaching
            you personally, from the first idea to launch and {coaching.supportDays} days beyond.
          </>
        }
        cta={cta}
      >
        <CoachingSpots left={left} cap={cap} />
        <RegularPrice regular={regular} />
        <p className="mt-1 text-6xl font-black text-amber-300">{price}</p>
        <p className="mt-2 font-semibold text-indigo-100">
          Every application is reviewed within {coaching.reviewHours} hours
        </p>
      </UpsellHero>

      <MarketingSection id="journey" title="Your journey from idea to launch">
        <CoachingJourney />
      </MarketingSection>

      <MarketingSection
        id="compare"
        title="Doing it yourself vs. building it with us"
        width="max-w-4xl"
        className="bg-slate-50"
      >
        <CoachingComparison />
      </MarketingSection>

      <UpsellFaq items={coachingFaq(cap)} cta={cta} />
    </UpsellLayout>
  );
}
