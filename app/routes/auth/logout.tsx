import { redirect } from "react-router";
import { signOutEverywhere } from "~/server/auth/sign-in.server";
import { readForm } from "~/server/forms.server";
import type { Route } from "./+types/logout";

export function loader() {
  return redirect("/");
}

/**
 * Ends every session of the user and clears the browser, then goes home,
 * even on an error (signOutEverywhere). The logout form has no fields, but
 * its body must still be a form (as every action's; see readForm).
 */
export async function action({ request }: Route.ActionArgs) {
  await readForm(request);
  return redirect("/", { headers: await signOutEverywhere(request) });
}
