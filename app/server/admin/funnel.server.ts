// The owner's console, funnel: views of the funnel's pages (counted in the
// HTTP shell for visitors who accepted analytical cookies, app/server/analytics),
// sign-ups and purchases of the plan, per day and for a date range, and the
// free-to-paid rate beside the one the sales page claims. All days are UTC.
// A grant by the seller (provider manual, $0) is neither a purchase nor paying:
// it is counted as a grant, as the sales page counts it (sales.server.ts).

import { sql } from "drizzle-orm";
import { accessProduct, funnelProductKeys, orderBump } from "~/config/site";
import { type FunnelPagePath, funnelPagePaths } from "~/route-policies";
import { type Db, rowsOf } from "../db/client.server";
import { pageView, purchase, salesDay, user } from "../db/schema";

/** The free-to-paid conversion the sales pages claim ("The 23% conversion playbook", app/content/sales.ts). */
export const claimedFreeToPaidPercent = 23;
/** The default range: the last 30 days, today included. */
export const defaultRangeDays = 30;
/** The longest range shown (one row per day). */
export const maxRangeDays = 366;

export type DayRange = { from: string; to: string };

const dayMs = 24 * 60 * 60 * 1000;
const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * dayMs).toISOString().slice(0, 10);

/**
 * The range to show for the query's ends (YYYY-MM-DD or null): the last 30
 * days up to `today` by default, ends swapped when reversed, at most 366 days
 * (counted back from `to`).
 */
export function funnelRange(
  query: { from: string | null; to: string | null },
  today: string,
): DayRange {
  let to = query.to ?? (query.from && query.from > today ? query.from : today);
  let from = query.from ?? addDays(to, -(defaultRangeDays - 1));
  if (from > to) [from, to] = [to, from];
  if (addDays(from, maxRangeDays - 1) < to) from = addDays(to, -(maxRangeDays - 1));
  return { from, to };
}

export type FunnelDay = { day: string; views: number; signUps: number; purchases: number };
export const percentOf = (part: number, whole: number): number | null =>
  whole > 0 ? (part / whole) * 100 : null;

