import { Form, Link, redirect, useNavigation } from "react-router";
import { FormError } from "~/components/form-answer";
import { CheckList } from "~/components/marketing/check-list";
import { primaryButton, TextField } from "~/components/ui";
import { formatUsd, lifetimeAccess } from "~/config/site";
import { isFormAnswer } from "~/lib/form-answer";
import { checkoutSchema } from "~/lib/forms";
import { applyCoupon, type OfferSettings } from "~/lib/offer";
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
  await requireUser(request);
  return {
    hasAccess: await isMember(request),
    // The plan's name and prices are offer settings (docs/decisions/012), read from memory.
    name: currentOfferSettings().planName,
    priceCents: currentOfferSettings().planPriceCents,
    regularPriceCents: currentOfferSettings().planRegularPriceCents,
    coupon: couponOffered(currentOfferSettings()),
  };
}

/** The advertised coupon while the checkout takes it: its code, saving and last day. */
function couponOffered(offer: OfferSettings) {
  const taken = applyCoupon(offer, offer.couponCode, offer.planPriceCents);
  if (!taken.ok || taken.savingCents === 0) return null;
  return {
    code: taken.code,
    saving: formatUsd(taken.savingCents),
    total: formatUsd(offer.planPriceCents - taken.savingCents),
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
  const form = await readCheckedForm(request, checkoutSchema, ["coupon"]);
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
    const coupon = form.data.coupon
      ? applyCoupon(offer, form.data.coupon, offer.planPriceCents)
      : undefined;
    if (coupon && !coupon.ok) {
      return form.refuse(400, { fieldErrors: { coupon: coupon.error } });
    }
    const { url } = await createCheckout(await getDb(), {
      user,
      productId: form.data.productId,
      coupon: coupon?.ok ? { code: coupon.code, savingCents: coupon.savingCents } : undefined,
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

export default function PaymentOptions({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state !== "idle";
  const refused = isFormAnswer(actionData) ? actionData : undefined;
  const { coupon } = loaderData;
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
              You already have Lifetime Access.{" "}
              <Link to="/dashboard" className="font-semibold underline">
                Go to your dashboard
              </Link>
            </p>
          ) : (
            <Form method="post" className="space-y-4">
              <input type="hidden" name="productId" value={plan.id} />
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
                error={refused?.fieldErrors.coupon}
              />
              <button type="submit" className={primaryButton} disabled={busy}>
                {busy ? "Processing..." : "Get Lifetime Access Now"}
              </button>
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
