import { redirect } from "react-router";
import { getAuth } from "~/server/auth.server";
import { readForm } from "~/server/forms.server";
import { logger } from "~/server/logger.server";
import type { Route } from "./+types/logout";

export function loader() {
  return redirect("/");
}

/**
 * Ends every session of the user (global scope), then clears the browser:
 * Set-Cookie expiry for the session cookies and Clear-Site-Data for the rest.
 * On an error it still clears and goes home. The logout form has no fields, but
 * its body must still be a form (as every action's; see readForm).
 */
export async function action({ request }: Route.ActionArgs) {
  await readForm(request);
  const headers = new Headers({ "Clear-Site-Data": '"cache", "cookies", "storage"' });
  try {
    const auth = await getAuth();
    if (await auth.api.getSession({ headers: request.headers })) {
      await auth.api.revokeSessions({ headers: request.headers });
    }
    const signedOut = await auth.api.signOut({ headers: request.headers, returnHeaders: true });
    for (const cookie of signedOut.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  } catch (error) {
    logger.warn({ err: error }, "logout failed; browser cleared anyway");
  }
  for (const name of ["better-auth.session_token", "better-auth.session_data"]) {
    headers.append("Set-Cookie", `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`);
    headers.append(
      "Set-Cookie",
      `__Secure-${name}=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax`,
    );
  }
  return redirect("/", { headers });
}
