import { consentFormSchema } from "~/lib/cookie-consent-form";
import { answerConsent } from "~/server/consent.server";
import { getEnv } from "~/server/env.server";
import { firstError, readCheckedForm } from "~/server/forms.server";
import { postOnly } from "~/server/http/post-only.server";
import type { Route } from "./+types/cookie-consent";

export const loader = postOnly;

/**
 * The cookie banner's buttons before (or without) its script: stores the
 * choice and goes back to the page. The Origin check is the HTTP shell's.
 */
export async function action({ request }: Route.ActionArgs) {
  const form = await readCheckedForm(request, consentFormSchema);
  if (!form.ok) return form.refuse(400, firstError(form.fieldErrors));
  return answerConsent(request, form.data.consent, form.data.returnTo, getEnv().publicOrigin);
}
