// Uploading an image from the admin panel (chapter images, course covers): the
// same route and limits for both (app/routes/api/uploads.ts).

export const imageTypes = "image/png, image/gif, image/jpeg, image/bmp, image/x-icon";
export const maxImageBytes = 5 * 1024 * 1024;

/** Uploads one image; its /uploads/ address, or throws an Error with a message for the admin. */
export async function uploadImage(file: File): Promise<string> {
  if (file.size > maxImageBytes) throw new Error("Images can be at most 5 MB.");
  const body = new FormData();
  body.append("file", file);
  const res = await fetch("/api/uploads", { method: "POST", body });
  const result = (await res.json().catch(() => ({}))) as { url?: string; formError?: string };
  if (!res.ok || !result.url) throw new Error(result.formError ?? `Upload failed (${res.status})`);
  return result.url;
}
