import { requireMember } from "~/server/auth/guards.server";
import { readImage } from "~/server/uploads/store.server";
import type { Route } from "./+types/upload-file";

/** GET /uploads/{name}: an image uploaded for a chapter, for members (and admins). */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireMember(request);
  const image = await readImage(params.name);
  if (!image) return new Response("Not found", { status: 404 });
  return new Response(image.bytes, {
    headers: {
      "Content-Type": image.type,
      "Content-Length": String(image.bytes.byteLength),
      "Cache-Control": "private, max-age=3600",
      "Content-Security-Policy": "default-src 'none'",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
