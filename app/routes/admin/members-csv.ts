import { membersQuerySchema } from "~/lib/admin-forms";
import { consoleRequest } from "~/server/admin/console.server";
import { csvResponse } from "~/server/admin/csv.server";
import { allMembers } from "~/server/admin/members.server";
import type { Route } from "./+types/members-csv";

/** /admin/members.csv: every account /admin/members shows for the same search and filters, newest first. */
export async function loader({ request }: Route.LoaderArgs) {
  const { query, db } = await consoleRequest(request, membersQuerySchema);
  return csvResponse(
    "members.csv",
    [
      "id",
      "name",
      "email",
      "joined",
      "access",
      "products",
      "paid_with",
      "spend_cents",
      "chapters_done",
      "chapters",
      "progress_percent",
      "two_factor",
      "last_active",
    ],
    allMembers(db, query),
    (m) => [
      m.id,
      m.name,
      m.email,
      m.createdAt,
      m.access,
      m.products.join(" "),
      m.paidVia,
      m.spendCents,
      m.chaptersDone,
      m.chapters,
      m.chapters > 0 ? Math.round((100 * m.chaptersDone) / m.chapters) : 0,
      m.twoFactorEnabled,
      m.lastActiveAt,
    ],
  );
}
