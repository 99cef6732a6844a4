import { and, countDistinct, eq } from "drizzle-orm";
import { accessProduct, salesFunnel } from "~/config/site";
import type { Db, Tx } from "../db/client.server";
import { purchase } from "../db/schema";
import { addListener, checkEvery, notifyListeners, processWide } from "../process-state.server";
import { publicOffer } from "../settings/offer-settings.server";

// The first-customers bonus of the sales pages ("N of 50 left"): the number of
// customers so far is read into memory at start and every few seconds after,
// off the request path, so the sales pages' loaders read it without a query.
// Listeners (the re-rendering of the prerendered pages, start.server.ts) run
// when the number of places left changes, as for the offer settings (decision 012).

const { customers: places } = salesFunnel.firstCustomers;

type Held = {
  left: number;
  loaded: boolean;
  listeners: Set<(left: number) => Promise<void> | void>;
};

// As the build prerenders (an empty database): every place is left.
const held = processWide<Held>("ailabs.firstCustomers", () => ({
  left: places,
  loaded: false,
  listeners: new Set(),
}));

/** Places left for the first-customers bonus, from memory: no query. */
export function firstCustomerPlacesLeft(): number {
  return held().left;
}

/** The places left when `customers` people have bought: never below 0. */
export function placesLeftAfter(customers: number): number {
  return Math.max(0, places - customers);
}

/** Customers so far: people with a completed (not refunded) purchase of the plan. */
export async function countCustomers(db: Db | Tx): Promise<number> {
  const [row] = await db
    .select({ customers: countDistinct(purchase.userId) })
    .from(purchase)
    .where(and(eq(purchase.product, accessProduct), eq(purchase.status, "completed")));
  return row?.customers ?? 0;
}

/** Runs `listener` after every change of the places left; returns its removal. */
export function onFirstCustomerPlacesChange(
  listener: (left: number) => Promise<void> | void,
): () => void {
  return addListener(held().listeners, listener);
}

/**
 * Counts the customers (one small query) and, when the places left changed,
 * keeps the new number and awaits every listener. Returns whether it changed.
 */
export async function refreshFirstCustomerPlaces(db: Db): Promise<boolean> {
  const h = held();
  const left = placesLeftAfter(await countCustomers(db));
  const changed = left !== h.left;
  h.left = left;
  h.loaded = true;
  if (!changed) return false;
  await notifyListeners(h.listeners, left, "first customers listener failed");
  return true;
}

/** Counts again every `intervalMs` (refreshFirstCustomerPlaces). Returns the stop. */
export function watchFirstCustomerPlaces(db: Db, intervalMs = 5000): () => void {
  return checkEvery(() => refreshFirstCustomerPlaces(db), intervalMs, "customer count failed");
}

/** The loader of the sales pages: the offer settings and the places left, both from memory. */
export const salesPageLoader = () => ({
  offer: publicOffer(),
  firstCustomersLeft: firstCustomerPlacesLeft(),
});
