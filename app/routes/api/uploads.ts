import { data } from "react-router";
import { adminNeedsTwoFactor, getSessionUser } from "~/server/auth/guards.server";
import { formRefusal } from "~/server/forms.server";
import { postOnly } from "~/server/http/post-only.server";
import { maxUploadBytes, saveImage, UploadError } from "~/server/uploads/store.server";
import type { Route } from "./+types/uploads";

export const loader = postOnly;

/** A refused upload, in the answer every refused form has (its formError says why). */
const refuse = (status: number, formError: string) => formRefusal(status, { formError });

/** POST multipart `file`: an image for a chapter. Admins only; answers { url } or a refusal. */
export async function action({ request }: Route.ActionArgs) {
  const user = await getSessionUser(request);
  if (!user) return refuse(401, "No active session");
  if (!user.isAdmin) return refuse(403, "Only admins can upload images.");
  if (adminNeedsTwoFactor(user)) {
    return refuse(403, "Turn on two-factor authentication on your account page first.");
  }
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > maxUploadBytes + 64 * 1024) return refuse(413, "Images can be at most 5 MB.");
  let file: FormDataEntryValue | null;
  try {
    file = (await request.formData()).get("file");
  } catch {
    return refuse(400, "Send the image as multipart form data in a field named file.");
  }
  if (!(file instanceof File)) return refuse(400, "No file was sent.");
  try {
    const saved = await saveImage(new Uint8Array(await file.arrayBuffer()));
    return data({ url: saved.url }, 201);
  } catch (error) {
    if (error instanceof UploadError) return refuse(error.status, error.message);
    throw error;
  }
}
