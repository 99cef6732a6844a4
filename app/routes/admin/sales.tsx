import { Form, useNavigation } from "react-router";
import {
  Cell,
  ConsoleHeading,
  DataTable,
  DateRangeFields,
  EmptyState,
  Figure,
  formatAmount,
  SelectField,
  secondaryButton,
} from "~/components/admin/console";
import { BarChart } from "~/components/admin/revenue-chart";
import { percent, SalesGroupTable } from "~/components/admin/sales-groups";
import { type SalesUnit, salesQuerySchema, salesRange, salesUnits } from "~/lib/admin-forms";
import { consoleLoader } from "~/server/admin/console.server";
import { salesReport } from "~/server/admin/sales.server";
import type { Route } from "./+types/sales";

export const loader = consoleLoader(salesQuerySchema, (db, query) =>
  salesReport(db, salesRange(query)),
);

const unitLabels: Record<SalesUnit, string> = { day: "Day", week: "Week", month: "Month" };

// Built once, not per bar and row: a year by day is hundreds of dates.
const monthFormat = new Intl.DateTimeFormat("en-GB", {
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});
const dayFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});

const countFormat = new Intl.NumberFormat("en-US");

function formatDay(day: string, unit: SalesUnit): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (unit === "month") return monthFormat.format(date);
  const text = dayFormat.format(date);
  return unit === "week" ? `Week of ${text}` : text;
}

export default function Sales({ loaderData }: Route.ComponentProps) {
  const { range, totals, manualGrants, byProduct, byProvider, series, chartCurrency } = loaderData;
  const loading = useNavigation().state === "loading";
  const main = totals[0];
  const others = totals.slice(1);
  const csv = `/admin/sales.csv?${new URLSearchParams({ from: range.from, to: range.to })}`;
  const unitName = range.unit === "day" ? "day" : range.unit === "week" ? "week" : "month";
  const chartTotal = series.reduce((sum, b) => sum + b.netCents, 0);
  return (
    <main aria-busy={loading}>
      <ConsoleHeading title="Sales" csv={csv}>
        {formatDay(range.from, "day")} to {formatDay(range.to, "day")} (UTC days, both included).
      </ConsoleHeading>
      <Form method="get" className="mt-6 flex flex-wrap items-end gap-3" aria-label="Date range">
        <DateRangeFields id="sales" range={range} required />
        <SelectField
          id="sales-unit"
          label="Revenue per"
          name="unit"
          value={range.unit}
          options={salesUnits.map((unit) => ({ value: unit, label: unitLabels[unit] }))}
        />
        <button type="submit" className={secondaryButton} disabled={loading}>
          {loading ? "Loading…" : "Show"}
        </button>
      </Form>
      <p className="mt-4 max-w-3xl text-sm text-slate-600">
        A sale is a purchase made in the range (test checkout, Stripe or WarriorPlus). Gross is what
        they paid, on the day of each sale; refunds are what was refunded in the range, on the day
        of each refund, whenever the sale was; net is gross minus refunds; the refund rate is the
        share of the range's sales refunded since. Access granted by hand is not a sale: it is
        counted apart.
      </p>

      {main ? (
        <>
          <dl className="mt-6 grid grid-cols-2 gap-3 md:grid-cols-3 lg:grid-cols-6">
            <Figure
              label="Gross"
              value={formatAmount(main.grossCents, main.currency)}
              testId="sales-gross"
            />
            <Figure
              label="Refunds"
              value={formatAmount(main.refundsCents, main.currency)}
              testId="sales-refunds"
            />
            <Figure
              label="Net"
              value={formatAmount(main.netCents, main.currency)}
              testId="sales-net"
            />
            <Figure label="Sales" value={main.sales.toLocaleString("en-US")} testId="sales-count" />
            <Figure
              label="Refund rate"
              value={percent(main.refundRate)}
              testId="sales-refund-rate"
            />
            <Figure
              label="Granted by hand"
              value={manualGrants.toLocaleString("en-US")}
              testId="sales-manual"
            />
          </dl>
          {others.length > 0 ? (
            <SalesGroupTable
              caption="Sales in other currencies"
              first="Currency"
              groups={others.map((t) => ({ ...t, key: t.currency.toUpperCase() }))}
            />
          ) : null}

          {[
            { id: "sales-products", by: "Product", groups: byProduct },
            { id: "sales-providers", by: "Provider", groups: byProvider },
          ].map(({ id, by, groups }) => (
            <section key={id} aria-labelledby={id} className="mt-10">
              <h2 id={id} className="text-xl font-semibold">
                By {by.toLowerCase()}
              </h2>
              <SalesGroupTable
                caption={`Sales by ${by.toLowerCase()}`}
                first={by}
                groups={groups}
              />
            </section>
          ))}
          <section aria-labelledby="sales-revenue" className="mt-10">
            <h2 id="sales-revenue" className="text-xl font-semibold">
              Net revenue per {unitName} ({chartCurrency.toUpperCase()})
            </h2>
            <div className="mt-4 rounded-lg border border-slate-200 bg-white p-4">
              <BarChart
                label={`Net revenue per ${unitName}, ${formatDay(range.from, "day")} to ${formatDay(range.to, "day")}: ${formatAmount(chartTotal, chartCurrency)} in ${series.length} ${unitName}${series.length === 1 ? "" : "s"}, highest ${formatAmount(Math.max(0, ...series.map((b) => b.netCents)), chartCurrency)}. The table below has every figure.`}
                bars={series.map((b) => ({
                  label: b.start,
                  value: b.netCents,
                  title: `${formatDay(b.start, range.unit)}: ${formatAmount(b.netCents, chartCurrency)}`,
                }))}
              />
            </div>
            <DataTable
              caption={`Revenue per ${unitName}`}
              head={[unitLabels[range.unit], "Sales", "Gross", "Refunds", "Net"]}
            >
              {series.map((b) => (
                <tr key={b.start}>
                  <Cell>{formatDay(b.start, range.unit)}</Cell>
                  <Cell>{countFormat.format(b.sales)}</Cell>
                  <Cell>{formatAmount(b.grossCents, chartCurrency)}</Cell>
                  <Cell>{formatAmount(b.refundsCents, chartCurrency)}</Cell>
                  <Cell>{formatAmount(b.netCents, chartCurrency)}</Cell>
                </tr>
              ))}
            </DataTable>
          </section>
        </>
      ) : (
        <EmptyState>
          No sales in this range.
          {manualGrants > 0
            ? ` ${manualGrants.toLocaleString("en-US")} access grant${manualGrants === 1 ? "" : "s"} by hand.`
            : ""}
        </EmptyState>
      )}
    </main>
  );
}
