import { eq, sql } from "drizzle-orm";
import {
  type OfferSettings,
  offerDefaults,
  offerSettingKeys,
  type PublicOffer,
  productNameIn,
} from "~/lib/offer";
import { type Actor, recordAudit } from "../audit-log.server";
import type { Db } from "../db/client.server";
import { offerSettings } from "../db/schema";
import { getEnv } from "../env.server";
import { addListener, checkEvery, notifyListeners, processWide } from "../process-state.server";
import { changedKeys, settingsFromStored } from "./stored-offer-settings.server";

// The offer settings (docs/decisions/012): one row (id 1) of offer_settings,
// read into memory at start and whenever its updated_at moves, so page loaders
// read them without a query. Listeners (the re-rendering of the prerendered
// pages, start.server.ts) run after each change. A save reaches every server
// process through process-messages.server.ts (refreshOfferSettingsEverywhere).

/** The defaults of this process: the config's values, DISCORD_INVITE_URL where it is set. */
export function processDefaults(): OfferSettings {
  let discord: string | undefined;
  try {
    discord = getEnv().discordInviteUrl;
  } catch {
    // The build prerenders without a full environment: the config's values then.
  }
  return { ...offerDefaults, discordInviteUrl: discord ?? null };
}

type Held = {
  settings: OfferSettings;
  /** updated_at of the row read, in ms; null: no row (the defaults). */
  updatedAt: number | null;
  loaded: boolean;
  listeners: Set<(settings: OfferSettings) => Promise<void> | void>;
};

const held = processWide<Held>("ailabs.offerSettings", () => ({
  settings: processDefaults(),
  updatedAt: null,
  loaded: false,
  listeners: new Set(),
}));

/** The settings in memory (the defaults until the first read): no query. */
export function currentOfferSettings(): OfferSettings {
  return held().settings;
}

/** A product's name as the owner set it (a key no longer sold: the key), from memory. */
export function productName(key: string): string {
  return productNameIn(held().settings, key);
}

/** Runs `listener` after every change of the settings in memory; returns its removal. */
export function onOfferSettingsChange(
  listener: (settings: OfferSettings) => Promise<void> | void,
): () => void {
  return addListener(held().listeners, listener);
}

/** The stored settings over this process's defaults, and when they were written. */
export async function readOfferSettings(
  db: Db,
): Promise<{ settings: OfferSettings; updatedAt: Date | null }> {
  const [row] = await db
    .select({ value: offerSettings.value, updatedAt: offerSettings.updatedAt })
    .from(offerSettings)
    .where(eq(offerSettings.id, 1))
    .limit(1);
  return {
    settings: settingsFromStored(row?.value, processDefaults()),
    updatedAt: row?.updatedAt ?? null,
  };
}

/** The refresh running, if any: refreshes run one after another. */
let lastRefresh: Promise<unknown> = Promise.resolve();

/**
 * Reads the row when its updated_at differs from the one in memory (one small
 * query); on a change, takes the new settings and awaits every listener.
 * Returns whether the settings in memory changed. Refreshes asked for at once
 * (the check loop, another process's command, the start) run one after
 * another, so an older read never replaces a newer one.
 */
export function refreshOfferSettings(db: Db): Promise<boolean> {
  const refresh = lastRefresh.then(() => refreshOnce(db));
  lastRefresh = refresh.catch(() => undefined);
  return refresh;
}

async function refreshOnce(db: Db): Promise<boolean> {
  const h = held();
  const [row] = await db
    .select({ updatedAt: offerSettings.updatedAt })
    .from(offerSettings)
    .where(eq(offerSettings.id, 1))
    .limit(1);
  const stamp = row?.updatedAt.getTime() ?? null;
  if (h.loaded && stamp === h.updatedAt) return false;
  const { settings, updatedAt } = await readOfferSettings(db);
  const before = h.settings;
  h.settings = settings;
  h.updatedAt = updatedAt?.getTime() ?? null;
  h.loaded = true;
  if (changedKeys(before, settings).length === 0) return false;
  await notifyListeners(h.listeners, settings, "offer settings listener failed");
  return true;
}

/**
 * Checks the row every `intervalMs` (refreshOfferSettings), so a change written
 * by another server process is taken within that time. Returns the stop.
 */
export function watchOfferSettings(db: Db, intervalMs = 3000): () => void {
  return checkEvery(() => refreshOfferSettings(db), intervalMs, "offer settings check failed");
}

/**
 * Stores `changes` over the stored settings (the form of /admin/settings gives
 * all but the products' prices, /admin/products one product's) and writes which
 * fields changed to the audit log, in one transaction under the row's lock.
 * Returns the fields that changed (none: nothing is written).
 */
export async function writeOfferSettings(
  db: Db,
  actor: Actor,
  changes: Partial<OfferSettings>,
): Promise<(keyof OfferSettings)[]> {
  return db.transaction(async (tx) => {
    // The row lock orders two saves at once; the first save inserts the row.
    const [row] = await tx
      .select({ value: offerSettings.value })
      .from(offerSettings)
      .where(eq(offerSettings.id, 1))
      .for("update");
    const before = settingsFromStored(row?.value, processDefaults());
    const next: OfferSettings = { ...before, ...changes };
    const changed = changedKeys(before, next);
    if (changed.length === 0) return changed;
    const value = Object.fromEntries(offerSettingKeys.map((k) => [k, next[k]]));
    await tx
      .insert(offerSettings)
      .values({ id: 1, value, updatedAt: sql`clock_timestamp()` })
      .onConflictDoUpdate({
        target: offerSettings.id,
        set: { value, updatedAt: sql`clock_timestamp()` },
      });
    await recordAudit(tx, actor, {
      kind: "settings.update",
      detail: changed.map((k) => `${k}: ${shown(before[k])} → ${shown(next[k])}`).join("; "),
    });
    return changed;
  });
}

/** A setting's value as the audit log shows it: as stored, quoted when text, at most 80 characters. */
function shown(value: OfferSettings[keyof OfferSettings]): string {
  const text = typeof value === "string" ? JSON.stringify(value) : String(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** The settings public pages show (no members' Discord invite, no seller's details): their loaders return it. */
export function publicOffer(): PublicOffer {
  const {
    discordInviteUrl: _,
    sellerName: _n,
    sellerAddress: _a,
    ...shown
  } = currentOfferSettings();
  return shown;
}

/** The loader of a public page: the offer settings it shows, from memory. */
export const offerLoader = () => ({ offer: publicOffer() });
