import { salesQuerySchema, salesRange } from "~/lib/admin-forms";
import { consoleRequest } from "~/server/admin/console.server";
import { csvResponse } from "~/server/admin/csv.server";
import { allSales } from "~/server/admin/sales.server";
import type { Route } from "./+types/sales-csv";

/**
 * /admin/sales.csv: the purchases behind /admin/sales for the same range (made or
 * refunded in it), manual grants too.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { query, db } = await consoleRequest(request, salesQuerySchema);
  const range = salesRange(query);
  return csvResponse(
    `sales-${range.from}-to-${range.to}.csv`,
    [
      "id",
      "created",
      "email",
      "provider",
      "product",
      "amount_cents",
      "currency",
      "status",
      "refunded_at",
    ],
    allSales(db, range),
    (p) => [
      p.id,
      p.createdAt,
      p.email,
      p.provider,
      p.product,
      p.amountCents,
      p.currency,
      p.status,
      p.refundedAt,
    ],
  );
}
