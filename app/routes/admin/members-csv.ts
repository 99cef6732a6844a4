import { membersQuerySchema } from "~/lib/admin-forms";
import { consoleRequest } from "~/server/admin/console.server";
import { csvResponse } from "~/server/admin/csv.server";
import { allMembers } from "~/server/admin/members.server";
import type { Route } from "./+types/members-csv";

/** /admin/members.csv: what /admin/members shows for the same search and filter, every page. */
export async function loader({ request }: Route.LoaderArgs) {
  const { query, db } = await consoleRequest(request, membersQuerySchema);
  return csvResponse(
    "members.csv",
    ["id", "name", "email", "joined", "access", "paid_with", "two_factor", "last_seen"],
    allMembers(db, query),
    (m) => [
      m.id,
      m.name,
      m.email,
      m.createdAt,
      m.access,
      m.paidVia,
      m.twoFactorEnabled,
      m.lastSeenAt,
    ],
  );
}
