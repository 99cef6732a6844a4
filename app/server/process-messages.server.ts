import { pageViews } from "./analytics/page-views.server";
import { answerRequests, ask, type Channel, inCluster } from "./cluster-ipc.server";
import type { Db } from "./db/client.server";
import { logger } from "./logger.server";
import {
  createMemoryRateLimiter,
  type LimiterOptions,
  type RateLimiter,
} from "./rate-limiters.server";
import { refreshOfferSettings } from "./settings/offer-settings.server";

/**
 * Every message between the server's processes (decision 027), each with its
 * handler. With WEB_CONCURRENCY > 1 the primary (http/cluster.server.ts)
 * serves no request: a server process asks it (ToPrimary), and it asks each
 * server process (ToServerProcess), over the one wire of cluster-ipc.server.ts.
 * With one process (the default) nothing is sent: the handler runs here.
 */

/** What every server process carries out when one of them asks (a page after a write). */
const everyProcess = {
  /** The settings page, after a save: each process reads the settings and renders its public pages again. */
  "refresh-offer-settings": {
    run: (db: Db) => refreshOfferSettings(db),
    /** Past the primary's wait for every process (commandTimeoutMs). */
    timeoutMs: 35_000,
  },
  /** The funnel page, before reading: each process writes the page views it counted. */
  "flush-page-views": { run: (db: Db) => pageViews().flush(db), timeoutMs: 10_000 },
} satisfies Record<string, { run: (db: Db) => Promise<unknown>; timeoutMs: number }>;

export type ProcessCommand = keyof typeof everyProcess;

/** A server process's requests to the primary. */
export type ToPrimary =
  /** /metrics: every process's metrics, added up. */
  | { kind: "metrics" }
  /** A rate-limit counter the processes share when there is no Redis. */
  | ({ kind: "rate"; op: "hit" | "reset"; name: string; key: string } & LimiterOptions)
  /** Have every server process carry out a command. */
  | { kind: "every-process"; command: ProcessCommand };

/** The primary's request to each server process. */
export type ToServerProcess = { kind: "command"; command: ProcessCommand };

/** How long the primary waits for a process to carry out a command (rendering the public pages again). */
export const commandTimeoutMs = 30_000;

// --- In a server process ------------------------------------------------------

function askPrimary<T>(request: ToPrimary, timeoutMs: number): Promise<T> {
  return ask<T>(process, request, timeoutMs);
}

/**
 * Has every server process carry out `command` (through the primary when
 * several serve, else this one), resolving when all did. Other servers of a
 * load-balanced deployment take the change through their own watchers.
 */
export async function inEveryProcess(command: ProcessCommand, db: Db): Promise<void> {
  if (!inCluster()) {
    await everyProcess[command].run(db);
    return;
  }
  await askPrimary({ kind: "every-process", command }, everyProcess[command].timeoutMs);
}

/**
 * After an offer-settings save: this process reads the settings again now, and
 * so does every other process of this server, each rendering its public pages
 * again before this returns. When the primary fails, this process still does
 * (the others' watchers take it within seconds).
 */
export async function refreshOfferSettingsEverywhere(db: Db): Promise<void> {
  try {
    await inEveryProcess("refresh-offer-settings", db);
  } catch (error) {
    logger.warn({ err: error }, "offer settings not refreshed in every process");
    await refreshOfferSettings(db);
  }
}

/** Before the funnel is read: every process's page views counted are written. */
export function flushPageViews(db: Db): Promise<void> {
  return inEveryProcess("flush-page-views", db);
}

/** The database commands run on; null while this process starts (a command is then answered at once). */
let commandsDb: Db | null = null;
let answering = false;

/**
 * In a server process, as it starts: answers the primary from now on. Until
 * serveProcessCommands, a command is answered at once: a process still
 * starting has no page views counted, and reads the offer settings itself.
 */
export function answerPrimary(): void {
  if (answering || !inCluster()) return;
  answering = true;
  answerCommands(process);
}

/** Carries out the commands arriving on `channel` (answerPrimary's, on `process`). */
export function answerCommands(channel: Channel): void {
  answerRequests(channel, async (body) => {
    const { command } = body as ToServerProcess;
    if (commandsDb) await everyProcess[command].run(commandsDb);
    return true;
  });
}

/**
 * In a server process: carries out the primary's commands on `db` from now on
 * (start.server.ts, before its first read of the offer settings, so a save
 * made while it starts is in that read or refreshes it).
 */
export function serveProcessCommands(db: Db): void {
  commandsDb = db;
  answerPrimary();
}

/** The rate-limit counters kept by the primary, when several processes serve without Redis. */
export function createPrimaryRateLimiter(
  options: LimiterOptions & { name: string; timeoutMs?: number },
): RateLimiter {
  const fallback = createMemoryRateLimiter(options);
  const { name, limit, windowMs } = options;
  const send = (op: "hit" | "reset", key: string) =>
    askPrimary<boolean>(
      { kind: "rate", op, name, key, limit, windowMs },
      options.timeoutMs ?? primaryRateTimeoutMs,
    );
  return {
    async hit(key) {
      try {
        return await send("hit", key);
      } catch (error) {
        logger.error({ err: error, limiter: name }, "rate limit store unavailable");
        return fallback.hit(key);
      }
    },
    async reset(key) {
      await fallback.reset(key);
      await send("reset", key).catch((error: unknown) =>
        logger.error({ err: error, limiter: name }, "rate limit store unavailable"),
      );
    },
  };
}

/** How long a server process waits for the primary's counters before counting alone. */
const primaryRateTimeoutMs = 1000;

/** /metrics in a server process: every process's, added up by the primary. */
export function clusterMetrics(): Promise<string> {
  return askPrimary<string>({ kind: "metrics" }, 10_000);
}

// --- In the primary -----------------------------------------------------------

const primaryLimiters = new Map<string, RateLimiter>();

/**
 * In the primary: answers one server process's requests. `primary` gives the
 * processes running and the metrics of them all.
 */
export function answerServerProcess(
  worker: Channel,
  primary: { workers(): Channel[]; metrics(): Promise<string> },
): void {
  answerRequests(worker, async (body) => {
    const request = body as ToPrimary;
    switch (request.kind) {
      case "metrics":
        return primary.metrics();
      case "every-process":
        await Promise.all(
          primary
            .workers()
            .filter((w) => w.isConnected?.() !== false)
            .map((w) =>
              ask(
                w,
                { kind: "command", command: request.command } satisfies ToServerProcess,
                commandTimeoutMs,
              ),
            ),
        );
        return true;
      case "rate": {
        let limiter = primaryLimiters.get(request.name);
        if (!limiter) {
          limiter = createMemoryRateLimiter({ limit: request.limit, windowMs: request.windowMs });
          primaryLimiters.set(request.name, limiter);
        }
        if (request.op === "hit") return limiter.hit(request.key);
        await limiter.reset(request.key);
        return true;
      }
    }
  });
}
