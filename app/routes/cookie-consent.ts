import { data } from "react-router";
import { consentFormSchema } from "~/lib/cookie-consent-form";
import { parseForm } from "~/lib/forms";
import { answerConsent } from "~/server/consent.server";
import { getEnv } from "~/server/env.server";
import { readForm } from "~/server/forms.server";
import { postOnly } from "~/server/http/post-only.server";
import type { Route } from "./+types/cookie-consent";

export const loader = postOnly;

/**
 * The cookie banner's buttons before (or without) its script: stores the
 * choice and goes back to the page. The Origin check is the HTTP shell's.
 */
export async function action({ request }: Route.ActionArgs) {
  const parsed = parseForm(consentFormSchema, await readForm(request));
  if (!parsed.ok) {
    return data({ error: Object.values(parsed.fieldErrors)[0] ?? "Invalid input" }, 400);
  }
  return answerConsent(request, parsed.data.consent, parsed.data.returnTo, getEnv().publicOrigin);
}
