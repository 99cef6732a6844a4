import { redirect } from "react-router";
import { analyticsDeletions, type Consent, consentCookies } from "~/lib/cookie-consent";
import { localPath } from "~/lib/cookie-consent-form";
import { usesSecureCookies } from "./auth/cookies.server";

/**
 * The answer to the cookie banner's form without its script: stores the choice
 * in the same cookies the banner's script writes (lib/cookie-consent.ts),
 * deletes analytics cookies unless the choice is "all", and goes back (303) to
 * the page it was made on: `returnTo`, else the same-origin Referer, else /.
 * Idempotent.
 */
export function answerConsent(
  request: Request,
  consent: Consent,
  returnTo: string | undefined,
  publicOrigin: string,
  now = Date.now(),
): Response {
  const headers = new Headers({ "Cache-Control": "no-store" });
  const secure = usesSecureCookies(publicOrigin);
  for (const cookie of consentCookies({ consent, chosenAt: now }, { secure, now })) {
    headers.append("Set-Cookie", cookie);
  }
  if (consent !== "all") {
    const { hostname } = new URL(publicOrigin);
    for (const deletion of analyticsDeletions(request.headers.get("cookie") ?? "", hostname)) {
      headers.append("Set-Cookie", deletion);
    }
  }
  const to =
    localPath(returnTo, publicOrigin) ??
    localPath(refererPath(request.headers.get("referer"), publicOrigin), publicOrigin) ??
    "/";
  return redirect(to, { status: 303, headers });
}

/** The path of a Referer on this site, or null. */
function refererPath(referer: string | null, origin: string): string | null {
  if (!referer) return null;
  try {
    const url = new URL(referer);
    return url.origin === new URL(origin).origin ? `${url.pathname}${url.search}` : null;
  } catch {
    return null;
  }
}
