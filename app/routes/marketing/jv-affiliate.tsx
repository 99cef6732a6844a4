import { Link } from "react-router";
import {
  CommissionTableView,
  ContestBlock,
  LaunchCountdown,
} from "~/components/marketing/affiliate";
import { CheckoutLink } from "~/components/marketing/external-button";
import { MarketingFooter } from "~/components/marketing/marketing-footer";
import { affiliateFunnel, affiliateLaunch, formatUsd, site } from "~/config/site";
import { commissionTable } from "~/lib/commission";
import { pageMeta } from "~/lib/seo";
import type { RouteHandle } from "~/root";
import type { Route } from "./+types/jv-affiliate";

export const handle: RouteHandle = { ownFooter: true };

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Promote AI Labs: Affiliate Launch | AI Labs",
    description:
      "Join the AI Labs launch as an affiliate: 50% commission across a four-step funnel, a $350 / $250 / $150 revenue contest and a 24-hour 100% commission full blast.",
    path: "/jv-affiliate",
  });

const { totalCents, maxCommissionCents } = commissionTable(affiliateFunnel);

const reasons = [
  {
    title: "A buyer-friendly frontend",
    text: `At ${formatUsd(affiliateFunnel[0]?.amountCents ?? 0)}, lifetime access to a full AI SaaS course is an easy yes for lists interested in AI, online business and side income.`,
  },
  {
    title: "Big-ticket backend",
    text: `One buyer taking the whole funnel is worth ${formatUsd(totalCents)}, and your 50% of it is ${formatUsd(maxCommissionCents)}.`,
  },
  {
    title: "A story people want",
    text: "Build an AI app from one written prompt and launch it in 7 days: no coding, no developers, a 23% free-to-paid conversion claim backed by the training.",
  },
  {
    title: "Low refunds by design",
    text: "Buyers get login details by e-mail within about 5 minutes, a real members' area and a 30-day no-questions money-back guarantee, so they stay.",
  },
  {
    title: "Ready-made promotion",
    text: "A demo video, 11 e-mail swipes and four banner sizes are written and waiting for you. Paste your link and send.",
  },
  {
    title: "A launch you can plan around",
    text: `Launch on ${affiliateLaunch.launchLabel}, full blast on ${affiliateLaunch.fullBlast.label}, winners announced ${affiliateLaunch.contest.winnersAnnounced}.`,
  },
];

const resources = [
  { to: "/demo-swipes?tab=demo", title: "Demo video", text: "Show your list the product at work." },
  {
    to: "/demo-swipes?tab=short-emails",
    title: "E-mail swipes",
    text: "Four short and seven long e-mails, ready to paste.",
  },
  {
    to: "/demo-swipes?tab=banners",
    title: "Banners",
    text: "728x90, 300x250, 468x60 and 160x600, ready to download.",
  },
];

function Section({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-title`} className="mx-auto max-w-5xl px-4 py-12">
      <h2
        id={`${id}-title`}
        className="text-center text-2xl font-extrabold text-slate-900 sm:text-3xl"
      >
        {title}
      </h2>
      <div className="mt-8">{children}</div>
    </section>
  );
}

export default function JvAffiliate() {
  const request = affiliateLaunch.marketplaceOfferUrl;
  return (
    <div className="bg-slate-50">
      <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/95 backdrop-blur">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-4 px-4 py-3">
          <span className="font-extrabold text-slate-900">{site.brand} Affiliates</span>
          <nav aria-label="Affiliate" className="flex items-center gap-4 text-sm font-semibold">
            <Link to="/jv-doc" className="text-indigo-700 underline hover:text-indigo-900">
              JV Doc
            </Link>
            <a
              href={request}
              target="_blank"
              rel="noopener noreferrer"
              className="rounded-lg bg-amber-400 px-3 py-2 text-slate-950 hover:bg-amber-300"
            >
              Request Affiliate Link<span className="sr-only"> (opens in a new tab)</span>
            </a>
          </nav>
        </div>
      </header>

      <main>
        <section className="bg-gradient-to-b from-indigo-950 to-indigo-800 px-4 py-16 text-center text-white">
          <p className="text-sm font-bold uppercase tracking-widest text-amber-300">
            Affiliate launch · 50% commission across the funnel
          </p>
          <h1 className="mx-auto mt-4 max-w-3xl text-3xl font-extrabold sm:text-5xl">
            Promote AI Labs and Earn Up to {formatUsd(maxCommissionCents)} Per Sale
          </h1>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-indigo-100">
            A lifetime course that takes people from one written prompt to a launched AI SaaS app in
            7 days, with a funnel worth {formatUsd(totalCents)} per buyer.
          </p>
          <div className="mt-8 rounded-2xl bg-white p-6 text-slate-900 sm:mx-auto sm:max-w-xl">
            <LaunchCountdown />
          </div>
          <div className="mt-8 flex flex-wrap justify-center gap-4">
            <CheckoutLink href={request} newTab>
              Get Your Affiliate Link
            </CheckoutLink>
            <Link
              to="/jv-doc"
              className="inline-flex items-center rounded-xl border-2 border-white px-6 py-4 text-lg font-bold text-white hover:bg-white/10"
            >
              Read the JV Doc
            </Link>
          </div>
        </section>

        <Section id="funnel" title="Funnel and Commissions">
          <CommissionTableView />
          <p className="mt-4 text-center text-slate-600">
            Every step pays 50%. One buyer through the whole funnel: {formatUsd(totalCents)} in
            sales, {formatUsd(maxCommissionCents)} to you.
          </p>
        </Section>

        <Section id="contest" title="Launch Contest">
          <ContestBlock />
        </Section>

        <Section id="reasons" title="Why Promote AI Labs">
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {reasons.map((r) => (
              <li
                key={r.title}
                className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
              >
                <h3 className="font-bold text-slate-900">{r.title}</h3>
                <p className="mt-2 text-slate-600">{r.text}</p>
              </li>
            ))}
          </ul>
        </Section>

        <Section id="resources" title="Promotional Resources">
          <ul className="grid gap-4 sm:grid-cols-3">
            {resources.map((r) => (
              <li key={r.to}>
                <Link
                  to={r.to}
                  className="block h-full rounded-xl border border-slate-200 bg-white p-5 shadow-sm hover:border-indigo-400"
                >
                  <span className="block font-bold text-indigo-700 underline">{r.title}</span>
                  <span className="mt-2 block text-slate-600">{r.text}</span>
                </Link>
              </li>
            ))}
          </ul>
        </Section>

        <Section id="support" title="Affiliate Support">
          <div className="mx-auto max-w-2xl rounded-xl border border-slate-200 bg-white p-6 text-center shadow-sm">
            <p className="text-slate-700">
              Questions about approval, tracking, payouts or a custom bonus page? Write to the
              launch team and we answer within one business day.
            </p>
            <a
              href={`mailto:${affiliateLaunch.jvEmail}?subject=AI%20Labs%20affiliate%20question`}
              className="mt-4 inline-block font-bold text-indigo-700 underline"
            >
              {affiliateLaunch.jvEmail}
            </a>
            <div className="mt-6">
              <CheckoutLink href={request} newTab variant="primary">
                Request Approval on the Marketplace
              </CheckoutLink>
            </div>
          </div>
        </Section>
      </main>
      <MarketingFooter disclaimer={false} />
    </div>
  );
}
