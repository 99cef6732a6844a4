import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { createRequestHandler, type ServerBuild } from "react-router";
import { publicPagePaths, signInPagePaths } from "~/route-policies";
import {
  marketingContext,
  prepareBroadcastMessage,
  queueDueBroadcasts,
} from "../admin/broadcasts.server";
import { countPageViews, startPageViewFlusher } from "../analytics/page-views.server";
import { cookieKeys } from "../auth/cookies.server";
import { sessionTokenReader } from "../auth/session.server";
import { startBackupSocket } from "../db/backup.server";
import { DatabaseStartError } from "../db/client.server";
import { closeDatabase, getDatabase } from "../db/db.server";
import { readPageStamps } from "../db/page-version.server";
import { startDatabaseSocket } from "../db/socket.server";
import { EnvError, getEnv, listensOnLoopbackOnly } from "../env.server";
import { logger } from "../logger.server";
import { createSmtpTransport, outboxDepth, startEmailSender } from "../mail/outbox.server";
import { watchDatabase, watchOutboxDepth } from "../metrics/metrics.server";
import {
  onPlacesLeftChange,
  refreshPlacesLeft,
  watchPlacesLeft,
} from "../payments/places-left.server";
import { serveProcessCommands } from "../process-messages.server";
import { closeRedis, getRedis } from "../redis.server";
import { requestContext, requestIdOf } from "../request-context.server";
import {
  onOfferSettingsChange,
  refreshOfferSettings,
  watchOfferSettings,
} from "../settings/offer-settings.server";
import { type Answers, createAnswers } from "./answer.server";
import { createHttpApp } from "./app.server";
import { serverMetrics } from "./cluster.server";
import { createPageCache } from "./page-cache.server";
import { type FastAnswer, probesAnswer, type Readiness, requestPipeline } from "./pipeline.server";
import { prerenderedPagesRenderer } from "./prerender.server";
import { createRouteLabeler } from "./route-label.server";
import type { StaticFile } from "./static-files.server";

type Env = ReturnType<typeof getEnv>;
type Database = Awaited<ReturnType<typeof getDatabase>>;
type Stop = () => Promise<void> | void;

export type StartOptions = {
  /** Imports React Router's server build. */
  build: () => Promise<ServerBuild>;
  /**
   * "development": the build is imported for every request, with the edits
   * made since (Vite's); otherwise once at start. Passed to React Router
   * (NODE_ENV in production).
   */
  mode: string | undefined;
  /** Reads the client build and prerendered pages into memory (loadStaticFiles). */
  staticFiles: () => Promise<Map<string, StaticFile>>;
  /** Answers tried before the shell's own (development: Vite's modules and HMR). */
  answersFirst?: readonly FastAnswer[];
  /** Keep member pages per session (decision 009); off in development, where code changes. */
  pageCache: boolean;
  /** The node:http server to listen with (development: the one Vite's HMR socket shares). */
  server?: Server;
};

/**
 * Starts the server (server.ts in production, dev-server.ts in development),
 * in parts by lifetime, each returning its stop: the port (answering
 * /healthz at once, /readyz 503 and holding other requests until ready),
 * the resources (database, Redis, the PGlite sockets), the background work
 * (e-mail, page views, metrics gauges), then the request pipeline. On
 * SIGTERM or SIGINT it drains, then runs the stops in reverse. Run by each
 * server process when there are several (cluster.server.ts); only process 0
 * (or the only one) sends e-mail.
 */
