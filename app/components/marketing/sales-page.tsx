import { formatUsd, salesFunnel } from "~/config/site";
import {
  bonuses,
  discoveries,
  guarantee,
  productIntro,
  salesFaq,
  story,
  testimonials,
} from "~/content/sales";
import { Island } from "~/islands/island";
import { type PlanOffer, planBuyHref, planOfferPriceCents } from "~/lib/offer";
import { BuildDemo } from "./build-demo";
import type { BuildDemoTiming } from "./build-demo-timeline";
import { Countdown } from "./countdown";
import { DemoVideo } from "./demo-video";
import { CheckoutLink } from "./external-button";
import { FaqList } from "./faq-list";
import { MarketingPage } from "./marketing-page";
import { PriceBox } from "./price-box";
import { MarketingSection } from "./section";
import { CheckCircleIcon } from "./status-icons";
import { useOffer } from "./use-offer";

export type SalesVariant = {
  /** Which offer of the plan this page sells: its price, and where its buy buttons lead. */
  offer: PlanOffer;
  headline: string;
  subheadline: string;
  demoTiming: BuildDemoTiming;
  /** One prompt stays; several rotate, one per demo run. */
  demoPrompts: readonly string[];
};

const { guaranteeDays, firstCustomers } = salesFunnel;

/** The first-customers bonus and how many places are left, counted from the purchases. */
function FirstCustomersBonus({ left }: { left: number }) {
  const { customers, bonusValueCents } = firstCustomers;
  return (
    <div className="mt-8 flex flex-col items-center gap-3 rounded-2xl bg-slate-900 p-6 text-center text-white sm:flex-row sm:justify-between sm:text-left">
      <p>
        <strong className="text-amber-300">First {customers} customers only:</strong> a bonus
        template and three more bonuses, valued at {formatUsd(bonusValueCents)}.
      </p>
      <p
        data-testid="first-customers-left"
        className="shrink-0 rounded-full bg-amber-400 px-4 py-1.5 font-bold text-slate-950"
      >
        {left > 0 ? `${left} of ${customers} left` : `All ${customers} places taken`}
      </p>
    </div>
  );
}

function BuyButton({
  href,
  price,
  className = "",
  label = `Get Instant Access for ${formatUsd(price)}`,
}: {
  href: string;
  price: number;
  className?: string;
  label?: string;
}) {
  return (
    <CheckoutLink href={href} className={`w-full sm:w-auto ${className}`}>
      {label}
    </CheckoutLink>
  );
}

/**
 * One marketplace sales page (docs/product.md, Sales pages); the two variants
 * differ in coupon, headline and demo.
 */
