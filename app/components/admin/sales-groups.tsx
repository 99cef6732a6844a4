import type { SalesGroup } from "~/server/admin/sales.server";
import { Cell, DataTable, formatAmount } from "./console";

/** A rate (0 to 1) as a percentage with one decimal. */
export const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

/**
 * Sales grouped by one key (a product, a provider): count, gross, refunds, net
 * and refund rate per group, as the sales report gives them (/admin/sales, and
 * the sales by offer on /admin/funnel: one source for both).
 */
export function SalesGroupTable({
  caption,
  first,
  groups,
}: {
  caption: string;
  first: string;
  groups: SalesGroup[];
}) {
  return (
    <DataTable caption={caption} head={[first, "Sales", "Gross", "Refunds", "Net", "Refund rate"]}>
      {groups.map((g) => (
        <tr key={`${g.key} ${g.currency}`}>
          <Cell>{g.key}</Cell>
          <Cell>{g.sales.toLocaleString("en-US")}</Cell>
          <Cell>{formatAmount(g.grossCents, g.currency)}</Cell>
          <Cell>{formatAmount(g.refundsCents, g.currency)}</Cell>
          <Cell>{formatAmount(g.netCents, g.currency)}</Cell>
          <Cell>{percent(g.refundRate)}</Cell>
        </tr>
      ))}
    </DataTable>
  );
}
