import { Link, useRouteLoaderData } from "react-router";
import { CheckList } from "~/components/marketing/check-list";
import { MarketingPage } from "~/components/marketing/marketing-page";
import { upsellPrices } from "~/components/marketing/upsell-page";
import { type PublicOffer, useOffer } from "~/components/marketing/use-offer";
import { salesFunnel } from "~/config/site";
import { pageMetaFor } from "~/lib/seo";
import type { loader as rootLoader } from "~/root";
import { offerLoader } from "~/server/settings/offer-settings.server";
import type { Route } from "./+types/upgrades";
import { ownFooterIslands } from "./handles";

export const loader = offerLoader;

export const handle = ownFooterIslands;

const { coaching, guaranteeDays } = salesFunnel;

export const meta: Route.MetaFunction = ({ data }) => pageMetaFor("/upgrades", data?.offer);

const offers = [
  {
    tag: "Upgrade 1",
    title: "12-in-1 White Label AI SaaS Empire",
    text: "Twelve ready-made AI tools with full source code, a marketing pack and video tutorials. Put your brand on them and sell them as your own.",
    points: [
      "12 complete AI SaaS tools",
      "Full source code, your branding",
      "Marketing pack and video tutorials",
      "One-time payment, lifetime access",
    ],
    product: "white-label" as const,
    to: "/white-label-upsell",
    cta: "See the White Label Empire",
  },
  {
    tag: "Upgrade 2",
    title: "Custom AI SaaS & 1-on-1 Coaching",
    text: "Our team builds your own AI SaaS app with you, and coaches you personally from the first idea to your first customers.",
    points: [
      "Your app, custom built for you",
      "Personal 1-on-1 coaching sessions",
      `${coaching.supportDays} days post-launch support`,
      (offer: PublicOffer) => `Only ${offer.coachingClientCap} clients at a time`,
    ],
    product: "custom-saas" as const,
    to: "/custom-saas-upsell",
    cta: "See the Custom SaaS Package",
  },
] as const;

export default function Upgrades() {
  // Prerendered for visitors without a session (no user: the neutral line); a
  // signed-in user's page is rendered for them, so a member is told they have the course.
  const isMember = useRouteLoaderData<typeof rootLoader>("root")?.user?.isMember === true;
  const offer = useOffer();
  return (
    <MarketingPage mainClassName="mx-auto max-w-5xl px-4 py-12 sm:py-16" disclaimer={false}>
      <div className="text-center">
        <h1 className="text-4xl font-black tracking-tight sm:text-5xl">
          Upgrade Your AI SaaS Business
        </h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-600">
          {isMember ? "You have the course. These two upgrades" : "Two upgrades that"} get you to
          revenue faster: sell ready-made tools under your own brand, or have us build your app with
          you.
        </p>
      </div>
      <div className="mt-12 grid gap-8 md:grid-cols-2">
        {offers.map((o) => (
          <section
            key={o.to}
            aria-labelledby={`${o.to.slice(1)}-title`}
            className="flex flex-col rounded-3xl border border-slate-200 bg-white p-7 shadow-sm"
          >
            <p className="text-sm font-bold uppercase tracking-widest text-indigo-700">{o.tag}</p>
            <h2 id={`${o.to.slice(1)}-title`} className="mt-2 text-2xl font-extrabold">
              {o.title}
            </h2>
            <p className="mt-3 text-slate-600">{o.text}</p>
            <CheckList
              items={o.points.map((point) => (typeof point === "string" ? point : point(offer)))}
              className="mt-5 space-y-2"
              itemClassName="flex gap-2 text-slate-700"
              tickClassName="font-bold text-emerald-600"
            />
            <div className="mt-auto pt-6">
              <p className="text-slate-600">
                Regular price <s>{upsellPrices(offer, o.product).regular}</s>
              </p>
              <p className="text-slate-900">
                Special price{" "}
                <span className="text-4xl font-black">{upsellPrices(offer, o.product).price}</span>
              </p>
              <Link
                to={o.to}
                className="mt-6 flex items-center justify-center rounded-xl bg-indigo-600 px-6 py-3 font-bold text-white hover:bg-indigo-700 focus:outline-none focus-visible:ring-4 focus-visible:ring-indigo-300"
              >
                {o.cta}
              </Link>
            </div>
          </section>
        ))}
      </div>
      <p className="mx-auto mt-10 max-w-2xl rounded-2xl bg-emerald-50 p-5 text-center text-emerald-900">
        <strong>Satisfaction guaranteed.</strong> Both upgrades are covered by our {guaranteeDays}
        -day money-back guarantee: if an upgrade is not right for you, e-mail support and we refund
        you in full.
      </p>
    </MarketingPage>
  );
}
