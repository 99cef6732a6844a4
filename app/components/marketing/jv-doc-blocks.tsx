import { Link } from "react-router";
import { CopyButton } from "~/components/marketing/affiliate";
import { CheckoutLink } from "~/components/marketing/external-button";
import { affiliateLaunch, lifetimeAccess, site } from "~/config/site";
import { launchDates, resourceLinks } from "~/content/affiliate";
import { useOffer } from "./use-offer";

// Blocks of the joint-venture document (/jv-doc).

export function ProductDetails() {
  return (
    <>
      <p className="text-slate-700">
        {site.brand} is lifetime access to a course and toolkit for building, launching and earning
        from AI software-as-a-service apps without writing code. {lifetimeAccess.description}
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
    </>
  );
}

export function AffiliateLinkDetails() {
  return (
    <>
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
    </>
  );
}

export function ResourceList() {
  return (
    <ul className="list-disc space-y-2 pl-6">
      {resourceLinks.map((r) => (
        <li key={r.to}>
          <Link to={r.to} className="text-indigo-700 underline">
            {r.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}

export function ContactDetails() {
  return (
    <p className="text-slate-700">
      Need a review copy, a custom bonus or help with tracking? E-mail{" "}
      <a href={`mailto:${affiliateLaunch.jvEmail}`} className="font-bold text-indigo-700 underline">
        {affiliateLaunch.jvEmail}
      </a>
      .
    </p>
  );
}

export function DatesList() {
  const offer = useOffer();
  return (
    <dl className="divide-y divide-slate-200">
      {launchDates(offer).map((d) => (
        <div key={d.date} className="grid gap-1 py-3 sm:grid-cols-3">
          <dt className="font-bold text-slate-900">{d.date}</dt>
          <dd className="text-slate-700 sm:col-span-2">{d.what}</dd>
        </div>
      ))}
    </dl>
  );
}
