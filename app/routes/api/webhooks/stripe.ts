import { getDb } from "~/server/db/db.server";
import { getEnv } from "~/server/env.server";
import { postOnly } from "~/server/http/post-only.server";
import { handleStripeWebhook } from "~/server/payments/stripe-webhook.server";
import type { Route } from "./+types/stripe";

export const loader = postOnly;

/** Stripe's signed events; 404 unless Stripe is configured. */
export async function action({ request }: Route.ActionArgs) {
  return handleStripeWebhook(await getDb(), getEnv().stripe, request);
}
