import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { sql } from "drizzle-orm";
import { createRequestHandler, type ServerBuild } from "react-router";
import { publicPagePaths, signInPagePaths } from "~/route-policies";
import { countPageViews, startPageViewFlusher } from "../analytics/page-views.server";
import { createSessionTokenReader } from "../auth/session.server";
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
  onFirstCustomerPlacesChange,
  refreshFirstCustomerPlaces,
  watchFirstCustomerPlaces,
} from "../payments/first-customers.server";
import { serveProcessCommands } from "../process-messages.server";
import { closeRedis, getRedis } from "../redis.server";
import { requestContext, requestIdOf } from "../request-context.server";
import {
  onOfferSettingsChange,
  refreshOfferSettings,
  watchOfferSettings,
} from "../settings/offer-settings.server";
import { createHttpApp } from "./app.server";
import { serverMetrics } from "./cluster.server";
import {
  type FastAnswer,
  forwardedUrls,
  nodeListener,
  probesAnswer,
  type Readiness,
  shellHeaders,
  staticFilesAnswer,
} from "./node-listener.server";
import { createPageCache, pageCacheAnswer } from "./page-cache.server";
import { prerenderedPagesRenderer } from "./prerender.server";
import { createRouteLabeler } from "./route-label.server";
import type { StaticFile } from "./static-files.server";

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
 * Starts the server (server.ts in production, dev-server.ts in development):
 * environment, then the port (answering /healthz at once, /readyz 503 and
 * holding other requests until ready), database, Redis, the PGlite socket,
 * the e-mail sender, then the HTTP shell on node:http; drains and closes it
 * all on SIGTERM or SIGINT. Run by each server process when there are
 * several (cluster.server.ts); only process 0 (or the only one) sends e-mail.
 */
export async function startServer(options: StartOptions): Promise<void> {
  let env: ReturnType<typeof getEnv>;
  try {
    env = getEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  // Listen first: /healthz answers while the process starts, /readyz says when it is ready,
  // and a request that comes before waits for it (a process started again in a cluster
  // gets connections as soon as it listens).
  const readiness: Readiness = { ready: false, stopping: false };
  let closing = false;
  let becomeReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    becomeReady = resolve;
  });
  let serve: RequestListener | undefined;
  const probes = probesAnswer(readiness);
  const trusted = new Set(env.trustedProxies);
  const server = options.server ?? createServer();
  server.on("request", (req, res) => {
    // Every answer names its request (X-Request-Id: the fast answers and the shell add it,
    // withRequestId), and so does every log line written for it (logger.server.ts).
    const requestId = requestIdOf(req, trusted);
    // Closing (shutdown, after its delay): a kept-alive connection is closed after this
    // answer, so the client reconnects (to another process or server).
    if (closing) res.setHeader("Connection", "close");
    requestContext.run({ requestId }, () => {
      if (probes(req, res)) return;
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

  let database: Awaited<ReturnType<typeof getDatabase>>;
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

  // A file-backed PGlite is offered on a socket for the CLI and psql; memory:// has no folder for it.
  // So is a backup of it (`npm run cli -- backup FILE`).
  const fileBacked = database.pglite && env.dataDir !== "memory://" ? database.pglite : undefined;
  const socket = fileBacked ? await startDatabaseSocket(fileBacked, env.dataDir) : undefined;
  const backupSocket = fileBacked ? await startBackupSocket(fileBacked, env.dataDir) : undefined;
  // Background work runs in one process of the server (process 0 when there are several); on
  // PostgreSQL each message is also claimed with SKIP LOCKED, so several servers send it once.
  const runsBackgroundWork = (env.processIndex ?? 0) === 0;
  const emailSender = runsBackgroundWork
    ? startEmailSender(database.db, {
        transport: env.smtpUrl ? createSmtpTransport(env.smtpUrl) : undefined,
        from: env.smtpFrom,
        maxAttempts: env.emailMaxAttempts,
        lockRows: !database.pglite,
      })
    : undefined;
  watchDatabase(() => database.db.execute(sql`select 1`));
  if (runsBackgroundWork) {
    watchOutboxDepth(() => outboxDepth(database.db, env.emailMaxAttempts));
  }
  // Views of the funnel's pages, summed in memory, written every 10 s and at shutdown.
  const pageViewFlusher = startPageViewFlusher(database.db);

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
  // The sales pages' "N of 50 left" (first-customers.server.ts): likewise, from memory.
  onFirstCustomerPlacesChange(() => rerender());
  await refreshFirstCustomerPlaces(database.db);
  const stopWatchingCustomers = watchFirstCustomerPlaces(database.db);

  const secureCookies = env.publicOrigin.startsWith("https://");
  const pageCache = options.pageCache
    ? createPageCache({
        readStamps: (tokens) => readPageStamps(database.db, tokens),
        // The embedded database answers on this process's own thread, one statement at a
        // time: fewer, serial reads there (docs/decisions/017-stamp-reads-overlap.md).
        ...(database.pglite ? { stampIntervalMs: 5, stampReadsInFlight: 1 } : {}),
        sessionKey: createSessionTokenReader(env.authSecret, secureCookies),
      })
    : undefined;

  const app = createHttpApp({
    publicOrigin: env.publicOrigin,
    trustedProxies: env.trustedProxies,
    staticFiles,
    handleRequest: (request) => handleRequest(request),
    pageCache,
    metrics: { token: env.metricsToken, read: serverMetrics },
    routeOf,
  });

  // Static files, prerendered pages and kept member pages are answered straight on node:http;
  // the rest goes to the Hono app (what `serve({ fetch: app.fetch })` would build). The first
  // answer only counts funnel page views (consent "all"), whichever answer serves them.
  serve = nodeListener(
    [
      countPageViews(),
      ...(options.answersFirst ?? []),
      staticFilesAnswer(staticFiles, env.publicOrigin),
      ...(pageCache ? [pageCacheAnswer(pageCache, shellHeaders(env.publicOrigin), routeOf)] : []),
    ],
    forwardedUrls(getRequestListener(app.fetch, { hostname: env.host }), trusted),
  );
  readiness.ready = true;
  becomeReady();
  logger.info("ready");

  let stopping = false;
  /**
   * Stops in two steps. First /readyz answers 503 while the server keeps listening and
   * answering, kept-alive connections included, for SHUTDOWN_DELAY_SECONDS: long enough for
   * a proxy's health check to take it out. Closing an idle connection earlier could cross a
   * request the proxy is sending on it, which it may not send again (a POST): a 502. Then it
   * stops listening, closes idle connections, and closes the others after their answer.
   */
  async function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    readiness.stopping = true;
    logger.info({ signal, delayMs: env.shutdownDelayMs }, "draining requests");
    const force = setTimeout(() => {
      logger.warn("requests still open 10 s after the server stopped listening; closing anyway");
      process.exit(1);
    }, env.shutdownDelayMs + 10_000);
    force.unref();
    if (env.shutdownDelayMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, env.shutdownDelayMs));
    }
    closing = true;
    await new Promise<void>((resolve) => {
      // An answer that was under way keeps its connection alive: closed once it is idle.
      const idle = setInterval(() => server.closeIdleConnections(), 100);
      server.close(() => {
        clearInterval(idle);
        resolve();
      });
      server.closeIdleConnections();
    });
    stopWatchingSettings();
    stopWatchingCustomers();
    await emailSender?.stop();
    await pageViewFlusher.stop();
    await backupSocket?.stop();
    await socket?.stop();
    await closeDatabase();
    await closeRedis();
    logger.info("stopped");
    process.exit(0);
  }

  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}
