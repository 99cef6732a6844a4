import { and, countDistinct, eq } from "drizzle-orm";
import { accessProduct, salesFunnel } from "~/config/site";
import type { Db, Tx } from "../db/client.server";
import { purchase } from "../db/schema";
import { logger } from "../logger.server";
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

// On globalThis: in development the route modules are loaded by Vite apart from the
// server's own, and both must see one copy.
const key = Symbol.for("ailabs.firstCustomers");
function held(): Held {
  const g = globalThis as unknown as Record<symbol, Held | undefined>;
  let h = g[key];
  if (!h) {
    // As the build prerenders (an empty database): every place is left.
    h = { left: places, loaded: false, listeners: new Set() };
    g[key] = h;
  }
  return h;
}

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
  const h = held();
  h.listeners.add(listener);
  return () => h.listeners.delete(listener);
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
  for (const listener of h.listeners) {
    try {
      await listener(left);
    } catch (error) {
      logger.error({ err: error }, "first customers listener failed");
    }
  }
  return true;
}

/** Counts again every `intervalMs` (refreshFirstCustomerPlaces). Returns the stop. */
export function watchFirstCustomerPlaces(db: Db, intervalMs = 5000): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    refreshFirstCustomerPlaces(db)
      .catch((error: unknown) => logger.warn({ err: error }, "customer count failed"))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** The loader of the sales pages: the offer settings and the places left, both from memory. */
export const salesPageLoader = () => ({
  offer: publicOffer(),
  firstCustomersLeft: firstCustomerPlacesLeft(),
});
