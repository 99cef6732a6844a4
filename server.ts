import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
import { getRequestListener } from "@hono/node-server";
import { sql } from "drizzle-orm";
import { createRequestHandler } from "react-router";
import { createSessionTokenReader } from "./app/server/auth/session.server";
import { DatabaseLockedError } from "./app/server/db/client.server";
import { closeDatabase, getDatabase } from "./app/server/db/db.server";
import { readPageStamps } from "./app/server/db/page-version.server";
import { startDatabaseSocket } from "./app/server/db/socket.server";
import { EnvError, getEnv } from "./app/server/env.server";
import { createHttpApp } from "./app/server/http/app.server";
import {
  nodeListener,
  shellHeaders,
  staticFilesAnswer,
} from "./app/server/http/node-listener.server";
import { createPageCache, pageCacheAnswer } from "./app/server/http/page-cache.server";
import { loadStaticFiles } from "./app/server/http/static-files.server";
import { logger } from "./app/server/logger.server";
import { createSmtpTransport, startEmailSender } from "./app/server/mail/outbox.server";
import { closeRedis, getRedis } from "./app/server/redis.server";

// Between full GCs V8 lets the old generation grow to up to 4 times what
// survived the last one: under load the heap of this server (some 40 MB of
// live objects) grew to 250 MB and stayed there. 1.2 times (V8 adds at least
// 8 MB) keeps it near 90 MB, for about 0.6 µs more GC per request. V8 reads
// this at every GC, so setting it here applies however the server starts.
v8.setFlagsFromString("--heap-growing-percent=20");

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

let database: Awaited<ReturnType<typeof getDatabase>>;
try {
  database = await getDatabase();
} catch (error) {
  if (error instanceof DatabaseLockedError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
// Connect now (when REDIS_URL is set), so the first sign-in does not wait for it.
getRedis();

// A file-backed PGlite is offered on a socket for the CLI and psql; memory:// has no folder for it.
const socket =
  database.pglite && env.dataDir !== "memory://"
    ? await startDatabaseSocket(database.pglite, env.dataDir)
    : undefined;
const emailSender = startEmailSender(database.db, {
  transport: env.smtpUrl ? createSmtpTransport(env.smtpUrl) : undefined,
  from: env.smtpFrom,
  maxAttempts: env.emailMaxAttempts,
  lockRows: !database.pglite,
});
const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../client");
const staticFiles = await loadStaticFiles(clientDir);

// Imported once: given a function, createRequestHandler would rebuild its routes per request.
// (A static import would break prerendering, which loads this build without running server.ts.)
const build = await import("virtual:react-router/server-build");
const handleRequest = createRequestHandler(build, process.env.NODE_ENV);

const secureCookies = env.publicOrigin.startsWith("https://");
const pageCache = createPageCache({
  readStamps: (tokens) => readPageStamps(database.db, tokens),
  sessionKey: createSessionTokenReader(env.authSecret, secureCookies),
});

const app = createHttpApp({
  publicOrigin: env.publicOrigin,
  trustedProxies: env.trustedProxies,
  staticFiles,
  handleRequest: (request) => handleRequest(request),
  pageCache,
  checkDatabase: async () => {
    await database.db.execute(sql`select 1`);
  },
});

// Static files, prerendered pages and kept member pages are answered straight on node:http;
// the rest goes to the Hono app (what `serve({ fetch: app.fetch })` would build).
const server = createServer(
  nodeListener(
    [
      staticFilesAnswer(staticFiles, env.publicOrigin),
      pageCacheAnswer(pageCache, shellHeaders(env.publicOrigin)),
    ],
    getRequestListener(app.fetch, { hostname: env.host }),
  ),
);
server.listen(env.port, env.host, () => {
  logger.info(
    {
      port: (server.address() as AddressInfo).port,
      origin: env.publicOrigin,
      database: env.databaseUrl ? "postgres" : "pglite",
    },
    "listening",
  );
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "draining requests");
  const force = setTimeout(() => {
    logger.warn("requests still open after 10 s; closing anyway");
    process.exit(1);
  }, 10_000);
  force.unref();
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    if ("closeIdleConnections" in server) server.closeIdleConnections();
  });
  await emailSender.stop();
  await socket?.stop();
  await closeDatabase();
  await closeRedis();
  logger.info("stopped");
  process.exit(0);
}

process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
