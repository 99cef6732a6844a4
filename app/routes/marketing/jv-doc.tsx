import { Link } from "react-router";
import {
  CommissionTableView,
  ContestBlock,
  CopyButton,
  LaunchCountdown,
} from "~/components/marketing/affiliate";
import { CheckoutLink } from "~/components/marketing/external-button";
import { MarketingFooter } from "~/components/marketing/marketing-footer";
import { affiliateFunnel, affiliateLaunch, formatUsd, lifetimeAccess, site } from "~/config/site";
import { commissionTable } from "~/lib/commission";
import { pageMeta } from "~/lib/seo";
import type { RouteHandle } from "~/root";
import type { Route } from "./+types/jv-doc";

export const handle: RouteHandle = { ownFooter: true };

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "AI Labs Joint-Venture Document | AI Labs",
    description:
      "Everything affiliates need for the AI Labs launch: product details, funnel and 50% commissions, contest rules, key dates, resources and your affiliate link.",
    path: "/jv-doc",
  });

const { totalCents, maxCommissionCents } = commissionTable(affiliateFunnel);

const dates = [
  { date: affiliateLaunch.launchLabel, what: "Launch: the cart opens and links go live" },
  {
    date: affiliateLaunch.fullBlast.label,
    what: `Full blast: ${affiliateLaunch.fullBlast.hours} hours of ${affiliateLaunch.fullBlast.commissionPercent}% commission on the frontend plus the bump`,
  },
  { date: affiliateLaunch.contest.winnersAnnounced, what: "Contest winners announced" },
];

function Block({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} className="rounded-2xl bg-white p-6 shadow-sm sm:p-8">
      <h2 id={`${id}-title`} className="text-2xl font-extrabold text-slate-900">
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

export default function JvDoc() {
  return (
    <div className="bg-slate-100">
      <main className="mx-auto max-w-4xl space-y-8 px-4 py-8">
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

        <Block id="product" title="The Product">
          <p className="text-slate-700">
            {site.brand} is lifetime access to a course and toolkit for building, launching and
            earning from AI software-as-a-service apps without writing code.{" "}
            {lifetimeAccess.description}
          </p>
          <ul className="mt-4 grid list-disc gap-1 pl-6 text-slate-700 sm:grid-cols-2">
            {lifetimeAccess.benefits.map((b) => (
              <li key={b}>{b}</li>
            ))}
          </ul>
          <p className="mt-4 text-slate-700">
            Buyers get their login by e-mail within about 5 minutes and are covered by a 30-day
            no-questions money-back guarantee.
          </p>
        </Block>

        <Block id="funnel" title="Funnel and Commission Structure">
          <CommissionTableView />
          <p className="mt-4 text-slate-600">
            Total funnel value {formatUsd(totalCents)}; maximum commission per sale{" "}
            {formatUsd(maxCommissionCents)}.
          </p>
        </Block>

        <Block id="contest" title="Launch Contest">
          <ContestBlock />
        </Block>

        <Block id="dates" title="Important Dates">
          <dl className="divide-y divide-slate-200">
            {dates.map((d) => (
              <div key={d.date} className="grid gap-1 py-3 sm:grid-cols-3">
                <dt className="font-bold text-slate-900">{d.date}</dt>
                <dd className="text-slate-700 sm:col-span-2">{d.what}</dd>
              </div>
            ))}
          </dl>
        </Block>

        <Block id="link" title="Your Affiliate Link">
          <p className="text-slate-700">
            Request approval on the marketplace, then replace YOUR_AFFILIATE_ID with the ID in your
            dashboard.
          </p>
          <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-center">
            <code className="block flex-1 break-all rounded-lg bg-slate-100 px-3 py-2 text-sm text-slate-800">
              {affiliateLaunch.affiliateLinkTemplate}
            </code>
            <CopyButton text={affiliateLaunch.affiliateLinkTemplate} label="Copy Affiliate Link" />
          </div>
          <div className="mt-4">
            <CheckoutLink href={affiliateLaunch.marketplaceOfferUrl} newTab variant="primary">
              Request Approval
            </CheckoutLink>
          </div>
        </Block>

        <Block id="resources" title="Resources">
          <ul className="list-disc space-y-2 pl-6">
            <li>
              <Link to="/demo-swipes?tab=demo" className="text-indigo-700 underline">
                Demo video and usage tips
              </Link>
            </li>
            <li>
              <Link to="/demo-swipes?tab=short-emails" className="text-indigo-700 underline">
                Short e-mail swipes (4)
              </Link>
            </li>
            <li>
              <Link to="/demo-swipes?tab=long-emails" className="text-indigo-700 underline">
                Long e-mail swipes (7)
              </Link>
            </li>
            <li>
              <Link to="/demo-swipes?tab=banners" className="text-indigo-700 underline">
                Banners in four sizes
              </Link>
            </li>
          </ul>
        </Block>

        <Block id="contact" title="Contact">
          <p className="text-slate-700">
            Need a review copy, a custom bonus or help with tracking? E-mail{" "}
            <a
              href={`mailto:${affiliateLaunch.jvEmail}`}
              className="font-bold text-indigo-700 underline"
            >
              {affiliateLaunch.jvEmail}
            </a>
            .
          </p>
        </Block>
      </main>
      <MarketingFooter disclaimer={false} />
    </div>
  );
}
