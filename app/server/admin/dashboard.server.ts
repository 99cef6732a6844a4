// The owner's console, its home (/admin): a launch at a glance for a range of
// UTC days. Every money figure is the sales report's (sales.server.ts) and
// every funnel figure the funnel's (funnel.server.ts) for the same days, so
// the dashboard, /admin/sales, /admin/funnel and the sales CSV agree; what
// stands today (members with access, unmatched payments, failing e-mail) is
// one statement of counts.

import { sql } from "drizzle-orm";
import { orderBump, upsellProducts } from "~/config/site";
import type { DashboardQuery } from "~/lib/admin-forms";
import { launchInstant, type OfferSettings } from "~/lib/offer";
import { planHoldersSql } from "../access.server";
import { type Db, rowsOf } from "../db/client.server";
import { emailOutbox, paymentIssue, user } from "../db/schema";
import { claimedFreeToPaidPercent, type DayRange, readFunnel } from "./funnel.server";
import { salesReport } from "./sales.server";

export const dashboardPeriods = ["today", "week", "launch", "month", "range"] as const;
export type DashboardPeriod = (typeof dashboardPeriods)[number];

export type DashboardRange = DayRange & { period: DashboardPeriod; label: string };

const dayMs = 24 * 60 * 60 * 1000;
const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * dayMs).toISOString().slice(0, 10);

/** The longest chosen range, in days: as the funnel's. */
const maxDays = 366;

/**
 * The days the query asks for: today (the default), the last 7 days, the
 * launch week (the launch's UTC day and the six after it, from the offer
 * settings), this month, or a chosen range (both ends, at most a year; a
 * missing or reversed end falls back on today).
 */
export function dashboardRange(
  query: DashboardQuery,
  today: string,
  offer: Pick<OfferSettings, "launchAt" | "launchTimeZone">,
): DashboardRange {
  switch (query.period) {
    case "week":
      return { period: "week", label: "Last 7 days", from: addDays(today, -6), to: today };
    case "launch": {
      const from = launchInstant(offer.launchAt, offer.launchTimeZone).slice(0, 10);
      return { period: "launch", label: "Launch week", from, to: addDays(from, 6) };
    }
    case "month":
      return { period: "month", label: "This month", from: `${today.slice(0, 8)}01`, to: today };
    case "range": {
      let from = query.from ?? today;
      let to = query.to ?? today;
      if (from > to) [from, to] = [to, from];
      if (addDays(from, maxDays - 1) < to) from = addDays(to, -(maxDays - 1));
      return { period: "range", label: `${from} to ${to}`, from, to };
    }
    default:
      return { period: "today", label: "Today", from: today, to: today };
  }
}

export type Dashboard = Awaited<ReturnType<typeof readDashboard>>;

/** Everything the dashboard shows for `range`. */
export async function readDashboard(db: Db, range: DashboardRange) {
  // Sequential: on the embedded database statements run one after another anyway.
  const sales = await salesReport(db, { from: range.from, to: range.to, unit: "day" });
  const funnel = await readFunnel(db, range);
  const [standing] = await rowsOf<{ members: number; unmatched: number; failing: number }>(
    db,
    sql`select
      -- The access rule's holders of the plan as one set: the holdings the database
      -- keeps (member_holding), not every purchase tested again.
      (select count(*) from ${user} u where u.is_admin or u.id in ${planHoldersSql()})::int
        as members,
      (select count(*) from ${paymentIssue} where resolved_at is null)::int as unmatched,
      (select count(*) from ${emailOutbox} where sent_at is null and attempts > 0)::int as failing`,
  );
  const money = sales.totals.find((t) => t.currency === sales.chartCurrency) ?? null;
  const takeRate = (key: string) => {
    const step = funnel.steps.find((s) => s.key === key);
    return step ? { count: step.count, percent: step.conversionPercent } : null;
  };
  return {
    range,
    currency: sales.chartCurrency,
    grossCents: money?.grossCents ?? 0,
    refundsCents: money?.refundsCents ?? 0,
    netCents: money?.netCents ?? 0,
    sales: money?.sales ?? 0,
    refunds: money?.refunds ?? 0,
    /** Other currencies' totals, shown apart (never added to dollars). */
    otherCurrencies: sales.totals.filter((t) => t.currency !== sales.chartCurrency),
    byProduct: sales.byProduct,
    manualGrants: sales.manualGrants,
    signUps: funnel.signUps,
    payingSignUps: funnel.payingSignUps,
    freeToPaidPercent: funnel.freeToPaidPercent,
    claimedFreeToPaidPercent,
    planPurchases: funnel.purchases,
    /** The bump's and the upsells' take rates: of the plan's purchases in the range. */
    takeRates: [
      { product: orderBump, label: "Order bump", ...takeRate("bump") },
      { product: upsellProducts[0], label: "Upsell 1", ...takeRate("upsell-1") },
      { product: upsellProducts[1], label: "Upsell 2", ...takeRate("upsell-2") },
    ].filter((t) => funnel.purchases > 0 || (t.count ?? 0) > 0),
    membersWithAccess: standing?.members ?? 0,
    unmatchedPayments: standing?.unmatched ?? 0,
    failingEmails: standing?.failing ?? 0,
  };
}
