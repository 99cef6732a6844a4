import { FaqList } from "~/components/marketing/faq-list";
import { MarketingFooter } from "~/components/marketing/marketing-footer";
import { MarketingSection } from "~/components/marketing/section";
import { UpsellCta } from "~/components/marketing/upsell-cta";
import { useBodyScript } from "~/components/marketing/use-body-script";
import { formatUsd, salesFunnel } from "~/config/site";
import { coachingComparison, coachingFaq, coachingJourney } from "~/content/upsells";
import { pageMeta } from "~/lib/seo";
import type { RouteHandle } from "~/root";
import type { Route } from "./+types/custom-saas-upsell";

/** This page renders its own footer with the earnings disclaimer. */
export const handle: RouteHandle = { ownFooter: true };

const { coaching, checkoutUrls, noThanksUrls } = salesFunnel;
const price = formatUsd(coaching.priceCents);
const regular = formatUsd(coaching.regularPriceCents);
const taken = coaching.clientCap - coaching.spotsRemaining;
const takenPercent = Math.round((taken / coaching.clientCap) * 100);

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Custom SaaS & 1-on-1 Coaching | AI Labs",
    description: `We build your custom AI SaaS app with you and coach you 1-on-1 to launch, with ${coaching.supportDays} days of post-launch support. Only ${coaching.clientCap} clients. ${regular} regular, ${price} today.`,
    path: "/custom-saas-upsell",
  });

function Cta({ tone }: { tone?: "light" | "dark" }) {
  return (
    <UpsellCta
      buyHref={checkoutUrls.coaching}
      buyLabel={`Apply Now for ${price}`}
      newTab
      noThanksHref={noThanksUrls.coaching}
      noThanksLabel="No Thanks, I'll build everything on my own"
      tone={tone}
    />
  );
}

export default function CustomSaasUpsell() {
  useBodyScript(salesFunnel.checkoutDisclaimerScriptUrl);
  return (
    <>
      <main className="bg-white">
        <section className="bg-gradient-to-b from-slate-950 to-indigo-950 px-4 py-14 text-center text-white sm:py-20">
          <p className="text-sm font-bold uppercase tracking-widest text-amber-300">
            Done with you · Limited to {coaching.clientCap} clients
          </p>
          <h1 className="mx-auto mt-4 max-w-4xl text-4xl font-black leading-tight tracking-tight sm:text-6xl">
            Custom SaaS &amp; <span className="whitespace-nowrap">1-on-1</span> Coaching
          </h1>
          <p className="mx-auto mt-5 max-w-2xl text-lg text-indigo-100 sm:text-xl">
            Skip the learning curve. Our team builds your own AI SaaS app with you while coaching
            you personally, from the first idea to launch and {coaching.supportDays} days beyond.
          </p>

          <div className="mx-auto mt-10 max-w-md rounded-2xl bg-white/10 p-5 text-left ring-1 ring-white/20">
            <p className="flex items-baseline justify-between font-semibold">
              <span>Only {coaching.clientCap} clients</span>
              <span className="text-amber-300">{coaching.spotsRemaining} spots remaining</span>
            </p>
            <progress
              value={taken}
              max={coaching.clientCap}
              aria-label={`${taken} of ${coaching.clientCap} spots taken`}
              className="mt-3 block h-3 w-full appearance-none overflow-hidden rounded-full [&::-moz-progress-bar]:bg-amber-400 [&::-webkit-progress-bar]:bg-white/20 [&::-webkit-progress-value]:rounded-full [&::-webkit-progress-value]:bg-amber-400"
            />
            <p className="mt-2 text-sm text-indigo-100">{takenPercent}% of spots already taken</p>
          </div>

          <p className="mt-8 text-lg text-indigo-100">
            Regular price <s className="text-slate-300">{regular}</s>
          </p>
          <p className="mt-1 text-6xl font-black text-amber-300">{price}</p>
          <p className="mt-2 font-semibold text-indigo-100">
            Every application is reviewed within {coaching.reviewHours} hours
          </p>
          <div className="mt-8">
            <Cta tone="dark" />
          </div>
        </section>

        <MarketingSection id="journey" title="Your journey from idea to launch">
          <ol className="grid gap-5 md:grid-cols-2 lg:grid-cols-4">
            {coachingJourney.map((step, i) => (
              <li key={step.title} className="rounded-2xl border border-slate-200 p-6">
                <span className="text-sm font-bold uppercase tracking-widest text-indigo-700">
                  Step {i + 1}
                </span>
                <h3 className="mt-2 text-lg font-bold">{step.title}</h3>
                <p className="mt-2 text-slate-600">{step.description}</p>
              </li>
            ))}
          </ol>
        </MarketingSection>

        <MarketingSection
          id="compare"
          title="Doing it yourself vs. building it with us"
          width="max-w-4xl"
          className="bg-slate-50"
        >
          <div className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
            <table className="w-full text-left text-sm sm:text-base">
              <caption className="sr-only">
                Doing it yourself compared with the custom SaaS package
              </caption>
              <thead className="bg-slate-100 text-sm uppercase tracking-wide text-slate-700">
                <tr>
                  <th scope="col" className="px-3 py-3 sm:px-4">
                    <span className="sr-only">Aspect</span>
                  </th>
                  <th scope="col" className="px-3 py-3 sm:px-4">
                    Do it yourself
                  </th>
                  <th scope="col" className="px-3 py-3 sm:px-4 text-indigo-700">
                    Custom SaaS package
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {coachingComparison.map((row) => (
                  <tr key={row.aspect}>
                    <th scope="row" className="px-3 py-3 sm:px-4 font-semibold">
                      {row.aspect}
                    </th>
                    <td className="px-3 py-3 sm:px-4 text-slate-600">{row.diy}</td>
                    <td className="px-3 py-3 sm:px-4 font-semibold text-emerald-800">
                      {row.withUs}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </MarketingSection>

        <MarketingSection id="faq" title="Frequently asked questions" width="max-w-3xl">
          <FaqList items={coachingFaq} />
          <div className="mt-12">
            <Cta />
          </div>
        </MarketingSection>
      </main>
      <MarketingFooter />
    </>
  );
}
