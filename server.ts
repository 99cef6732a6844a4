import path from "node:path";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
import { getEnv, loadDatabaseEnv, loadDotEnv, startWarnings } from "./app/server/env.server";
import { runServerProcesses } from "./app/server/http/cluster.server";
import { logger } from "./app/server/logger.server";

// Between full GCs V8 lets the old generation grow to up to 4 times what
// survived the last one: under load the heap of this server (some 40 MB of
// live objects) grew to 250 MB and stayed there. 1.2 times (V8 adds at least
// 8 MB) keeps it near 90 MB, for about 0.6 µs more GC per request. V8 reads
// this at every GC, so setting it here applies however the server starts.
v8.setFlagsFromString("--heap-growing-percent=20");

// The production entry (the SSR build's input); `npm run dev` starts the same
// server from dev-server.ts, with Vite in front of it. WEB_CONCURRENCY > 1 makes
// this process the primary of that many server processes (cluster.server.ts),
// which loads none of the app: it is imported by the processes that serve.
const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../client");

try {
  // `.env` in the working directory (bin/serve's: the app's folder), under what is already set.
  loadDotEnv();
  getEnv();
  await runServerProcesses(async () => {
    const { startServer } = await import("./app/server/http/start.server");
    const { loadStaticFiles } = await import("./app/server/http/static-files.server");
    const env = getEnv();
    if ((env.processIndex ?? 0) === 0) {
      for (const warning of startWarnings(env)) logger.warn(warning);
    }
    await startServer({
      // A dynamic import: a static one would break prerendering, which loads this
      // build without running server.ts.
      build: () => import("virtual:react-router/server-build"),
      mode: process.env.NODE_ENV,
      staticFiles: () => loadStaticFiles(clientDir),
      pageCache: true,
    });
  });
} catch (error) {
  // One line naming the setting to fix (port in use, database unreachable, DATA_DIR not
  // writable, ...), not a stack trace; a failure it does not recognize keeps its stack.
  const { describeStartFailure } = await import("./app/server/start-failure.server");
  const failure = describeStartFailure(error, startSettings());
  logger.fatal(
    { setting: failure.setting, ...(failure.unexpected ? { err: error } : {}) },
    failure.message,
  );
  process.exit(1);
}

/** What the failure message may name: whatever of the environment could be read. */
function startSettings() {
  try {
    return getEnv();
  } catch {
    try {
      return loadDatabaseEnv();
    } catch {
      return {};
    }
  }
}
