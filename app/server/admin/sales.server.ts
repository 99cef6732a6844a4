// The owner's console, sales: the figures of /admin/sales for a range of UTC
// days and the sales and refunds behind them for /admin/sales.csv. Every
// figure is counted by PostgreSQL (group by, date_trunc) over the purchases
// created in the range (purchase_created_at_idx) and the refunds made in it
// (refund_created_at_idx).
//
// What the figures mean (docs/product.md, Sales):
// - a sale is a purchase created in the range by a paying provider (test,
//   stripe, warriorplus); manual grants (provider manual, amount 0) are not
//   sales: they are counted apart and left out of revenue and refund rate;
// - gross: the amounts of those sales, on the day of each sale;
// - refunds: the amounts refunded in the range, on the day of each refund
//   (a row of `refund`: a partial refund counts what it paid back), whenever
//   its sale was (so a past week's figures stay as they were);
// - net: gross minus refunds;
// - refund rate: of the range's sales, the share refunded since.

import { type SQL, sql } from "drizzle-orm";
import { offerOf } from "~/config/site";
import { dayOf, type SalesRange, type SalesUnit } from "~/lib/admin-forms";
import { type Db, rowsOf } from "../db/client.server";
import { purchase, refund, salesDay, user } from "../db/schema";

export type SalesFigures = {
  currency: string;
  /** Sales made in the range, and what they paid (gross). */
  sales: number;
  grossCents: number;
  /** Refunds made in the range (of sales of any day), and their amounts. */
  refunds: number;
  refundsCents: number;
  /** grossCents - refundsCents. */
  netCents: number;
  /** Of the range's sales, how many were refunded since. */
  refunded: number;
  /** refunded / sales, 0 without sales. */
  refundRate: number;
};

export type SalesGroup = SalesFigures & { key: string };

export type SalesBucket = {
  /** The first UTC day of the day, week (Monday) or month. */
  start: string;
  grossCents: number;
  refundsCents: number;
  netCents: number;
  sales: number;
  refunds: number;
};

export type SalesReport = {
  range: SalesRange;
  /** One line per currency, the one with the most gross first (usually just usd). */
  totals: SalesFigures[];
  /** Manual grants created in the range: access given for nothing. */
  manualGrants: number;
  byProduct: SalesGroup[];
  byProvider: SalesGroup[];
  /** Revenue per day, week or month in `chartCurrency`, every bucket of the range (empty ones too). */
  series: SalesBucket[];
  chartCurrency: string;
};

/** The range's bounds as instants: from the start of `from` to the end of `to` (UTC). */
export function rangeBounds(range: Pick<SalesRange, "from" | "to">): {
  start: string;
  end: string;
} {
  const end = new Date(`${range.to}T00:00:00Z`);
  end.setUTCDate(end.getUTCDate() + 1);
  return { start: `${range.from}T00:00:00Z`, end: end.toISOString() };
}

const inRange = (range: SalesRange, column = sql`created_at`) => {
  const { start, end } = rangeBounds(range);
  return sql`${column} >= ${start}::timestamptz and ${column} < ${end}::timestamptz`;
};

function toFigures(r: Counts): SalesFigures {
  return {
    currency: r.currency,
    sales: r.sales,
    grossCents: r.gross,
    refunds: r.refunds,
    refundsCents: r.refundsCents,
    netCents: r.gross - r.refundsCents,
    refunded: r.refunded,
    refundRate: r.sales > 0 ? r.refunded / r.sales : 0,
  };
}

/** The counts the report adds up, as each row of its query has them. */
const countColumns = ["sales", "refunded", "gross", "refunds", "refundsCents", "manual"] as const;

type Counts = { key: string; currency: string } & Record<(typeof countColumns)[number], number>;

/** A row of the report's query as counts, named by `key`. */
function countsOf(r: Record<string, unknown>, key: string): Counts {
  const counts = { key, currency: String(r.currency) } as Counts;
  for (const column of countColumns) counts[column] = Number(r[column] ?? 0);
  return counts;
}

/**
 * What each row of the report's query adds up (its grouping set), by
 * grouping(start, product, provider): a set's own columns are 0 bits.
 */
const levels = { bucket: 0b011, product: 0b101, provider: 0b110, total: 0b111 } as const;

