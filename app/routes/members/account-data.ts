import { accountData } from "~/server/account/account-data.server";
import { requireUser } from "~/server/auth/guards.server";
import { getDb } from "~/server/db/db.server";
import type { Route } from "./+types/account-data";

/** GET /account/data: "Download my data", the signed-in account's data as one JSON file. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const found = await accountData(await getDb(), user.id);
  if (!found) throw new Response("Not found", { status: 404 });
  return new Response(JSON.stringify(found, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": 'attachment; filename="ai-labs-account-data.json"',
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