export async function startServer(options: StartOptions): Promise<void> {
  let env: Env;
  try {
    env = getEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const answers = createAnswers(env.publicOrigin, () => "(app)");
  const port = await listen(env, options.server ?? createServer(), answers);
  const resources = await openResources(env);
  const background = startBackgroundWork(env, resources.database);
  const pipeline = await startRequestPipeline(options, env, resources.database);
  port.serve(pipeline.listener);
  logger.info("ready");

  const stops: Stop[] = [resources.stop, background.stop, pipeline.stop];
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    await port.drain(signal);
    for (const stop of stops.reverse()) await stop();
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

/** After the shutdown delay, how long no request must come before idle connections are closed. */
const quietMs = 500;
/** How long the drain waits for that quiet at most. */
const quietWaitMs = 5_000;

/** How long an idle kept-alive connection stays open: longer than HAProxy keeps one (deploy/haproxy.cfg). */
export const keepAliveMs = 75_000;

/**
 * Listens first: /healthz answers while the process starts, /readyz says when it is
 * ready, and a request that comes before waits for it (a process started again in a
 * cluster gets connections as soon as it listens). `serve` hands it the pipeline;
 * `drain` stops taking requests.
 */
async function listen(env: Env, server: Server, answers: Answers) {
  // A proxy keeps idle connections to this server and sends the next request on one;
  // had the server closed it in that instant, a POST on it would fail (the proxy does
  // not send a POST again). The server keeps idle connections open longer than
  // the proxy does (Node's default is 5 s).
  server.keepAliveTimeout = keepAliveMs;
  server.headersTimeout = keepAliveMs + 1000;
  const readiness: Readiness = { ready: false, stopping: false };
  let closing = false;
  let lastRequestAt = 0;
  let serve: RequestListener | undefined;
  let becomeReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    becomeReady = resolve;
  });
  const probes = probesAnswer(readiness, answers);
  const trusted = new Set(env.trustedProxies);
  server.on("request", (req, res) => {
    // Every answer names its request (X-Request-Id, answer.server.ts), and so does every
    // log line written for it (logger.server.ts).
    const requestId = requestIdOf(req, trusted);
    // Closing (shutdown, after its delay): a kept-alive connection is closed after this
    // answer, so the client reconnects (to another process or server).
    if (closing) res.setHeader("Connection", "close");
    requestContext.run({ requestId }, () => {
      if (probes(req, res)) return;
      // A health check comes on a connection of its own; the drain waits for the others.
      lastRequestAt = Date.now();
      if (serve) serve(req, res);
      else void ready.then(() => serve?.(req, res));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(env.port, env.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  logger.info(
    {
      port: (server.address() as AddressInfo).port,
      origin: env.publicOrigin,
      database: env.databaseUrl ? "postgres" : "pglite",
      ...(env.processIndex === undefined ? {} : { process: env.processIndex }),
    },
    "listening",
  );
  if (env.testCheckout && !listensOnLoopbackOnly(env.host)) {
    logger.warn(
      { host: env.host, anyClient: env.testCheckoutForAnyClient },
      env.testCheckoutForAnyClient
        ? "the test checkout is on for every client (TEST_CHECKOUT=on) and the server listens beyond this machine: anyone who reaches it gets Lifetime Access without paying"
        : "the test checkout is on and the server listens beyond this machine; it pays only for requests from this machine",
    );
  }
  return {
    serve(listener: RequestListener) {
      serve = listener;
      readiness.ready = true;
      becomeReady();
    },
    /**
     * /readyz 503 while still answering for SHUTDOWN_DELAY_SECONDS (a proxy's health check
     * takes the server out; closing a connection earlier could cross a POST it is sending).
     * Then every answer closes its connection, and once no request has come for
     * `quietMs` (the proxy sends no more) it stops listening and closes each connection
     * once idle (docs/architecture.md).
     */
    async drain(signal: string) {
      readiness.stopping = true;
      logger.info({ signal, delayMs: env.shutdownDelayMs }, "draining requests");
      const force = setTimeout(() => {
        logger.warn("requests still open 10 s after the shutdown delay; closing anyway");
        process.exit(1);
      }, env.shutdownDelayMs + 10_000);
      force.unref();
      if (env.shutdownDelayMs > 0) {
        await new Promise((resolve) => setTimeout(resolve, env.shutdownDelayMs));
      }
      closing = true;
      // Node's close() also closes idle connections: one the proxy is sending a request on
      // at that instant would be lost. A proxy that has taken the server out sends nothing,
      // so wait until requests stop (at most quietWaitMs, after which each answer's
      // Connection: close has ended the busy connections anyway).
      const quietFrom = Date.now();
      while (Date.now() - lastRequestAt < quietMs && Date.now() - quietFrom < quietWaitMs) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await new Promise<void>((resolve) => {
        // An answer that was under way keeps its connection alive: closed once it is idle.
        const idle = setInterval(() => server.closeIdleConnections(), 100);
        server.close(() => {
          clearInterval(idle);
          resolve();
        });
      });
    },
  };
}

/** The database, Redis, and for a file-backed PGlite its sockets (for the CLI, psql, backups). */
async function openResources(env: Env): Promise<{ database: Database; stop: Stop }> {
  let database: Database;
  try {
    database = await getDatabase();
  } catch (error) {
    if (error instanceof DatabaseStartError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // Connect now (when REDIS_URL is set), so the first sign-in does not wait for it.
  getRedis();
  // memory:// has no folder for the sockets.
  const fileBacked = database.pglite && env.dataDir !== "memory://" ? database.pglite : undefined;
  const socket = fileBacked ? await startDatabaseSocket(fileBacked, env.dataDir) : undefined;
  const backupSocket = fileBacked ? await startBackupSocket(fileBacked, env.dataDir) : undefined;
  return {
    database,
    async stop() {
      await backupSocket?.stop();
      await socket?.stop();
      await closeDatabase();
      await closeRedis();
    },
  };
}

/**
 * Work that runs beside the requests: the e-mail sender and the outbox gauge in one
 * process of the server (process 0 when there are several; on PostgreSQL each message
 * is also claimed with SKIP LOCKED, so several servers send it once), the database
 * gauge, and the funnel's page views, summed in memory and written every 10 s.
 */
function startBackgroundWork(env: Env, database: Database): { stop: Stop } {
  const runsBackgroundWork = (env.processIndex ?? 0) === 0;
  const intervalMs = 5_000;
  const marketing = marketingContext(env);
  const emailSender = runsBackgroundWork
    ? startEmailSender(database.db, {
        transport: env.smtpUrl ? createSmtpTransport(env.smtpUrl) : undefined,
        from: env.smtpFrom,
        maxAttempts: env.emailMaxAttempts,
        lockRows: !database.pglite,
        intervalMs,
        beforePass: () => queueDueBroadcasts(database.db),
        marketing: {
          perPass: Math.max(1, Math.round((env.emailRatePerMinute * intervalMs) / 60_000)),
          prepare: (db, row) => prepareBroadcastMessage(db, row, marketing),
        },
      })
    : undefined;
  const unwatchDatabase = watchDatabase(() => database.db.execute(sql`select 1`));
  const unwatchOutbox = runsBackgroundWork
    ? watchOutboxDepth(() => outboxDepth(database.db, env.emailMaxAttempts))
    : undefined;
  const pageViewFlusher = startPageViewFlusher(database.db);
  return {
    async stop() {
      await emailSender?.stop();
      await pageViewFlusher.stop();
      unwatchOutbox?.();
      unwatchDatabase();
    },
  };
}

/**
 * What answers requests: the files in memory, React Router's handler, the prerendered
 * pages kept current with the offer settings and the first customers' places, the
 * member page cache and the app, in the order requestPipeline gives them.
 */
async function startRequestPipeline(
  options: StartOptions,
  env: Env,
  database: Database,
): Promise<{ listener: RequestListener; stop: Stop }> {
  const staticFiles = await options.staticFiles();
  // Imported once: given a function, createRequestHandler rebuilds its routes per request,
  // which only development wants (to take the edits made since the last request).
  const build = await options.build();
  const handleRequest = createRequestHandler(
    options.mode === "development" ? options.build : build,
    options.mode,
  );
  // Metrics count requests by route pattern, never by raw URL.
  const routeOf = createRouteLabeler(build.routes, ["/metrics"]);

  // Offer settings (decision 012): the pages' loaders read them from memory. Each change,
  // and settings at start that differ from the build's, render the prerendered pages again.
  const rerender = prerenderedPagesRenderer({
    files: staticFiles,
    handleRequest: (request) => handleRequest(request),
    origin: env.publicOrigin,
    routes: [...publicPagePaths, ...signInPagePaths],
  });
  onOfferSettingsChange(() => rerender());
  // Watched (and the primary's commands carried out) before the first read, so
  // that a change saved while this process starts is in that read or refreshes it.
  serveProcessCommands(database.db);
  const stopWatchingSettings = watchOfferSettings(database.db);
  await refreshOfferSettings(database.db);
  // The sales pages' "N of 50 left" and the coaching spots (places-left.server.ts): likewise.
  onPlacesLeftChange(() => rerender());
  await refreshPlacesLeft(database.db);
  const stopWatchingCustomers = watchPlacesLeft(database.db);

  const pageCache = options.pageCache
    ? createPageCache({
        readStamps: (tokens) => readPageStamps(database.db, tokens),
        // The embedded database answers on this process's own thread, one statement at a
        // time: fewer, serial reads there (docs/decisions/017-stamp-reads-overlap.md).
        ...(database.pglite ? { stampIntervalMs: 5, stampReadsInFlight: 1 } : {}),
        sessionKey: sessionTokenReader(cookieKeys(env)),
      })
    : undefined;

  const listener = requestPipeline({
    // Funnel page views (consent "all") are counted whichever answer serves them.
    first: [countPageViews(), ...(options.answersFirst ?? [])],
    answers: createAnswers(env.publicOrigin, routeOf),
    staticFiles,
    pageCache,
    app: createHttpApp({
      publicOrigin: env.publicOrigin,
      trustedProxies: env.trustedProxies,
      staticFiles,
      handleRequest: (request) => handleRequest(request),
      metrics: { token: env.metricsToken, read: serverMetrics },
      routeOf,
    }),
    trusted: new Set(env.trustedProxies),
    routeOf,
    hostname: env.host,
  });
  return {
    listener,
    stop() {
      stopWatchingSettings();
      stopWatchingCustomers();
    },
  };
}
