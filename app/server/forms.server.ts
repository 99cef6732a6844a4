// Reading a form body in an action. Browsers send forms urlencoded or as multipart
// with a boundary; anything else is the client's mistake, answered 415 or 400 here
// instead of a TypeError from request.formData() (a 500).

export const unsupportedFormMessage =
  "Send the form as application/x-www-form-urlencoded or multipart/form-data.";
export const malformedFormMessage = "The form could not be read: its body is not valid form data.";

const formTypes = "application/x-www-form-urlencoded, multipart/form-data";

function refusal(status: 400 | 415, message: string): Response {
  const headers = new Headers({ "Content-Type": "text/plain; charset=utf-8" });
  if (status === 415) headers.set("Accept-Post", formTypes);
  return new Response(message, { status, headers });
}

/**
 * The request's form. Throws a plain-text Response (which React Router shows in
 * the error boundary with its status) when the body is not a form: 415 for
 * another content type (JSON, text/plain, none), 400 for multipart without a
 * boundary or a body that does not parse.
 */
export async function readForm(request: Request): Promise<FormData> {
  const contentType = request.headers.get("content-type") ?? "";
  const mediaType = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  if (mediaType === "multipart/form-data") {
    if (!/;\s*boundary=/i.test(contentType)) throw refusal(400, malformedFormMessage);
  } else if (mediaType !== "application/x-www-form-urlencoded") {
    throw refusal(415, unsupportedFormMessage);
  }
  try {
    return await request.formData();
  } catch {
    throw refusal(400, malformedFormMessage);
  }
}
