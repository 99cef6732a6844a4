import { salesRange } from "~/lib/admin-forms";
import { csvResponse } from "~/server/admin/csv.server";
import { allSales } from "~/server/admin/sales.server";
import { requireAdmin } from "~/server/auth/guards.server";
import { getDb } from "~/server/db/db.server";
import type { Route } from "./+types/sales-csv";

/** /admin/sales.csv: the purchases behind /admin/sales for the same range, manual grants too. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const range = salesRange(new URL(request.url).searchParams);
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
    allSales(await getDb(), range),
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