/** The funnel for a range of UTC days, both ends included: three indexed queries. */
export async function readFunnel(db: Db, range: DayRange) {
  const start = `${range.from}T00:00:00Z`;
  const end = `${addDays(range.to, 1)}T00:00:00Z`;
  const utcDate = (column: ReturnType<typeof sql>) => sql`(${column} at time zone 'UTC')::date`;
  const paths = sql.join(
    funnelPagePaths.map((p) => sql`${p}`),
    sql`, `,
  );
  // Sequential: PGlite has one connection, and on PostgreSQL each is a few milliseconds.
  const views = await rowsOf<{ day: string; path: string; views: number }>(
    db,
    sql`select day::text as day, path, views from ${pageView}
      where day between ${range.from}::date and ${range.to}::date and path in (${paths})`,
  );
  const signUps = await rowsOf<{ day: string; sign_ups: number; paying: number }>(
    db,
    sql`select ${utcDate(sql`u.created_at`)}::text as day, count(*)::int as sign_ups,
        count(*) filter (where exists (
          select 1 from ${purchase} p
          where p.user_id = u.id and p.status = 'completed' and p.product = ${accessProduct}
            and p.provider <> 'manual'
        ))::int as paying
      from ${user} u
      where u.created_at >= ${start}::timestamptz and u.created_at < ${end}::timestamptz
      group by 1`,
  );
  // The plan and the add-ons sold with it (the bump, the upsells), per day and product,
  // not refunded since: the sales report's days (sales_day, decision 045), so the funnel's
  // purchases and the sales figures come from the same rows.
  const purchases = await rowsOf<{
    day: string;
    product: string;
    purchases: number;
    grants: number;
  }>(
    db,
    sql`select day::text as day, product,
        coalesce(sum(purchases - refunded) filter (where provider <> 'manual'), 0)::int as purchases,
        coalesce(sum(purchases - refunded) filter (where provider = 'manual'), 0)::int as grants
      from ${salesDay}
      where day between ${range.from}::date and ${range.to}::date and product in (${sql.join(
        funnelProductKeys.map((p) => sql`${p}`),
        sql`, `,
      )})
      group by 1, 2`,
  );

  const pages = Object.fromEntries(funnelPagePaths.map((p) => [p, 0])) as Record<
    FunnelPagePath,
    number
  >;
  const byDay = new Map<string, FunnelDay>();
  for (let day = range.from; day <= range.to; day = addDays(day, 1)) {
    byDay.set(day, { day, views: 0, signUps: 0, purchases: 0 });
  }
  for (const row of views) {
    pages[row.path as FunnelPagePath] += Number(row.views);
    const day = byDay.get(row.day);
    if (day) day.views += Number(row.views);
  }
  let signUpTotal = 0;
  let payingSignUps = 0;
  for (const row of signUps) {
    signUpTotal += Number(row.sign_ups);
    payingSignUps += Number(row.paying);
    const day = byDay.get(row.day);
    if (day) day.signUps += Number(row.sign_ups);
  }
  let purchaseTotal = 0;
  let grantTotal = 0;
  const addOns = { [orderBump]: 0, "white-label": 0, "custom-saas": 0 } as Record<string, number>;
  for (const row of purchases) {
    if (row.product !== accessProduct) {
      addOns[row.product] = (addOns[row.product] ?? 0) + Number(row.purchases);
      continue;
    }
    purchaseTotal += Number(row.purchases);
    grantTotal += Number(row.grants);
    const day = byDay.get(row.day);
    if (day) day.purchases += Number(row.purchases);
  }

  // Each step's rate is of the step before it; an add-on's (the bump, the upsells) is of
  // the plan's purchases: how many orders took it (a take rate).
  const counts: [key: string, label: string, count: number, of?: "purchases"][] = [
    ["landing", "Landing page views", pages["/"]],
    ["sales", "Sales page views", pages["/ailabs-offer"] + pages["/ailabs-offer2"]],
    ["sign-ups", "Sign-ups", signUpTotal],
    ["plan", "Plan page views", pages["/payment-options"]],
    ["checkout", "Checkouts started", pages["/checkout"]],
    ["purchases", "Purchases", purchaseTotal],
    ["bump", "Order bump taken (VIP Upgrade)", addOns[orderBump] ?? 0, "purchases"],
    ["upsell-1", "Upsell 1 taken (White Label)", addOns["white-label"] ?? 0, "purchases"],
    ["upsell-2", "Upsell 2 bought (Custom SaaS)", addOns["custom-saas"] ?? 0, "purchases"],
    ["success", "Success page views", pages["/success"], "purchases"],
    ["upsells", "Upsell page views", pages["/white-label-upsell"] + pages["/custom-saas-upsell"]],
  ];
  const steps = counts.map(([key, label, count, of], i) => ({
    key,
    label,
    count,
    /** The step its rate is of: the one before it, or the plan's purchases. */
    of: of ?? (i === 0 ? null : (counts[i - 1]?.[0] ?? null)),
    /** This step's count as a share of that step's, in percent; null for the first or after 0. */
    conversionPercent:
      i === 0 ? null : percentOf(count, of ? purchaseTotal : (counts[i - 1]?.[2] ?? 0)),
  }));

  return {
    range,
    /** Views per funnel page over the range. */
    pages,
    /** Views of the landing and sales pages: where visitors enter the funnel. */
    visits: pages["/"] + pages["/ailabs-offer"] + pages["/ailabs-offer2"],
    signUps: signUpTotal,
    /** Of the accounts created in the range, those holding a completed purchase of the plan (not a grant). */
    payingSignUps,
    /** Completed purchases of the plan made in the range (grants by the seller are not). */
    purchases: purchaseTotal,
    /** Lifetime Access granted by the seller in the range, still in force: not purchases. */
    grants: grantTotal,
    /** payingSignUps / signUps in percent; null without sign-ups. */
    freeToPaidPercent: percentOf(payingSignUps, signUpTotal),
    steps,
    days: [...byDay.values()],
  };
}
