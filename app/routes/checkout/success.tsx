import { Link } from "react-router";
import { DashboardCountdown } from "~/components/return-redirect";
import { isUpsellProduct } from "~/config/site";
import { getSessionUser } from "~/server/auth/guards.server";
import { getDb } from "~/server/db/db.server";
import { getEnv } from "~/server/env.server";
import { checkoutReturnFor } from "~/server/payments/checkout-return.server";
import type { CheckoutReturn } from "~/server/payments/stripe-checkout.server";
import { nextStepAfter } from "~/server/payments/upsell.server";
import { productName } from "~/server/settings/offer-settings.server";
import type { Route } from "./+types/success";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  {
    title: `${!loaderData || loaderData.outcome === "paid" ? "Payment successful" : notices[loaderData.outcome].title} | AI Labs`,
  },
];

/**
 * Says what is true for the visitor: access is active only for a signed-in
 * user who has it (with Stripe, after fulfilling their paid session at once,
 * idempotent with the webhook; the test checkout records the purchase before
 * coming here); a neutral page for anyone else.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  const sessionId = new URL(request.url).searchParams.get("session_id");
  const bought = new URL(request.url).searchParams.get("bought");
  const db = await getDb();
  const outcome = await checkoutReturnFor(db, getEnv().stripe, { user, sessionId });
  // An upsell paid through a checkout (the bank asked, or no card was saved): its name.
  const upsell = isUpsellProduct(bought) ? productName(bought) : null;
  const next = user && outcome === "paid" ? await nextStepAfter(db, user, bought) : "/dashboard";
  return { outcome, signedIn: user !== null, upsell, next };
}

const notices: Record<Exclude<CheckoutReturn, "paid">, { title: string; text: string }> = {
  pending: {
    title: "Payment not confirmed yet",
    text: "The card provider has not confirmed your payment yet. Some payment methods take a while; your Lifetime Access opens as soon as the payment is confirmed. Please do not pay again.",
  },
  refunded: {
    title: "Payment refunded",
    text: "This payment has been refunded, so it does not give access.",
  },
  unknown: {
    title: "Payment not confirmed here",
    text: "We could not confirm a payment on this page. If you paid, your Lifetime Access opens as soon as the payment is confirmed: sign in and open your dashboard.",
  },
};

export default function Success({ loaderData }: Route.ComponentProps) {
  if (loaderData.outcome !== "paid") {
    const notice = notices[loaderData.outcome];
    return (
      <main className="mx-auto max-w-xl px-4 py-16 text-center">
        <h1 className="text-3xl font-bold">{notice.title}</h1>
        <p className="mt-3 text-slate-700">{notice.text}</p>
        <Link
          to={loaderData.signedIn ? "/dashboard" : "/login"}
          className="mt-6 block font-semibold text-indigo-700 underline"
        >
          {loaderData.signedIn ? "Go to dashboard" : "Sign in"}
        </Link>
      </main>
    );
  }
  return (
    <main className="mx-auto max-w-xl px-4 py-16 text-center">
      <div
        aria-hidden="true"
        className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-green-100 text-3xl text-green-700"
      >
        ✓
      </div>
      <h1 className="mt-4 text-3xl font-bold">Payment successful</h1>
      <p className="mt-3 text-slate-700">
        {loaderData.upsell
          ? `Thank you! The ${loaderData.upsell} is added to your order.`
          : "Thank you! Your Lifetime Access is active: every course, tool and bonus is open to you now."}
      </p>
      <DashboardCountdown to={loaderData.next} />
    </main>
  );
}
