import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { redirect } from "react-router";
import { productOfferPaths } from "~/config/site";
import { holdsProduct } from "~/server/access.server";
import { requireUser } from "~/server/auth/guards.server";
import { getDb } from "~/server/db/db.server";
import type { Route } from "./+types/white-label-download";

/** The package's downloads: scripts/build-white-label.ts writes them into build/white-label. */
const filePattern = /^[a-z]+(?:-[a-z]+)*\.zip$/;

/**
 * GET /white-label/download/{file}: a tool's starter or the marketing pack, to
 * holders of the 12-in-1 White Label Package and admins; others are sent to its offer.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  if (!(await holdsProduct(await getDb(), user, "white-label"))) {
    throw redirect(productOfferPaths["white-label"] ?? "/dashboard");
  }
  const location = path.resolve("build", "white-label", params.file);
  if (!filePattern.test(params.file) || !existsSync(location)) {
    return new Response("Not found", { status: 404 });
  }
  const bytes = await readFile(location);
  return new Response(bytes, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Length": String(bytes.byteLength),
      "Content-Disposition": `attachment; filename="${params.file}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
