import { useState } from "react";
import { Form, Link, redirect, useNavigation } from "react-router";
import { FormError } from "~/components/form-answer";
import { CheckList } from "~/components/marketing/check-list";
import { primaryButton, TextField } from "~/components/ui";
import { formatUsd, lifetimeAccess, orderBump } from "~/config/site";
import { isFormAnswer } from "~/lib/form-answer";
import { checkoutSchema } from "~/lib/forms";
import { applyCoupon, type OfferSettings, planOfferIn, planOfferPriceCents } from "~/lib/offer";
import { holdsProduct } from "~/server/access.server";
import { getSessionUser, isMember, requireUser } from "~/server/auth/guards.server";
import { getDb } from "~/server/db/db.server";
import { getEnv } from "~/server/env.server";
import { readCheckedForm } from "~/server/forms.server";
import { logger } from "~/server/logger.server";
import { CheckoutError, checkoutMessages, createCheckout } from "~/server/payments/checkout.server";
import { currentOfferSettings } from "~/server/settings/offer-settings.server";
import type { Route } from "./+types/payment-options";

export const meta: Route.MetaFunction = () => [{ title: "Choose Your Access Plan | AI Labs" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  // The plan's name and prices are offer settings (docs/decisions/012), read from memory;
  // from the second sales page (?offer=offer2), its price.
  const offer = currentOfferSettings();
  const which = planOfferIn(request.url);
  const priceCents = planOfferPriceCents(offer, which);
  const hasAccess = await isMember(request);
  // The order bump, unless it is held already: its name, price and what it is.
  const bump =
    hasAccess || (await holdsProduct(await getDb(), { ...user, isAdmin: false }, orderBump))
      ? null
      : { name: offer.bumpName, priceCents: offer.bumpPriceCents };
  return {
    hasAccess,
    bump,
    offer: which,
    name: offer.planName,
    priceCents,
    regularPriceCents: offer.planRegularPriceCents,
    coupon: couponOffered(offer, priceCents),
  };
}

/** The advertised coupon while the checkout takes it: its code, saving and last day. */
function couponOffered(offer: OfferSettings, priceCents: number) {
  const taken = applyCoupon(offer, offer.couponCode, priceCents);
  if (!taken.ok || taken.savingCents === 0) return null;
  return {
    code: taken.code,
    savingCents: taken.savingCents,
    saving: formatUsd(taken.savingCents),
    total: formatUsd(priceCents - taken.savingCents),
    lastDay: offer.couponEndsOn
      ? new Date(`${offer.couponEndsOn}T12:00:00Z`).toLocaleDateString("en-US", {
          timeZone: "UTC",
          month: "long",
          day: "numeric",
          year: "numeric",
        })
      : null,
  };
}

export async function action({ request }: Route.ActionArgs) {
  // No redirect here: a checkout posted without a session is answered "No active session".
  const user = await getSessionUser(request);
  const form = await readCheckedForm(request, checkoutSchema, ["coupon", "bump"]);
  try {
    if (!user) throw new CheckoutError(checkoutMessages.noSession, 401);
    if (!form.ok) {
      if (form.fieldErrors.coupon) {
        return form.refuse(400, { fieldErrors: { coupon: form.fieldErrors.coupon } });
      }
      throw new CheckoutError(checkoutMessages.invalidProduct, 400);
    }
    // The advertised coupon, when one was typed: taken, or refused beside its field.
    const offer = currentOfferSettings();
    const priceCents = planOfferPriceCents(offer, form.data.offer);
    const coupon = form.data.coupon ? applyCoupon(offer, form.data.coupon, priceCents) : undefined;
    if (coupon && !coupon.ok) {
      return form.refuse(400, { fieldErrors: { coupon: coupon.error } });
    }
    const { url } = await createCheckout(await getDb(), {
      user,
      productId: form.data.productId,
      coupon: coupon?.ok ? { code: coupon.code, savingCents: coupon.savingCents } : undefined,
      offer: form.data.offer,
      bump: form.data.bump === "yes",
      origin: getEnv().publicOrigin,
      testCheckout: getEnv().testCheckout,
      stripe: getEnv().stripe,
    });
    return redirect(url);
  } catch (error) {
    if (error instanceof CheckoutError) {
      return form.refuse(error.status, { formError: error.message });
    }
    logger.error({ err: error }, "checkout failed");
    const formError = error instanceof Error ? checkoutMessages.failed : checkoutMessages.unknown;
    return form.refuse(500, { formError });
  }
}

/** Why the card is kept: the one-click upsells after paying charge it (upsell.server.ts). */
export const cardConsent =
  "By paying you allow AI Labs to keep this card and charge it for the upgrades you accept with one click after this payment. Nothing else is ever charged without your click.";

export default function PaymentOptions({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state !== "idle";
  const refused = isFormAnswer(actionData) ? actionData : undefined;
  const { coupon, bump } = loaderData;
  // The total as the buyer ticks the bump and types the coupon; without script, the
  // checkout shows it on submit.
  const [withBump, setWithBump] = useState(refused?.values.bump === "yes");
  const [typed, setTyped] = useState(refused?.values.coupon ?? "");
  const couponTaken = coupon !== null && typed.trim().toUpperCase() === coupon.code;
  const totalCents =
    loaderData.priceCents -
    (couponTaken ? coupon.savingCents : 0) +
    (withBump && bump ? bump.priceCents : 0);
  const plan = {
    ...lifetimeAccess,
    name: loaderData.name,
    amountCents: loaderData.priceCents,
    regularAmountCents: loaderData.regularPriceCents,
  };
  return (
    <main className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-3xl font-bold tracking-tight">Choose Your Access Plan</h1>
      <section
        aria-labelledby="plan-name"
        className="mt-8 rounded-2xl border-2 border-indigo-600 bg-white p-6 shadow-sm sm:p-8"
      >
        <h2 id="plan-name" className="text-2xl font-bold">
          {plan.name}
        </h2>
        <p className="mt-2 text-slate-600">{plan.description}</p>
        <p className="mt-4 flex items-baseline gap-3">
          <span className="text-4xl font-extrabold">{formatUsd(plan.amountCents)}</span>
          <s className="text-xl text-slate-500">
            <span className="sr-only">Regular price </span>
            {formatUsd(plan.regularAmountCents)}
          </s>
          <span className="text-sm text-slate-600">one-time payment</span>
        </p>
        <p className="mt-1 text-sm text-amber-700">
          Launch price: it will rise to {formatUsd(plan.regularAmountCents)}.
        </p>
        <CheckList
          items={plan.benefits}
          className="mt-6 grid gap-2 sm:grid-cols-2"
          tickClassName="text-green-600"
        />
        <div className="mt-8 space-y-3">
          <FormError answer={actionData} />
          {loaderData.hasAccess ? (
            <p className="rounded-md bg-green-50 p-3 text-green-800">
              You already own this: {plan.name} is yours.{" "}
              <Link to="/dashboard" className="font-semibold underline">
                Go to your dashboard
              </Link>
            </p>
          ) : (
            <Form method="post" className="space-y-4">
              <input type="hidden" name="productId" value={plan.id} />
              <input type="hidden" name="offer" value={loaderData.offer} />
              <TextField
                name="coupon"
                label="Coupon code (optional)"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                maxLength={64}
                hint={
                  coupon
                    ? `Coupon ${coupon.code} takes ${coupon.saving} off: you pay ${coupon.total}${coupon.lastDay ? `, until ${coupon.lastDay}` : ""}.`
                    : undefined
                }
                defaultValue={refused?.values.coupon ?? ""}
                onChange={(event) => setTyped(event.currentTarget.value)}
                error={refused?.fieldErrors.coupon}
              />
              {bump ? (
                <div className="rounded-xl border-2 border-dashed border-amber-500 bg-amber-50 p-4">
                  <label className="flex cursor-pointer items-start gap-3">
                    <input
                      type="checkbox"
                      name="bump"
                      value="yes"
                      defaultChecked={withBump}
                      onChange={(event) => setWithBump(event.currentTarget.checked)}
                      aria-labelledby="bump-title"
                      aria-describedby="bump-note"
                      className="mt-1 h-5 w-5 shrink-0 accent-indigo-600"
                    />
                    <span>
                      <span id="bump-title" className="font-bold text-slate-900">
                        Add the {bump.name} for {formatUsd(bump.priceCents)}
                      </span>
                      <span id="bump-note" className="mt-1 block text-sm text-slate-700">
                        One-time, with your plan: it opens its own course in your members' area and
                        is its own purchase on your receipts.
                      </span>
                    </span>
                  </label>
                </div>
              ) : null}
              <p className="flex items-baseline justify-between border-t border-slate-200 pt-3">
                <span className="text-slate-700">Total today</span>
                <strong aria-live="polite" className="text-xl" data-testid="checkout-total">
                  {formatUsd(totalCents)}
                </strong>
              </p>
              <button type="submit" className={primaryButton} disabled={busy}>
                {busy ? "Processing..." : "Get Lifetime Access Now"}
              </button>
              <p className="text-xs text-slate-500" id="card-consent">
                {cardConsent}
              </p>
            </Form>
          )}
          <p className="text-center text-sm text-slate-500">
            Secure payment via a card provider. Instant access after purchase.
          </p>
        </div>
      </section>
    </main>
  );
}
