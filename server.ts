import path from "node:path";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
import { runServerProcesses } from "./app/server/http/cluster.server";

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

await runServerProcesses(async () => {
  const { startServer } = await import("./app/server/http/start.server");
  const { loadStaticFiles } = await import("./app/server/http/static-files.server");
  await startServer({
    // A dynamic import: a static one would break prerendering, which loads this
    // build without running server.ts.
    build: () => import("virtual:react-router/server-build"),
    mode: process.env.NODE_ENV,
    staticFiles: () => loadStaticFiles(clientDir),
    pageCache: true,
  });
});