export function SalesPage({
  variant,
  firstCustomersLeft,
}: {
  variant: SalesVariant;
  /** Places left for the first-customers bonus (places-left.server.ts). */
  firstCustomersLeft: number;
}) {
  const offer = useOffer();
  const price = planOfferPriceCents(offer, variant.offer);
  const regular = offer.planRegularPriceCents;
  const { couponSavingCents } = offer;
  const buy = { href: planBuyHref(offer, variant.offer), price };
  return (
    <MarketingPage mainClassName="bg-white">
      <p className="bg-amber-400 px-4 py-3 text-center font-semibold text-slate-950">
        Launch special: use coupon{" "}
        <code className="rounded bg-slate-950 px-2 py-0.5 font-mono font-bold text-amber-300">
          {offer.couponCode}
        </code>{" "}
        at checkout and save another {formatUsd(couponSavingCents)}.
      </p>

      <section className="bg-gradient-to-b from-indigo-950 to-indigo-900 px-4 pt-12 pb-16 text-white sm:pt-16">
        <div className="mx-auto max-w-5xl text-center">
          <p className="text-sm font-bold uppercase tracking-widest text-amber-300">
            For non-technical founders and side-hustlers
          </p>
          <h1 className="mt-4 text-4xl font-black leading-tight tracking-tight sm:text-5xl lg:text-6xl">
            {variant.headline}
          </h1>
          <p className="mx-auto mt-5 max-w-3xl text-lg text-indigo-100 sm:text-xl">
            {variant.subheadline}
          </p>
          <img
            src="/images/ailabs-hero.svg"
            alt="A written prompt turning into a live AI app with a growing revenue chart"
            width={1200}
            height={675}
            className="mx-auto mt-10 w-full max-w-4xl rounded-3xl shadow-2xl"
          />
          <div className="mt-10 flex flex-col items-center gap-3">
            <p className="font-semibold text-indigo-100">This launch price ends in</p>
            <Island
              name="countdown"
              component={Countdown}
              props={{
                fromSeconds: salesFunnel.countdownStartSeconds,
                label: "Launch price ends in",
              }}
            />
          </div>
          <div className="mt-8">
            <BuyButton {...buy} />
            <p className="mt-3 text-sm text-indigo-200">
              One-time payment · Lifetime access · {guaranteeDays}-day money-back guarantee
            </p>
          </div>
        </div>
      </section>

      <section aria-label="Video" className="px-4 pt-14">
        <figure className="mx-auto max-w-4xl">
          <DemoVideo className="rounded-3xl shadow-xl" />
          <figcaption className="mt-3 text-center text-slate-600">
            Watch how a one-paragraph prompt becomes a working AI app.
          </figcaption>
        </figure>
      </section>

      <MarketingSection id="story" title="Why most AI app ideas never launch">
        <div className="mx-auto max-w-3xl space-y-5 text-lg leading-relaxed text-slate-700">
          {story.map((p) => (
            <p key={p.slice(0, 24)}>{p}</p>
          ))}
        </div>
      </MarketingSection>

      <MarketingSection id="intro" title={productIntro.title} className="bg-indigo-50">
        <p className="mx-auto max-w-3xl text-center text-lg leading-relaxed text-slate-700">
          {productIntro.text}
        </p>
      </MarketingSection>

      <MarketingSection id="discover" title="Here is what you will discover inside">
        <ul className="grid gap-5 sm:grid-cols-2">
          {discoveries.map((d) => (
            <li key={d.title} className="flex gap-3 rounded-2xl border border-slate-200 p-5">
              <CheckCircleIcon className="mt-0.5 h-6 w-6 shrink-0 text-emerald-600" />
              <div>
                <h3 className="font-bold text-slate-900">{d.title}</h3>
                <p className="mt-1 text-slate-600">{d.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </MarketingSection>

      <MarketingSection id="demo" title="Watch an AI SaaS app build itself" className="bg-slate-50">
        <p className="mx-auto -mt-4 mb-8 max-w-2xl text-center text-slate-600">
          This is the workflow you will learn: one prompt in, a complete app with AI and payments
          out.
        </p>
        <Island
          name="build-demo"
          component={BuildDemo}
          props={{
            timing: variant.demoTiming,
            prompts: variant.demoPrompts,
            deployHref: "#pricing",
          }}
        />
      </MarketingSection>

      <MarketingSection id="bonuses" title="Plus 4 bonuses when you join today">
        <ul className="grid gap-5 sm:grid-cols-2">
          {bonuses.map((b, i) => (
            <li
              key={b.title}
              className="rounded-2xl border-2 border-dashed border-amber-400 bg-amber-50 p-6"
            >
              <p className="text-sm font-bold uppercase tracking-widest text-amber-800">
                Bonus #{i + 1}
              </p>
              <h3 className="mt-1 text-xl font-extrabold">{b.title}</h3>
              <p className="mt-2 text-slate-700">{b.text}</p>
              <p className="mt-3 font-bold text-slate-900">Value: {b.value}</p>
            </li>
          ))}
        </ul>
        <FirstCustomersBonus left={firstCustomersLeft} />
      </MarketingSection>

      <MarketingSection id="testimonials" title="What early members say" className="bg-slate-50">
        <div className="grid gap-6 md:grid-cols-2">
          {testimonials.map((t) => (
            <figure
              key={t.name}
              className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
            >
              <blockquote className="text-lg leading-relaxed text-slate-700">
                “{t.quote}”
              </blockquote>
              <figcaption className="mt-4 font-semibold text-slate-900">
                {t.name} <span className="font-normal text-slate-600">· {t.role}</span>
              </figcaption>
            </figure>
          ))}
        </div>
      </MarketingSection>

      <section aria-labelledby="guarantee-title" className="px-4 py-14 sm:py-20">
        <div className="mx-auto flex max-w-3xl flex-col items-center gap-6 rounded-3xl border border-emerald-200 bg-emerald-50 p-8 text-center sm:flex-row sm:text-left">
          <span
            aria-hidden="true"
            className="flex h-28 w-28 shrink-0 flex-col items-center justify-center rounded-full border-4 border-emerald-600 bg-white font-black text-emerald-700"
          >
            <span className="text-4xl leading-none">{guaranteeDays}</span>
            <span className="text-xs uppercase">day</span>
          </span>
          <div>
            <h2 id="guarantee-title" className="text-2xl font-extrabold">
              {guarantee.title}
            </h2>
            <p className="mt-2 text-slate-700">{guarantee.text}</p>
          </div>
        </div>
      </section>

      <section
        id="pricing"
        aria-labelledby="pricing-title"
        className="scroll-mt-20 bg-indigo-950 px-4 py-14 sm:py-20"
      >
        <h2
          id="pricing-title"
          className="mb-10 text-center text-3xl font-extrabold text-white sm:text-4xl"
        >
          Get AI Labs today
        </h2>
        <PriceBox
          regularCents={regular}
          priceCents={price}
          savingCents={Math.max(0, regular - price)}
          note={`Use coupon ${offer.couponCode} at checkout to save another ${formatUsd(couponSavingCents)}.`}
        >
          <BuyButton {...buy} className="sm:w-full" label="Yes, I Want Lifetime Access" />
          <p className="mt-3 text-sm text-slate-600">
            Secure checkout on our marketplace partner. Login details by e-mail within about 5
            minutes.
          </p>
        </PriceBox>
      </section>

      <MarketingSection id="faq" title="Frequently asked questions">
        <div className="mx-auto max-w-3xl">
          <Island
            name="faq-list"
            component={FaqList}
            props={{ items: salesFaq, idPrefix: "faq" }}
          />
        </div>
      </MarketingSection>

      <section
        aria-labelledby="closing-title"
        className="bg-gradient-to-b from-indigo-900 to-indigo-950 px-4 py-16 text-center text-white"
      >
        <h2 id="closing-title" className="text-3xl font-extrabold sm:text-4xl">
          Your first AI app is seven days away
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-indigo-100">
          Join today for a one-time {formatUsd(price)} instead of {formatUsd(regular)}, keep
          everything for life and take a full {guaranteeDays} days to decide if it is for you.
        </p>
        <div className="mt-8">
          <BuyButton {...buy} />
        </div>
      </section>
    </MarketingPage>
  );
}
