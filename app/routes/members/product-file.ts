import { redirect } from "react-router";
import { productOfferPaths } from "~/config/site";
import { productFileFor } from "~/server/admin/products.server";
import { requireUser } from "~/server/auth/guards.server";
import { isUuid } from "~/server/courses/read.server";
import { getDb } from "~/server/db/db.server";
import { downloadName, downloadResponse } from "~/server/uploads/download.server";
import { readProductFile } from "~/server/uploads/store.server";
import type { Route } from "./+types/product-file";

/**
 * GET /files/{id}: a file a product opens (/admin/products), to holders of the
 * product and admins; others are sent to the product's offer.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  if (!isUuid(params.fileId)) return new Response("Not found", { status: 404 });
  const found = await productFileFor(await getDb(), user, params.fileId);
  if (!found) return new Response("Not found", { status: 404 });
  if (!found.opens) throw redirect(productOfferPaths[found.product] ?? "/dashboard");
  const stored = await readProductFile(found.storedName);
  if (!stored) return new Response("Not found", { status: 404 });
  return downloadResponse(
    stored.bytes,
    stored.type,
    downloadName(found.name, found.storedName, "file"),
  );
}
