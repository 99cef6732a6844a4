import { Link } from "react-router";
import { DashboardCountdown } from "~/components/return-redirect";
import type { Route } from "./+types/cancel";

export const meta: Route.MetaFunction = () => [{ title: "Payment cancelled | AI Labs" }];

export default function Cancel() {
  return (
    <main className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-3xl font-bold">Payment cancelled</h1>
      <p className="mt-3 text-slate-700">
        Your payment was cancelled and you were not charged. You can{" "}
        <Link to="/payment-options" className="text-indigo-700 underline">
          choose your plan again
        </Link>{" "}
        whenever you are ready.
      </p>
      <DashboardCountdown />
    </main>
  );
}
