import { useEffect, useState } from "react";
import { Link } from "react-router";
import { StepSection, UpsellLayout } from "~/components/marketing/upsell-page";
import {
  ContactChannels,
  NextSteps,
  PreparationList,
} from "~/components/marketing/upsell-sections";
import { pageMetaFor } from "~/lib/seo";
import { offerLoader } from "~/server/settings/offer-settings.server";
import type { Route } from "./+types/custom-saas-thank-you";
import { ownFooterIslands } from "./handles";

export const loader = offerLoader;

export const handle = ownFooterIslands;

export const meta: Route.MetaFunction = () => pageMetaFor("/custom-saas-thank-you");

const orderNumberPattern = /^AIL-[0-9A-Z]{4,12}$/;

/**
 * The order number the one-click purchase ended on (?order=AIL-7K3Q9). Read in
 * the browser: the page is the same prerendered document for everyone.
 */
function OrderNumber() {
  const [order, setOrder] = useState<string | null>(null);
  useEffect(() => {
    const given = new URLSearchParams(window.location.search).get("order");
    setOrder(given && orderNumberPattern.test(given) ? given : null);
  }, []);
  if (!order) return null;
  return (
    <p className="mt-6 text-lg">
      Your order number: <strong data-testid="order-number">{order}</strong>
    </p>
  );
}

export default function CustomSaasThankYou() {
  return (
    <UpsellLayout disclaimer={false}>
      <section className="bg-gradient-to-b from-emerald-700 to-emerald-900 px-4 py-14 text-center text-white sm:py-20">
        <span
          aria-hidden="true"
          className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-white text-3xl font-black text-emerald-700"
        >
          ✓
        </span>
        <h1 className="mt-6 text-4xl font-black tracking-tight sm:text-5xl">
          Thank You! Your Order Is Confirmed
        </h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-emerald-50">
          Your custom AI SaaS development partnership is now active. Here is how to reach the team,
          what to prepare and what happens next.
        </p>
        <OrderNumber />
        <Link
          to="/dashboard"
          className="mt-6 inline-block rounded-xl bg-white px-6 py-3 font-bold text-emerald-800 hover:bg-emerald-50 focus:outline-none focus-visible:ring-4 focus-visible:ring-white/60"
        >
          Go to your dashboard
        </Link>
      </section>

      <StepSection id="contact" title="Step 1: Contact us to book your first session">
        <p className="mx-auto mt-3 max-w-2xl text-center text-slate-600">
          Message us on either channel and include your <strong>order number</strong> from your
          confirmation e-mail, so we can match you to your order straight away.
        </p>
        <p className="mx-auto mt-3 max-w-2xl text-center text-slate-600">
          Your order number is also on{" "}
          <Link to="/coaching" className="font-semibold text-emerald-800 underline">
            your build&apos;s page
          </Link>{" "}
          (sign in with the account you bought with), where you send the intake form for your
          consultation.
        </p>
        <ContactChannels />
      </StepSection>

      <StepSection
        id="prepare"
        title="Step 2: Prepare for your consultation"
        className="bg-slate-50"
      >
        <PreparationList />
      </StepSection>

      <StepSection id="expect" title="What to expect">
        <NextSteps />
      </StepSection>
    </UpsellLayout>
  );
}
