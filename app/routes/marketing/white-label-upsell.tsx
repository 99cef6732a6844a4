import { FaqList } from "~/components/marketing/faq-list";
import { FeatureIcon } from "~/components/marketing/feature-icon";
import { MarketingFooter } from "~/components/marketing/marketing-footer";
import { MarketingSection } from "~/components/marketing/section";
import { UpsellCta } from "~/components/marketing/upsell-cta";
import { useBodyScript } from "~/components/marketing/use-body-script";
import { formatUsd, salesFunnel } from "~/config/site";
import { whiteLabelFaq, whiteLabelFeatures, whiteLabelTools } from "~/content/upsells";
import { pageMeta } from "~/lib/seo";
import type { RouteHandle } from "~/root";
import type { Route } from "./+types/white-label-upsell";

/** This page renders its own footer with the earnings disclaimer. */
export const handle: RouteHandle = { ownFooter: true };

const { whiteLabel, checkoutUrls, noThanksUrls } = salesFunnel;
const price = formatUsd(whiteLabel.priceCents);
const regular = formatUsd(whiteLabel.regularPriceCents);

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "12-in-1 White Label AI SaaS Empire | AI Labs",
    description: `Twelve ready-made AI SaaS tools with full source code, a marketing pack and video tutorials. Sell them under your own brand. ${regular} regular, ${price} today, one-time payment.`,
    path: "/white-label-upsell",
  });

function Cta({ tone }: { tone?: "light" | "dark" }) {
  return (
    <UpsellCta
      buyHref={checkoutUrls.whiteLabel}
      buyLabel={`Yes, Upgrade My Order for ${price}`}
      noThanksHref={noThanksUrls.whiteLabel}
      noThanksLabel="No Thanks, I don't want my own 12 AI tools"
      tone={tone}
    />
  );
}

export default function WhiteLabelUpsell() {
  useBodyScript(salesFunnel.checkoutDisclaimerScriptUrl);
  return (
    <>
      <main className="bg-white">
        <p className="bg-emerald-700 px-4 py-3 text-center font-semibold text-white">
          Your order is complete! Your login details arrive by e-mail in about 5 minutes (check your
          spam folder). Wait: your order is not finished yet. Read this special offer first.
        </p>

        <section className="bg-gradient-to-b from-slate-950 to-indigo-950 px-4 py-14 text-center text-white sm:py-20">
          <p className="text-sm font-bold uppercase tracking-widest text-amber-300">
            One-time offer for new members
          </p>
          <h1 className="mx-auto mt-4 max-w-4xl text-4xl font-black leading-tight tracking-tight sm:text-6xl">
            12-in-1 White Label AI SaaS Empire
          </h1>
          <p className="mx-auto mt-5 max-w-2xl text-lg text-indigo-100 sm:text-xl">
            Twelve ready-made AI apps with full source code. Put your brand on them, set your prices
            and sell them as your own, starting today.
          </p>
          <p className="mt-8 text-lg text-indigo-100">
            Regular price <s className="text-slate-300">{regular}</s>
          </p>
          <p className="mt-1">
            <span className="text-6xl font-black text-amber-300">{price}</span>
          </p>
          <p className="mt-2 font-semibold text-indigo-100">One-time payment · Lifetime access</p>
          <div className="mt-8">
            <Cta tone="dark" />
          </div>
        </section>

        <MarketingSection
          id="features"
          title="Everything you need to run your own AI software business"
        >
          <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            {whiteLabelFeatures.map((f) => (
              <li key={f.title} className="rounded-2xl border border-slate-200 p-6">
                <span className="flex h-11 w-11 items-center justify-center rounded-xl bg-indigo-50 text-indigo-700">
                  <FeatureIcon name={f.icon} />
                </span>
                <h3 className="mt-4 text-lg font-bold">{f.title}</h3>
                <p className="mt-1 text-slate-600">{f.description}</p>
              </li>
            ))}
          </ul>
        </MarketingSection>

        <MarketingSection id="tools" title="The 12 AI tools you get" className="bg-indigo-50">
          <ol className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {whiteLabelTools.map((tool, i) => (
              <li
                key={tool}
                className="flex items-center gap-3 rounded-xl bg-white p-4 font-semibold shadow-sm"
              >
                <span
                  aria-hidden="true"
                  className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-indigo-600 text-sm text-white"
                >
                  {i + 1}
                </span>
                {tool}
              </li>
            ))}
          </ol>
          <div className="mt-12">
            <Cta />
          </div>
        </MarketingSection>

        <MarketingSection id="faq" title="Frequently asked questions" width="max-w-3xl">
          <FaqList items={whiteLabelFaq} />
          <div className="mt-12">
            <Cta />
          </div>
        </MarketingSection>
      </main>
      <MarketingFooter />
    </>
  );
}
