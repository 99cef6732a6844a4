import { getDb } from "~/server/db/db.server";
import { getEnv } from "~/server/env.server";
import { postOnly } from "~/server/http/post-only.server";
import { receiveWarriorPlusIpn } from "~/server/payments/warriorplus.server";
import type { Route } from "./+types/warriorplus";

export const loader = postOnly;

/** WarriorPlus IPN (form POST); on only when WARRIORPLUS_SECURITY_KEY is set. */
export async function action({ request }: Route.ActionArgs) {
  return receiveWarriorPlusIpn(request, await getDb(), getEnv().warriorplus);
}
