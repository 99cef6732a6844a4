import { and, eq, inArray, sql } from "drizzle-orm";
import { accessProduct, type FunnelProductKey, salesFunnel } from "~/config/site";
import type { Db, Tx } from "../db/client.server";
import { purchase } from "../db/schema";
import { addListener, checkEvery, notifyListeners, processWide } from "../process-state.server";
import { currentOfferSettings, publicOffer } from "../settings/offer-settings.server";

// The places the public pages count down, from the purchases themselves: the
// first-customers bonus of the sales pages ("N of 50 left") and the coaching
// clients of /custom-saas-upsell ("N spots remaining" of its cap, an offer
// setting: a change of it reaches the pages as any setting does). Both are
// read in one query into memory at start and every few seconds after, off the
// request path, so the pages' loaders read them without a query. Listeners
// (the re-rendering of the prerendered pages, start.server.ts) run when either
// changes, as for the offer settings (decision 012).

const { customers: firstCustomerPlaces } = salesFunnel.firstCustomers;
const coachingProduct: FunnelProductKey = "custom-saas";

export type PlacesLeft = { firstCustomers: number; coaching: number };

type Held = {
  firstCustomers: number;
  /** Builds sold (completed, unrefunded): the cap in the offer settings less these are left. */
  coachingClients: number;
  loaded: boolean;
  listeners: Set<(left: PlacesLeft) => Promise<void> | void>;
};

// As the build prerenders (an empty database): every place is left.
const held = processWide<Held>("ailabs.placesLeft", () => ({
  firstCustomers: firstCustomerPlaces,
  coachingClients: 0,
  loaded: false,
  listeners: new Set(),
}));

/** Places left for the first-customers bonus, from memory: no query. */
export function firstCustomerPlacesLeft(): number {
  return held().firstCustomers;
}

/** Coaching places left of the cap, from memory: no query. 0: the upsell sells no more. */
export function coachingPlacesLeft(): number {
  return placesLeftAfter(held().coachingClients, currentOfferSettings().coachingClientCap);
}

/** The places left when `customers` people have bought: never below 0. */
export function placesLeftAfter(customers: number, places = firstCustomerPlaces): number {
  return Math.max(0, places - customers);
}

/**
 * Who holds a place, in one query: customers (people with a completed, not
 * refunded purchase of the plan) and coaching clients (completed purchases of
 * the custom SaaS build).
 */
export async function countPlacesTaken(
  db: Db | Tx,
): Promise<{ customers: number; coachingClients: number }> {
  const [row] = await db
    .select({
      customers:
        sql<number>`count(distinct ${purchase.userId}) filter (where ${purchase.product} = ${accessProduct})`.mapWith(
          Number,
        ),
      coachingClients:
        sql<number>`count(*) filter (where ${purchase.product} = ${coachingProduct})`.mapWith(
          Number,
        ),
    })
    .from(purchase)
    .where(
      and(
        eq(purchase.status, "completed"),
        inArray(purchase.product, [accessProduct, coachingProduct]),
      ),
    );
  return { customers: row?.customers ?? 0, coachingClients: row?.coachingClients ?? 0 };
}

/** Customers so far: people with a completed (not refunded) purchase of the plan. */
export async function countCustomers(db: Db | Tx): Promise<number> {
  return (await countPlacesTaken(db)).customers;
}

/** Runs `listener` after every change of the places left; returns its removal. */
export function onPlacesLeftChange(
  listener: (left: PlacesLeft) => Promise<void> | void,
): () => void {
  return addListener(held().listeners, listener);
}

/**
 * Counts who holds a place (one small query) and, when the places left
 * changed, keeps the new numbers and awaits every listener. Returns whether
 * they changed.
 */
export async function refreshPlacesLeft(db: Db): Promise<boolean> {
  const h = held();
  const taken = await countPlacesTaken(db);
  const firstCustomers = placesLeftAfter(taken.customers);
  const changed =
    firstCustomers !== h.firstCustomers || taken.coachingClients !== h.coachingClients;
  Object.assign(h, { firstCustomers, coachingClients: taken.coachingClients, loaded: true });
  if (!changed) return false;
  const left: PlacesLeft = { firstCustomers, coaching: coachingPlacesLeft() };
  await notifyListeners(h.listeners, left, "places left listener failed");
  return true;
}

/** Counts again every `intervalMs` (refreshPlacesLeft). Returns the stop. */
export function watchPlacesLeft(db: Db, intervalMs = 5000): () => void {
  return checkEvery(() => refreshPlacesLeft(db), intervalMs, "places count failed");
}

/** The loader of the sales pages: the offer settings and the places left, both from memory. */
export const salesPageLoader = () => ({
  offer: publicOffer(),
  firstCustomersLeft: firstCustomerPlacesLeft(),
});

/** The loader of /custom-saas-upsell: the offer settings and the coaching places left. */
export const coachingPageLoader = () => ({
  offer: publicOffer(),
  coachingPlacesLeft: coachingPlacesLeft(),
});
