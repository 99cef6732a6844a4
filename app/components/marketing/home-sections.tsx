import { formatUsd, lifetimeAccess } from "~/config/site";
import { benefits, learningList } from "~/content/home";
import { planBuyHref } from "~/lib/offer";
import { LineIcon } from "./feature-icon";
import { useOffer } from "./use-offer";

// Sections of the home page (/).

/** The home page's call-to-action link style; the colours are added per link. */
export const cta =
  "inline-flex items-center justify-center rounded-lg px-6 py-3 text-base font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-offset-2";

export function BenefitCards() {
  return (
    <ul className="mt-10 grid gap-6 md:grid-cols-3">
      {benefits.map((b) => (
        <li key={b.title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <span className="inline-flex h-11 w-11 items-center justify-center rounded-lg bg-indigo-50 text-indigo-700">
            <LineIcon d={b.icon} strokeWidth="1.5" />
          </span>
          <h3 className="mt-4 text-xl font-semibold">{b.title}</h3>
          <p className="mt-2 text-slate-600">{b.text}</p>
        </li>
      ))}
    </ul>
  );
}

export function LearningList() {
  return (
    <ol className="mt-8 grid gap-3 sm:grid-cols-2 lg:grid-cols-1 xl:grid-cols-2">
      {learningList.map((item, i) => (
        <li key={item} className="flex gap-3 rounded-lg bg-slate-50 p-4">
          <span
            aria-hidden="true"
            className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-indigo-600 text-sm font-semibold text-white"
          >
            {i + 1}
          </span>
          <span>{item}</span>
        </li>
      ))}
    </ol>
  );
}

/** The lifetime-access offer beside the learning list. */
export function OfferCard() {
  const offer = useOffer();
  const plan = {
    ...lifetimeAccess,
    name: offer.planName,
    amountCents: offer.planPriceCents,
    regularAmountCents: offer.planRegularPriceCents,
  };
  return (
    <section
      aria-labelledby="offer-heading"
      className="rounded-2xl border-2 border-indigo-600 bg-white p-6 shadow-lg sm:p-8"
    >
      <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase">Launch price</p>
      <h2 id="offer-heading" className="mt-1 text-2xl font-bold">
        {plan.name}
      </h2>
      <p className="mt-4 flex items-baseline gap-3">
        <span className="text-5xl font-extrabold tracking-tight">
          {formatUsd(plan.amountCents)}
        </span>
        <s className="text-xl text-slate-500">
          <span className="sr-only">Regular price </span>
          {formatUsd(plan.regularAmountCents)}
        </s>
      </p>
      <p className="mt-2 text-sm text-slate-600">
        One-time payment. The price will rise to {formatUsd(plan.regularAmountCents)}.
      </p>
      <ul className="mt-6 space-y-2">
        {plan.benefits.map((b) => (
          <li key={b} className="flex gap-2">
            <svg
              aria-hidden="true"
              viewBox="0 0 20 20"
              className="mt-0.5 h-5 w-5 shrink-0 fill-green-600"
            >
              <path d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.58l7.3-7.3a1 1 0 0 1 1.4 0Z" />
            </svg>
            {b}
          </li>
        ))}
      </ul>
      {/* Sign-up then the checkout, or the marketplace (planBuyHref): a document navigation. */}
      <a
        href={planBuyHref(offer, "plan")}
        className={`${cta} mt-8 w-full bg-indigo-600 text-white hover:bg-indigo-700 focus-visible:ring-indigo-500`}
      >
        Get Lifetime Access
      </a>
      <p className="mt-3 text-center text-sm text-slate-600">
        30-day money-back guarantee. No questions asked.
      </p>
    </section>
  );
}
