import { createServer } from "node:http";
import type { ServerBuild } from "react-router";
import { createServer as createViteServer } from "vite";
import { loadDotEnv } from "./app/server/env.server";
import type { FastAnswer } from "./app/server/http/pipeline.server";
import type * as Start from "./app/server/http/start.server";

/**
 * `npm run dev`: the server of production (app/server/http/start.server.ts:
 * the node listener and the Hono shell, with its Origin check, body limits,
 * POST-only answers, compression and security headers) with Vite in
 * middleware mode in front of it. Vite answers its own requests (modules,
 * /@vite/client, files of public/) and hot reloading, on this server's port;
 * every other request goes on to the shell, which renders with the server
 * build as Vite has it now (`virtual:react-router/server-build`), so edits
 * show on the next request. Unlike production there are no prerendered
 * pages in memory and no member page cache: every page is rendered.
 */
// `.env` in the working directory, under what is already set (as the server reads it).
loadDotEnv();
process.env.NODE_ENV ??= "development";

const server = createServer();
const vite = await createViteServer({
  // No CORS headers: the shell answers as in production, and Vite's files are same-origin.
  server: { middlewareMode: true, hmr: { server }, cors: false },
  appType: "custom",
});

/** Vite's middlewares as the first answer: a request Vite does not take goes on to the shell. */
const viteAnswer: FastAnswer = (req, res) =>
  new Promise((resolve, reject) => {
    res.once("finish", () => resolve(true));
    res.once("close", () => resolve(true));
    vite.middlewares(req, res, (error?: unknown) => (error ? reject(error) : resolve(false)));
  });

// Through Vite, so that the shell and the routes share one copy of each module (one database).
const { startServer } = (await vite.ssrLoadModule(
  "/app/server/http/start.server.ts",
)) as typeof Start;

await startServer({
  build: () =>
    vite.ssrLoadModule("virtual:react-router/server-build") as unknown as Promise<ServerBuild>,
  mode: "development",
  staticFiles: async () => new Map(),
  answersFirst: [viteAnswer],
  pageCache: false,
  server,
});
