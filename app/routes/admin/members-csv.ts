import { membersQuerySchema } from "~/lib/admin-forms";
import { csvResponse } from "~/server/admin/csv.server";
import { allMembers } from "~/server/admin/members.server";
import { requireAdmin } from "~/server/auth/guards.server";
import { getDb } from "~/server/db/db.server";
import type { Route } from "./+types/members-csv";

/** /admin/members.csv: what /admin/members shows for the same search and filter, every page. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const query = membersQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  return csvResponse(
    "members.csv",
    ["id", "name", "email", "joined", "access", "paid_with", "two_factor", "last_seen"],
    allMembers(await getDb(), query),
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
