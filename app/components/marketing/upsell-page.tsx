import type { ReactNode } from "react";
import { formatUsd } from "~/config/site";
import { Island } from "~/islands/island";
import { productPrice } from "~/lib/offer";
import { type FaqItem, FaqList } from "./faq-list";
import { MarketingPage } from "./marketing-page";
import { MarketingSection, type SectionProps, TitledSection } from "./section";
import { UpsellCta } from "./upsell-cta";
import { CheckoutDisclaimerScript } from "./use-body-script";
import type { PublicOffer } from "./use-offer";

/** The dark opening of an upsell page: what the offer is, its price (children) and the buy button. */
export function UpsellHero({
  eyebrow,
  title,
  lead,
  cta,
  children,
}: {
  eyebrow: ReactNode;
  title: ReactNode;
  lead: ReactNode;
  cta: Parameters<typeof UpsellCta>[0];
  children: ReactNode;
}) {
  return (
    <section className="bg-gradient-to-b from-slate-950 to-indigo-950 px-4 py-14 text-center text-white sm:py-20">
      <p className="text-sm font-bold uppercase tracking-widest text-amber-300">{eyebrow}</p>
      <h1 className="mx-auto mt-4 max-w-4xl text-4xl font-black leading-tight tracking-tight sm:text-6xl">
        {title}
      </h1>
      <p className="mx-auto mt-5 max-w-2xl text-lg text-indigo-100 sm:text-xl">{lead}</p>
      {children}
      <div className="mt-8">
        <UpsellCta {...cta} tone="dark" />
      </div>
    </section>
  );
}

/** An upsell's price and regular price (offer settings, set on /admin/products), formatted. */
export function upsellPrices(offer: PublicOffer, product: "white-label" | "custom-saas") {
  const { priceCents, regularPriceCents } = productPrice(offer, product);
  return { price: formatUsd(priceCents), regular: formatUsd(regularPriceCents ?? priceCents) };
}

/** The regular price, struck through, above today's. */
export function RegularPrice({ regular }: { regular: string }) {
  return (
    <p className="mt-8 text-lg text-indigo-100">
      Regular price <s className="text-slate-300">{regular}</s>
    </p>
  );
}

/** An upsell page's closing questions, with the buy button under them. */
export function UpsellFaq({
  items,
  cta,
}: {
  items: readonly FaqItem[];
  cta: Parameters<typeof UpsellCta>[0];
}) {
  return (
    <MarketingSection id="faq" title="Frequently asked questions" width="max-w-3xl">
      <Island name="faq-list" component={FaqList} props={{ items, idPrefix: "faq" }} />
      <div className="mt-12">
        <UpsellCta {...cta} />
      </div>
    </MarketingSection>
  );
}

/** A page section whose heading is centred above its content (the thank-you page's steps). */
export function StepSection({ className = "", ...section }: SectionProps & { className?: string }) {
  return (
    <TitledSection
      {...section}
      className={`px-4 py-14 ${className}`}
      inner="mx-auto max-w-4xl"
      titleClassName="text-center text-3xl font-extrabold tracking-tight"
    />
  );
}

/** An upsell page's main and its footer (with the earnings disclaimer unless told otherwise). */
export function UpsellLayout({
  disclaimer = true,
  children,
}: {
  /** An offer page: the earnings disclaimer and the checkout's disclaimer script. */
  disclaimer?: boolean;
  children: ReactNode;
}) {
  return (
    <MarketingPage mainClassName="bg-white" disclaimer={disclaimer}>
      {disclaimer ? (
        <Island name="checkout-disclaimer-script" component={CheckoutDisclaimerScript} props={{}} />
      ) : null}
      {children}
    </MarketingPage>
  );
}
