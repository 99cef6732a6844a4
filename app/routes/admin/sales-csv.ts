import { salesQuerySchema, salesRange } from "~/lib/admin-forms";
import { consoleRequest } from "~/server/admin/console.server";
import { csvResponse } from "~/server/admin/csv.server";
import { salesLedger } from "~/server/admin/sales.server";
import type { Route } from "./+types/sales-csv";

/**
 * /admin/sales.csv: the money movements behind /admin/sales for the same range,
 * a line each: the sales made in it (manual grants too, at $0) and the refunds
 * made in it, with what a payout is reconciled by (the provider's reference,
 * the order number, the offer, the coupon, Stripe's fee).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { query, db } = await consoleRequest(request, salesQuerySchema);
  const range = salesRange(query);
  return csvResponse(
    `sales-${range.from}-to-${range.to}.csv`,
    [
      "entry",
      "date",
      "order_number",
      "purchase_id",
      "sold",
      "email",
      "provider",
      "provider_ref",
      "product",
      "offer",
      "coupon",
      "amount_cents",
      "fee_cents",
      "currency",
      "status",
    ],
    salesLedger(db, range),
    (e) => [
      e.entry,
      e.at,
      e.orderNumber,
      e.purchaseId,
      e.soldAt,
      e.email,
      e.provider,
      e.providerRef,
      e.product,
      e.offer,
      e.coupon,
      e.amountCents,
      e.feeCents,
      e.currency,
      e.status,
    ],
  );
}
