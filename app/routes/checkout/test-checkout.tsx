import { data, Form, redirect, useNavigation } from "react-router";
import { primaryButton } from "~/components/ui";
import { formatUsd, lifetimeAccess, orderBump } from "~/config/site";
import { testCheckoutSchema } from "~/lib/forms";
import { clientIpHeader } from "~/server/auth/better-auth.server";
import { requireUser } from "~/server/auth/guards.server";
import { getDb } from "~/server/db/db.server";
import { getEnv, isLoopbackAddress } from "~/server/env.server";
import { readCheckedForm } from "~/server/forms.server";
import { findTestCheckout, payTestCheckout } from "~/server/payments/test-checkout.server";
import { productName } from "~/server/settings/offer-settings.server";
import type { Route } from "./+types/test-checkout";

export const meta: Route.MetaFunction = () => [
  { title: "Test checkout | AI Labs" },
  { name: "robots", content: "noindex" },
];

export const testCheckoutLocalOnly =
  "The test checkout only pays for requests from the machine the server runs on. Set TEST_CHECKOUT=on to allow other clients.";

/** Off outside a local run (see Env.testCheckout): the page does not exist then. */
function requireTestCheckout() {
  if (!getEnv().testCheckout) throw data("Not found", 404);
}

export async function loader({ request, params }: Route.LoaderArgs) {
  requireTestCheckout();
  const user = await requireUser(request);
  const checkout = await findTestCheckout(await getDb(), user.id, params.checkoutId);
  if (!checkout) throw redirect("/payment-options");
  return {
    name: productName(checkout.product.id),
    isPlan: checkout.product.id === lifetimeAccess.id,
    coupon: checkout.couponCode,
    // The order bump ticked on the plan page: its own line, paid together.
    bump:
      checkout.bumpCents === null
        ? null
        : { name: productName(orderBump), amount: formatUsd(checkout.bumpCents) },
    amount: formatUsd(checkout.amountCents + (checkout.bumpCents ?? 0)),
    currency: checkout.currency.toUpperCase(),
    email: user.email,
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  requireTestCheckout();
  const user = await requireUser(request);
  const form = await readCheckedForm(request, testCheckoutSchema);
  if (!form.ok) return form.refusal;
  if (form.data.intent === "cancel") return redirect("/cancel");
  // Access without payment is for trying the product on this machine.
  if (
    !getEnv().testCheckoutForAnyClient &&
    !isLoopbackAddress(request.headers.get(clientIpHeader))
  ) {
    throw data(testCheckoutLocalOnly, 403);
  }
  const purchase = await payTestCheckout(await getDb(), user.id, params.checkoutId);
  if (!purchase) throw redirect("/payment-options");
  // An upsell paid here (no card was saved with the plan): /success leads on from it.
  return redirect(
    purchase.product === lifetimeAccess.id ? "/success" : `/success?bought=${purchase.product}`,
  );
}

export default function TestCheckout({ loaderData }: Route.ComponentProps) {
  const busy = useNavigation().state !== "idle";
  return (
    <main className="mx-auto max-w-md px-4 py-12">
      <p
        role="note"
        className="rounded-md border-2 border-dashed border-amber-500 bg-amber-50 p-3 text-center text-sm font-semibold uppercase tracking-wide text-amber-900"
      >
        Test mode: no card is charged
      </p>
      <div className="mt-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-2xl font-bold">Test checkout</h1>
        <dl className="mt-4 space-y-2">
          <div className="flex justify-between gap-4">
            <dt className="text-slate-600">{loaderData.isPlan ? "Plan" : "Product"}</dt>
            <dd className="font-medium">{loaderData.name}</dd>
          </div>
          {loaderData.bump ? (
            <div className="flex justify-between gap-4">
              <dt className="text-slate-600">Add-on</dt>
              <dd className="text-right font-medium">
                {loaderData.bump.name}, {loaderData.bump.amount}
              </dd>
            </div>
          ) : null}
          {loaderData.coupon ? (
            <div className="flex justify-between gap-4">
              <dt className="text-slate-600">Coupon</dt>
              <dd className="font-medium">{loaderData.coupon}</dd>
            </div>
          ) : null}
          <div className="flex justify-between gap-4">
            <dt className="text-slate-600">Amount</dt>
            <dd className="font-medium">
              {loaderData.amount} {loaderData.currency}
            </dd>
          </div>
          <div className="flex justify-between gap-4">
            <dt className="text-slate-600">Account</dt>
            <dd className="font-medium break-all">{loaderData.email}</dd>
          </div>
        </dl>
        <Form method="post" className="mt-6 space-y-3">
          <button type="submit" name="intent" value="pay" className={primaryButton} disabled={busy}>
            Pay {loaderData.amount}
          </button>
          <button
            type="submit"
            name="intent"
            value="cancel"
            className="w-full rounded-md border border-slate-300 px-4 py-2.5 font-medium text-slate-700 hover:bg-slate-50"
            disabled={busy}
          >
            Cancel
          </button>
        </Form>
      </div>
    </main>
  );
}