/** The first day of each bucket from `from` to `to`, as date_trunc gives them. */
export function bucketStarts(range: SalesRange): string[] {
  const start = truncate(new Date(`${range.from}T00:00:00Z`), range.unit);
  const last = new Date(`${range.to}T00:00:00Z`);
  const days: string[] = [];
  for (const at = start; at <= last; step(at, range.unit)) days.push(dayOf(at));
  return days;
}

function truncate(date: Date, unit: SalesUnit): Date {
  const at = new Date(date);
  if (unit === "week") at.setUTCDate(at.getUTCDate() - ((at.getUTCDay() + 6) % 7));
  if (unit === "month") at.setUTCDate(1);
  return at;
}

function step(at: Date, unit: SalesUnit) {
  if (unit === "day") at.setUTCDate(at.getUTCDate() + 1);
  else if (unit === "week") at.setUTCDate(at.getUTCDate() + 7);
  else at.setUTCMonth(at.getUTCMonth() + 1);
}

/**
 * Everything /admin/sales shows for a range: one statement over the range's
 * days of sales_day (the purchases and refunds of each UTC day by product,
 * provider and currency, kept by the database: decision 045), a few rows a
 * day whatever the number of purchases, added up by the database into the
 * totals, the two tables and the chart (grouping sets). Sales are counted on
 * the day of the sale, refunds on the day of the refund; a manual grant is
 * neither a sale nor refunded money, and is counted apart.
 */
export async function salesReport(db: Db, range: SalesRange): Promise<SalesReport> {
  // The four views the page shows (grouping sets): by bucket of the unit, by product, by
  // provider and in all, each per currency. The database adds them up: a few hundred rows
  // come back, not one per day and product and provider (reading rows back costs as much
  // as counting them on the embedded database).
  const rows = await rowsOf(
    db,
    sql`
      select to_char(start, 'YYYY-MM-DD') as start, product, provider, currency,
        grouping(start, product, provider) as level,
        sum(sales) as sales, sum(refunded) as refunded, sum(gross) as gross,
        sum(refunds) as refunds, sum(refunds_cents) as "refundsCents", sum(manual) as manual
      from (
        select date_trunc(${range.unit}, day::timestamp) as start, product, provider, currency,
          case when provider = 'manual' then 0 else purchases end as sales,
          case when provider = 'manual' then 0 else refunded end as refunded,
          case when provider = 'manual' then 0 else gross_cents end as gross,
          case when provider = 'manual' then 0 else refunds end as refunds,
          case when provider = 'manual' then 0 else refunds_cents end as refunds_cents,
          case when provider = 'manual' then purchases else 0 end as manual
        from ${salesDay} where day >= ${range.from}::date and day <= ${range.to}::date
      ) e
      group by grouping sets ((start, currency), (product, currency), (provider, currency), (currency))`,
  );
  const at = (level: number, key: (r: Record<string, unknown>) => string) =>
    rows.filter((r) => Number(r.level) === level).map((r) => countsOf(r, key(r)));
  const totalRows = at(levels.total, () => "");
  const totals = totalRows
    .map(toFigures)
    .sort((a, b) => b.grossCents - a.grossCents || b.sales - a.sales);
  const manualGrants = totalRows.reduce((n, r) => n + r.manual, 0);
  const byKey = (column: "product" | "provider") =>
    at(levels[column], (r) => String(r[column]))
      .map((r) => ({ key: r.key, ...toFigures(r) }))
      .filter((g) => g.sales > 0 || g.refunds > 0)
      .sort(
        (a, b) => b.grossCents - a.grossCents || b.sales - a.sales || a.key.localeCompare(b.key),
      );
  const chartCurrency = totals[0]?.currency ?? "usd";
  const bucketed = new Map(
    at(levels.bucket, (r) => String(r.start))
      .filter((r) => r.currency === chartCurrency)
      .map((r) => [r.key, toFigures(r)]),
  );
  const series = bucketStarts(range).map((start) => {
    const found = bucketed.get(start);
    return {
      start,
      grossCents: found?.grossCents ?? 0,
      refundsCents: found?.refundsCents ?? 0,
      netCents: found?.netCents ?? 0,
      sales: found?.sales ?? 0,
      refunds: found?.refunds ?? 0,
    };
  });
  return {
    range,
    totals: totals.filter((t) => t.sales > 0 || t.refunds > 0),
    manualGrants,
    byProduct: byKey("product"),
    byProvider: byKey("provider"),
    series,
    chartCurrency,
  };
}

