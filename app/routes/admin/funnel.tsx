import { Form, useNavigation } from "react-router";
import {
  Cell,
  ConsoleHeading,
  DataTable,
  DateRangeFields,
  Figure,
  secondaryButton,
} from "~/components/admin/console";
import { SalesGroupTable } from "~/components/admin/sales-groups";
import { funnelQuerySchema } from "~/lib/admin-forms";
import { consoleLoader } from "~/server/admin/console.server";
import {
  claimedFreeToPaidPercent,
  funnelRange,
  maxRangeDays,
  readFunnel,
} from "~/server/admin/funnel.server";
import { salesReport } from "~/server/admin/sales.server";
import { utcDay } from "~/server/analytics/page-views.server";
import { logger } from "~/server/logger.server";
import { flushPageViews } from "~/server/process-messages.server";
import type { Route } from "./+types/funnel";

export const loader = consoleLoader(funnelQuerySchema, async (db, query) => {
  const range = funnelRange(query, utcDay());
  // Views not yet written (by any server process) are added first, so today's figures are current.
  await flushPageViews(db).catch((error: unknown) =>
    logger.warn({ err: error }, "page views not written yet"),
  );
  const funnel = await readFunnel(db, range);
  // Sales by offer: the sales report's own figures for the same days (/admin/sales).
  const { byProduct } = await salesReport(db, { ...range, unit: "day" });
  return { ...funnel, salesByOffer: byProduct, claimedFreeToPaidPercent, maxRangeDays };
});

const number = (n: number) => n.toLocaleString("en-US");
const percent = (p: number | null) => (p === null ? "—" : `${p.toFixed(1)}%`);

const pageLabels = {
  "/": "Landing page (/)",
  "/ailabs-offer": "Sales page (/ailabs-offer)",
  "/ailabs-offer2": "Sales page 2 (/ailabs-offer2)",
  "/payment-options": "Plan page (/payment-options)",
  "/checkout": "Checkout started",
  "/success": "Success page (/success)",
  "/white-label-upsell": "Upsell 1 (/white-label-upsell)",
  "/custom-saas-upsell": "Upsell 2 (/custom-saas-upsell)",
} as const;

export default function Funnel({ loaderData }: Route.ComponentProps) {
  const funnel = loaderData;
  const { claimedFreeToPaidPercent, maxRangeDays } = funnel;
  const loading = useNavigation().state === "loading";
  const rate = funnel.freeToPaidPercent;
  const stepLabels = new Map(funnel.steps.map((step) => [step.key, step.label]));
  return (
    <main>
      <ConsoleHeading title="Funnel">
        Views of the funnel's pages by visitors who accepted analytical cookies; sign-ups and
        purchases of Lifetime Access from the accounts. Days in UTC.
      </ConsoleHeading>
      <Form method="get" className="mt-6 flex flex-wrap items-end gap-3" aria-label="Date range">
        <DateRangeFields id="funnel" range={funnel.range} />
        <button type="submit" className={secondaryButton} disabled={loading}>
          {loading ? "Loading…" : "Show"}
        </button>
        <p className="basis-full text-sm text-slate-600">
          {funnel.range.from} to {funnel.range.to} ({number(funnel.days.length)} day
          {funnel.days.length === 1 ? "" : "s"}; at most {maxRangeDays}).
        </p>
      </Form>

      <div aria-busy={loading} className={loading ? "opacity-60" : undefined}>
        <dl className="mt-6 grid grid-cols-2 gap-3 lg:grid-cols-4">
          <Figure label="Visits" value={number(funnel.visits)} note="Landing and sales pages" />
          <Figure label="Sign-ups" value={number(funnel.signUps)} />
          <Figure
            label="Purchases"
            value={number(funnel.purchases)}
            note={
              funnel.grants > 0
                ? `Lifetime Access; and ${number(funnel.grants)} granted by the seller, not counted`
                : "Lifetime Access"
            }
          />
          <Figure
            label="Free-to-paid"
            value={percent(rate)}
            note={`${number(funnel.payingSignUps)} of ${number(funnel.signUps)} sign-ups paid; the sales page claims ${claimedFreeToPaidPercent}%`}
          />
        </dl>
        <p className="mt-3 text-sm text-slate-700">
          {rate === null
            ? "No sign-ups in this range yet."
            : rate >= claimedFreeToPaidPercent
              ? `At or above the ${claimedFreeToPaidPercent}% the sales page claims.`
              : `${(claimedFreeToPaidPercent - rate).toFixed(1)} points below the ${claimedFreeToPaidPercent}% the sales page claims.`}
        </p>

        <h2 className="mt-8 text-xl font-semibold">Steps</h2>
        <DataTable caption="Funnel steps" head={["Step", "Count", "Rate"]}>
          {funnel.steps.map((step) => (
            <tr key={step.key}>
              <Cell wrap>{step.label}</Cell>
              <Cell>{number(step.count)}</Cell>
              <Cell wrap>
                {percent(step.conversionPercent)}
                {step.of ? (
                  <span className="ml-1 text-slate-600">
                    of {stepLabels.get(step.of)?.toLowerCase()}
                  </span>
                ) : null}
              </Cell>
            </tr>
          ))}
        </DataTable>

        <h2 className="mt-8 text-xl font-semibold">Sales by offer</h2>
        <p className="mt-1 text-sm text-slate-600">
          The same figures as the Sales page for these days: each offer is its own sale.
        </p>
        {funnel.salesByOffer.length === 0 ? (
          <p className="mt-3 text-sm text-slate-700">No sales in this range yet.</p>
        ) : (
          <SalesGroupTable caption="Sales by offer" first="Offer" groups={funnel.salesByOffer} />
        )}

        <h2 className="mt-8 text-xl font-semibold">Pages</h2>
        <DataTable caption="Views per page" head={["Page", "Views"]}>
          {Object.entries(pageLabels).map(([path, label]) => (
            <tr key={path}>
              <Cell wrap>{label}</Cell>
              <Cell>{number(funnel.pages[path as keyof typeof pageLabels])}</Cell>
            </tr>
          ))}
        </DataTable>

        <h2 className="mt-8 text-xl font-semibold">Per day</h2>
        <DataTable
          caption="Views, sign-ups and purchases per day, newest first"
          head={["Day", "Views", "Sign-ups", "Purchases"]}
        >
          {[...funnel.days].reverse().map((day) => (
            <tr key={day.day}>
              <Cell>{day.day}</Cell>
              <Cell>{number(day.views)}</Cell>
              <Cell>{number(day.signUps)}</Cell>
              <Cell>{number(day.purchases)}</Cell>
            </tr>
          ))}
        </DataTable>
      </div>
    </main>
  );
}
