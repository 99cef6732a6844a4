import { useEffect } from "react";
import { Form, Link, useNavigation, useRevalidator } from "react-router";
import {
  ConsoleHeading,
  DateRangeFields,
  Figure,
  formatAmount,
  formatWhen,
  SelectField,
  secondaryButton,
} from "~/components/admin/console";
import { SalesGroupTable } from "~/components/admin/sales-groups";
import { dashboardQuerySchema } from "~/lib/admin-forms";
import { consoleLoader } from "~/server/admin/console.server";
import { dashboardRange, readDashboard } from "~/server/admin/dashboard.server";
import { utcDay } from "~/server/analytics/page-views.server";
import { currentOfferSettings } from "~/server/settings/offer-settings.server";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = () => [{ title: "Admin Panel | AI Labs" }];

/** How often an open dashboard reads its figures again, while the tab is visible. */
const refreshMs = 10_000;

export const loader = consoleLoader(dashboardQuerySchema, async (db, query) => {
  const range = dashboardRange(query, utcDay(), currentOfferSettings());
  return { ...(await readDashboard(db, range)), at: new Date().toISOString() };
});

const periodOptions = [
  { value: "today", label: "Today" },
  { value: "week", label: "Last 7 days" },
  { value: "launch", label: "Launch week" },
  { value: "month", label: "This month" },
  { value: "range", label: "From and to below" },
] as const;

const number = (n: number) => n.toLocaleString("en-US");
const percent = (p: number | null) => (p === null ? "—" : `${p.toFixed(1)}%`);

/** The console's home: the launch at a glance, read again every few seconds while open. */
export default function Dashboard({ loaderData: d }: Route.ComponentProps) {
  const navigation = useNavigation();
  const loading = navigation.state === "loading";
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === "visible" && state === "idle") revalidate();
    }, refreshMs);
    return () => clearInterval(timer);
  }, [revalidate, state]);
  const money = (cents: number) => formatAmount(cents, d.currency);
  const salesQuery = new URLSearchParams({ from: d.range.from, to: d.range.to }).toString();
  return (
    <main>
      <ConsoleHeading title="Admin Panel">
        {d.range.label}:{" "}
        {d.range.from === d.range.to ? d.range.from : `${d.range.from} to ${d.range.to}`} (UTC
        days). Updated {formatWhen(d.at)}; it updates itself while open.
      </ConsoleHeading>
      <Form
        method="get"
        className="mt-6 flex flex-wrap items-end gap-3"
        aria-label="Choose the period"
      >
        <SelectField
          id="dashboard-period"
          label="Period"
          name="period"
          value={d.range.period}
          options={periodOptions}
        />
        <DateRangeFields id="dashboard" range={d.range} />
        <button type="submit" className={secondaryButton} disabled={loading}>
          {loading ? "Loading…" : "Show"}
        </button>
      </Form>

      <div aria-busy={loading} className={loading ? "opacity-60" : undefined}>
        <h2 className="sr-only">Money</h2>
        <dl className="mt-6 grid grid-cols-2 gap-3 lg:grid-cols-4">
          <Figure
            label="Revenue"
            value={money(d.grossCents)}
            note={`${number(d.sales)} sale${d.sales === 1 ? "" : "s"}`}
          />
          <Figure
            label="Refunds"
            value={money(d.refundsCents)}
            note={`${number(d.refunds)} refund${d.refunds === 1 ? "" : "s"}, on the day made`}
          />
          <Figure label="Net" value={money(d.netCents)} note="Revenue less refunds" />
          <Figure
            label="Members with access"
            value={number(d.membersWithAccess)}
            note="Now, admins included"
          />
        </dl>
        {d.otherCurrencies.length > 0 ? (
          <p className="mt-2 text-sm text-slate-600">
            Also:{" "}
            {d.otherCurrencies
              .map((t) => `${formatAmount(t.grossCents, t.currency)} in ${t.sales} sales`)
              .join("; ")}
            .
          </p>
        ) : null}

        <h2 className="sr-only">Sign-ups and the funnel</h2>
        <dl className="mt-3 grid grid-cols-2 gap-3 lg:grid-cols-4">
          <Figure
            label="Sign-ups"
            value={number(d.signUps)}
            note={d.manualGrants > 0 ? `${number(d.manualGrants)} given access by hand` : undefined}
          />
          <Figure
            label="Free-to-paid"
            value={percent(d.freeToPaidPercent)}
            note={`${number(d.payingSignUps)} of ${number(d.signUps)} paid; the sales page says ${d.claimedFreeToPaidPercent}%`}
          />
          <Figure
            label="Unmatched payments"
            value={number(d.unmatchedPayments)}
            note={
              d.unmatchedPayments > 0 ? (
                <Link to="/admin/members" className="text-indigo-700 underline">
                  Attach or dismiss them
                </Link>
              ) : (
                "None waiting"
              )
            }
          />
          <Figure
            label="E-mails failing"
            value={number(d.failingEmails)}
            note={d.failingEmails > 0 ? "Not sent yet: see npm run cli -- mail failed" : "None"}
          />
        </dl>

        {d.takeRates.length > 0 ? (
          <section aria-labelledby="take-rates-heading" className="mt-8">
            <h2 id="take-rates-heading" className="text-xl font-semibold">
              Take rates
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              Of the {number(d.planPurchases)} Lifetime Access purchase
              {d.planPurchases === 1 ? "" : "s"} in these days.
            </p>
            <ul className="mt-3 grid gap-3 sm:grid-cols-3">
              {d.takeRates.map((t) => (
                <li key={t.product} className="rounded-lg border border-slate-200 bg-white p-4">
                  <p className="text-sm font-medium text-slate-600">{t.label}</p>
                  <p className="mt-1 text-2xl font-bold tracking-tight">
                    {percent(t.percent ?? null)}
                  </p>
                  <p className="mt-1 text-sm text-slate-600">{number(t.count ?? 0)} taken</p>
                </li>
              ))}
            </ul>
          </section>
        ) : null}

        <section aria-labelledby="by-product-heading" className="mt-8">
          <h2 id="by-product-heading" className="text-xl font-semibold">
            Sales by product
          </h2>
          {d.byProduct.length === 0 ? (
            <p className="mt-3 text-sm text-slate-700">No sales in these days yet.</p>
          ) : (
            <SalesGroupTable caption="Sales by product" first="Product" groups={d.byProduct} />
          )}
          <p className="mt-3 flex flex-wrap gap-4 text-sm">
            <Link to={`/admin/sales?${salesQuery}`} className="text-indigo-700 underline">
              Sales report for these days
            </Link>
            <Link to={`/admin/funnel?${salesQuery}`} className="text-indigo-700 underline">
              Funnel for these days
            </Link>
          </p>
        </section>
      </div>
    </main>
  );
}
