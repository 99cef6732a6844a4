import { logger } from "../logger.server";
import { type StaticFile, staticEntry } from "./static-files.server";

/** The files a prerendered page is served from: its HTML and its loader data. */
export function prerenderedFiles(route: string): { html: string; data: string } {
  return route === "/"
    ? { html: "/index.html", data: "/_root.data" }
    : { html: `${route}/index.html`, data: `${route}.data` };
}

/**
 * Renders prerendered pages again, as the build did: a cookie-less GET of each
 * page and of its `.data` through React Router's request handler. Returns the
 * new in-memory entries (precompressed, ETag, CSP hashes: staticEntry); a page
 * that does not render 200 is left out (its copy in memory stays).
 */
export async function renderPages(
  handleRequest: (request: Request) => Promise<Response>,
  origin: string,
  routes: readonly string[],
): Promise<[string, StaticFile][]> {
  const entries: [string, StaticFile][] = [];
  for (const route of routes) {
    const files = prerenderedFiles(route);
    const rendered: [string, StaticFile][] = [];
    for (const rel of [files.html, files.data]) {
      const urlPath = rel === files.html ? route : rel;
      const response = await handleRequest(new Request(new URL(urlPath, origin)));
      if (response.status !== 200) {
        logger.warn({ path: urlPath, status: response.status }, "page not rendered again");
        break;
      }
      const entry = await staticEntry(rel, new Uint8Array(await response.arrayBuffer()), {
        rendered: true,
      });
      if (entry) rendered.push(entry);
    }
    if (rendered.length === 2) entries.push(...rendered);
  }
  return entries;
}

/**
 * A re-render of the prerendered pages into `files`: the pages are rendered
 * first, then every entry is replaced in one synchronous step, so a request
 * gets either all old or all new pages. Calls made while one runs wait for it
 * and run once more (a change during a render is not lost).
 */
export function prerenderedPagesRenderer(options: {
  files: Map<string, StaticFile>;
  handleRequest: (request: Request) => Promise<Response>;
  origin: string;
  routes: readonly string[];
}): () => Promise<void> {
  const { files, handleRequest, origin } = options;
  const routes = options.routes.filter((r) => files.has(r));
  let chain: Promise<void> = Promise.resolve();
  const run = async () => {
    const started = performance.now();
    const entries = await renderPages(handleRequest, origin, routes);
    for (const [path, file] of entries) files.set(path, file);
    logger.info(
      { pages: entries.length / 2, ms: Math.round(performance.now() - started) },
      "prerendered pages rendered again",
    );
  };
  return () => {
    chain = chain.then(run, run);
    return chain;
  };
}
