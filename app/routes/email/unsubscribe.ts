import { getDb } from "~/server/db/db.server";
import { getEnv } from "~/server/env.server";
import { postOnly } from "~/server/http/post-only.server";
import { readUnsubscribeToken, setMarketingEmail } from "~/server/mail/preferences.server";
import type { Route } from "./+types/unsubscribe";

export const loader = postOnly;

/**
 * RFC 8058's one-click unsubscribe: the mail client POSTs
 * "List-Unsubscribe=One-Click" to the List-Unsubscribe address of a marketing
 * e-mail, without a cookie and from its own server (no Origin check). The
 * signed token in the address is the whole authority.
 */
export async function action({ request }: Route.ActionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const claim = token.length <= 500 ? readUnsubscribeToken(getEnv().authSecret, token) : null;
  if (!claim) return plain(400, "This unsubscribe link is not valid.");
  if (!(await setMarketingEmail(await getDb(), claim, false))) {
    return plain(404, "This account no longer exists.");
  }
  return plain(200, "Unsubscribed: no more marketing e-mail goes to this address.");
}

function plain(status: number, text: string) {
  return new Response(`${text}\n`, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
}
