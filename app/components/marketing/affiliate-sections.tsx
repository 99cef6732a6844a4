import { Link } from "react-router";
import { LaunchCountdown, useFunnel } from "~/components/marketing/affiliate";
import { CheckoutLink } from "~/components/marketing/external-button";
import { useOffer } from "~/components/marketing/use-offer";
import { affiliateLaunch, formatUsd, site } from "~/config/site";
import { reasons, resourceCards } from "~/content/affiliate";

// Sections of the affiliate launch page (/jv-affiliate).

const request = affiliateLaunch.marketplaceOfferUrl;

/** The sticky bar: the brand, the JV Doc and the request button; it sticks below the site header (h-16). */
export function AffiliateHeader() {
  return (
    <header className="sticky top-16 z-20 border-b border-slate-200 bg-white/95 backdrop-blur">
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
  );
}

export function AffiliateHero() {
  const { totalCents, maxCommissionCents } = useFunnel();
  return (
    <section className="bg-gradient-to-b from-indigo-950 to-indigo-800 px-4 py-16 text-center text-white">
      <p className="text-sm font-bold uppercase tracking-widest text-amber-300">
        Affiliate launch · 50% commission across the funnel
      </p>
      <h1 className="mx-auto mt-4 max-w-3xl text-3xl font-extrabold sm:text-5xl">
        Promote AI Labs and Earn Up to {formatUsd(maxCommissionCents)} Per Sale
      </h1>
      <p className="mx-auto mt-4 max-w-2xl text-lg text-indigo-100">
        A lifetime course that takes people from one written prompt to a launched AI SaaS app in 7
        days, with a funnel worth {formatUsd(totalCents)} per buyer.
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
  );
}

export function ReasonCards() {
  const offer = useOffer();
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {reasons(offer).map((r) => (
        <li key={r.title} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
          <h3 className="font-bold text-slate-900">{r.title}</h3>
          <p className="mt-2 text-slate-600">{r.text}</p>
        </li>
      ))}
    </ul>
  );
}

export function ResourceCards() {
  return (
    <ul className="grid gap-4 sm:grid-cols-3">
      {resourceCards.map((r) => (
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
  );
}

export function SupportBox() {
  return (
    <div className="mx-auto max-w-2xl rounded-xl border border-slate-200 bg-white p-6 text-center shadow-sm">
      <p className="text-slate-700">
        Questions about approval, tracking, payouts or a custom bonus page? Write to the launch team
        and we answer within one business day.
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
  );
}
