import { requireUser } from "~/server/auth/guards.server";
import { visionDocumentFor } from "~/server/coaching/applications.server";
import { isUuid } from "~/server/courses/read.server";
import { getDb } from "~/server/db/db.server";
import { downloadName, downloadResponse } from "~/server/uploads/download.server";
import { readDocument } from "~/server/uploads/store.server";
import type { Route } from "./+types/coaching-vision";

/** GET /coaching/vision/{purchaseId}: a build's vision document, for its buyer and admins only. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  if (!isUuid(params.purchaseId)) return new Response("Not found", { status: 404 });
  const found = await visionDocumentFor(await getDb(), user, params.purchaseId);
  const document = found ? await readDocument(found.file) : undefined;
  if (!found || !document) return new Response("Not found", { status: 404 });
  return downloadResponse(
    document.bytes,
    document.type,
    downloadName(found.name, found.file, "vision"),
  );
}
