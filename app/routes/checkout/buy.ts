import { redirect } from "react-router";
import { planOffers, planPagePath } from "~/lib/offer";
import { getSessionUser } from "~/server/auth/guards.server";
import { getEnv } from "~/server/env.server";
import { currentOfferSettings } from "~/server/settings/offer-settings.server";
import type { Route } from "./+types/buy";

/**
 * GET /buy/{offer}: where a buy button of the landing page and the sales pages
 * leads (planBuyHref). A visitor signs up first and comes to the plan page after;
 * a signed-in user goes straight there, and an owner is told so there. When the
 * funnel sells on the marketplace, or this site has no checkout to sell in (no
 * Stripe, no test checkout), the marketplace's buy link.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const which = planOffers.find((o) => o === params.offer);
  if (!which) return new Response("Not found", { status: 404 });
  const offer = currentOfferSettings();
  const env = getEnv();
  if (offer.sellIn === "marketplace" || (!env.stripe && !env.testCheckout)) {
    throw redirect(offer.mainOfferUrl);
  }
  if (!(await getSessionUser(request))) {
    throw redirect(which === "offer2" ? "/signup?offer=offer2" : "/signup");
  }
  throw redirect(planPagePath(which));
}
