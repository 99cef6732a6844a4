import { requireUser } from "~/server/auth/guards.server";
import { visionDocumentFor } from "~/server/coaching/applications.server";
import { isUuid } from "~/server/courses/read.server";
import { getDb } from "~/server/db/db.server";
import { readDocument } from "~/server/uploads/store.server";
import type { Route } from "./+types/coaching-vision";

/** GET /coaching/vision/{purchaseId}: a build's vision document, for its buyer and admins only. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  if (!isUuid(params.purchaseId)) return new Response("Not found", { status: 404 });
  const found = await visionDocumentFor(await getDb(), user, params.purchaseId);
  const document = found ? await readDocument(found.file) : undefined;
  if (!found || !document) return new Response("Not found", { status: 404 });
  // The name the buyer gave it, reduced to safe characters for the header.
  const ext = found.file.slice(found.file.lastIndexOf("."));
  const base =
    found.name
      .replace(/\.[^.]*$/, "")
      .replace(/[^A-Za-z0-9 _-]/g, "")
      .trim() || "vision";
  return new Response(document.bytes, {
    headers: {
      "Content-Type": document.type,
      "Content-Length": String(document.bytes.byteLength),
      "Content-Disposition": `attachment; filename="${base.slice(0, 80)}${ext}"`,
      "Cache-Control": "private, no-store",
      "Content-Security-Policy": "default-src 'none'",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
