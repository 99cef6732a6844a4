import { redirect } from "react-router";
import type { UpsellProduct } from "~/config/site";
import { upsellSteps } from "~/config/site";
import { upsellSchema } from "~/lib/forms";
import { getSessionUser } from "~/server/auth/session-user.server";
import { getDb } from "~/server/db/db.server";
import { getEnv } from "~/server/env.server";
import { readCheckedForm } from "~/server/forms.server";
import { logger } from "~/server/logger.server";
import { stripeErrorLog } from "~/server/payments/stripe.server";
import { buyUpsell, type UpsellOutcome } from "~/server/payments/upsell.server";
import { currentOfferSettings } from "~/server/settings/offer-settings.server";

// The action of both upsell pages (/white-label-upsell, /custom-saas-upsell).

export const upsellMessages = {
  declined:
    "Your card was declined, so nothing was charged. Please try again later, or write to support.",
  pending:
    "Your bank has not confirmed this payment yet. It is added to your account as soon as it is: please do not pay again.",
  soldOut: "All places are taken, so nothing was charged. Write to us to hear when one opens.",
  failed: "The payment could not be made right now and nothing was charged. Please try again.",
} as const;

/**
 * The action of an upsell's page: "Yes, Upgrade My Order" (upsellSchema).
 * Charged: on to the next step (the Custom SaaS build's thank-you page with its
 * order number). Held already: on, charging nothing. A checkout that takes over:
 * there. A visitor signs in first; a member without the plan buys it first; when
 * the funnel sells on the marketplace (or nothing here can take a card), its link.
 */
export function upsellAction(product: UpsellProduct) {
  return async ({ request }: { request: Request }) => {
    const form = await readCheckedForm(request, upsellSchema);
    if (!form.ok) return form.refusal;
    const env = getEnv();
    const offer = currentOfferSettings();
    if (offer.sellIn === "marketplace" || (!env.stripe && !env.testCheckout)) {
      throw redirect(offer[upsellLinks[product]]);
    }
    const user = await getSessionUser(request);
    if (!user) throw redirect("/login");
    let outcome: UpsellOutcome;
    try {
      outcome = await buyUpsell(await getDb(), {
        user,
        product,
        origin: env.publicOrigin,
        stripe: env.stripe,
      });
    } catch (error) {
      logger.error({ ...stripeErrorLog(error), product }, "upsell charge failed");
      return form.refuse(502, { formError: upsellMessages.failed });
    }
    const next = upsellSteps[product].next;
    switch (outcome.kind) {
      case "bought":
        throw redirect(
          product === "custom-saas" ? `${next}?order=${outcome.purchase.orderNumber}` : next,
        );
      case "owned":
        throw redirect(next);
      case "checkout":
        throw redirect(outcome.url);
      case "no-plan":
        throw redirect("/buy/plan");
      case "declined":
        return form.refuse(402, { formError: upsellMessages.declined });
      case "pending":
        return form.refuse(202, { formError: upsellMessages.pending });
      case "sold-out":
        return form.refuse(409, { formError: upsellMessages.soldOut });
    }
  };
}

/** The offer setting holding each upsell's marketplace link. */
const upsellLinks = { "white-label": "whiteLabelUrl", "custom-saas": "customSaasUrl" } as const;