/** One line of /admin/sales.csv: a sale, a manual grant, or a refund. */
export type LedgerEntry = {
  entry: "sale" | "grant" | "refund";
  /** When it happened: the sale or grant, or the refund. */
  at: Date;
  purchaseId: string;
  orderNumber: string;
  /** When the purchase was made (a refund's sale day). */
  soldAt: Date;
  email: string;
  provider: string;
  /** The payment's reference at its provider; for a refund made from the console, the refund's own. */
  providerRef: string;
  product: string;
  /** Which offer of the funnel (offerOf). */
  offer: string;
  /** A sale's coupon, taken at our checkout; null otherwise. */
  coupon: string | null;
  /** What the provider kept of a sale's payment, where it says (Stripe's fee); null otherwise. */
  feeCents: number | null;
  /** What came in; a refund is negative. */
  amountCents: number;
  currency: string;
  /** The purchase's status today. */
  status: string;
};

/**
 * Every money movement of the range, oldest first, in batches for the CSV
 * download: each purchase made in it (a sale; a manual grant, at $0) and each
 * refund made in it, whenever its sale was. Keyset pagination on (at, a sale
 * before a refund of the same instant, id). Its
 * lines add up to the report's figures: gross from the sales, refunds from the
 * refunds, on the same days. Batches of 250: a member's request waits for one
 * at most (csvResponse reads others' requests between them).
 */
export async function* salesLedger(
  db: Db,
  range: SalesRange,
  batch = 250,
): AsyncGenerator<LedgerEntry[]> {
  // The cursor is the time as PostgreSQL wrote it: a Date would lose the microseconds.
  let after: { at: string; rank: number; id: string } | undefined;
  // Each side starts after the cursor on its own index (created_at), so a
  // batch reads about `batch` rows of each, not the range again: a long range
  // never holds the database for long, which the embedded one serves one
  // query at a time.
  const past = (at: SQL, rank: number, id: SQL) =>
    after
      ? sql` and ${at} >= ${after.at}::timestamptz
          and (${at}, ${rank}, ${id}) > (${after.at}::timestamptz, ${after.rank}, ${after.id}::uuid)`
      : sql``;
  for (;;) {
    const rows = await rowsOf(
      db,
      sql`
        select e.*, e.at::text as cursor_at, coalesce(e.own_ref, p.provider_ref) as ref, p.order_number, p.created_at as sold_at, u.email,
          p.provider, p.product, p.currency, p.status,
          case when e.rank = 0 then p.coupon_code end as coupon,
          case when e.rank = 0 then p.fee_cents end as fee
        from (
          (select p.created_at as at, 0 as rank, p.id as key, p.id as purchase_id,
            case when p.provider = 'manual' then 'grant' else 'sale' end as entry,
            p.provider_ref as own_ref, p.amount_cents as amount
          from ${purchase} p where ${inRange(range, sql`p.created_at`)}${past(sql`p.created_at`, 0, sql`p.id`)}
          order by p.created_at, p.id limit ${batch})
          union all
          (select r.created_at, 1, r.id, r.purchase_id, 'refund', r.provider_ref, -r.amount_cents
          from ${refund} r where ${inRange(range, sql`r.created_at`)}${past(sql`r.created_at`, 1, sql`r.id`)}
          order by r.created_at, r.id limit ${batch})
        ) e
        join ${purchase} p on p.id = e.purchase_id
        join ${user} u on u.id = p.user_id
        order by e.at, e.rank, e.key
        limit ${batch}`,
    );
    const last = rows[rows.length - 1];
    if (!last) return;
    yield rows.map((r) => ({
      entry: r.entry as LedgerEntry["entry"],
      at: new Date(r.at as string),
      purchaseId: String(r.purchase_id),
      orderNumber: String(r.order_number),
      soldAt: new Date(r.sold_at as string),
      email: String(r.email),
      provider: String(r.provider),
      providerRef: String(r.ref ?? ""),
      product: String(r.product),
      offer: offerOf(String(r.product)),
      coupon: r.coupon === null ? null : String(r.coupon),
      feeCents: r.fee === null ? null : Number(r.fee),
      amountCents: Number(r.amount),
      currency: String(r.currency),
      status: String(r.status),
    }));
    if (rows.length < batch) return;
    after = { at: String(last.cursor_at), rank: Number(last.rank), id: String(last.key) };
  }
}
