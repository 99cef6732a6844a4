import { data } from "react-router";
import { adminNeedsTwoFactor, getSessionUser } from "~/server/auth/guards.server";
import { postOnly } from "~/server/http/post-only.server";
import { maxUploadBytes, saveImage, UploadError } from "~/server/uploads/store.server";
import type { Route } from "./+types/uploads";

export const loader = postOnly;

/** POST multipart `file`: an image for a chapter. Admins only; answers { url } or { error }. */
export async function action({ request }: Route.ActionArgs) {
  const user = await getSessionUser(request);
  if (!user) return data({ error: "No active session" }, 401);
  if (!user.isAdmin) return data({ error: "Only admins can upload images." }, 403);
  if (adminNeedsTwoFactor(user)) {
    return data({ error: "Turn on two-factor authentication on your account page first." }, 403);
  }
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > maxUploadBytes + 64 * 1024)
    return data({ error: "Images can be at most 5 MB." }, 413);
  let file: FormDataEntryValue | null;
  try {
    file = (await request.formData()).get("file");
  } catch {
    return data({ error: "Send the image as multipart form data in a field named file." }, 400);
  }
  if (!(file instanceof File)) return data({ error: "No file was sent." }, 400);
  try {
    const saved = await saveImage(new Uint8Array(await file.arrayBuffer()));
    return data({ url: saved.url }, 201);
  } catch (error) {
    if (error instanceof UploadError) return data({ error: error.message }, error.status);
    throw error;
  }
}
