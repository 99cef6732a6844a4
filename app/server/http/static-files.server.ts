import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { signInPagePaths } from "~/route-policies";
import { consentedPage, hasChosenConsent } from "./consented-page.server";
import { contentSecurityPolicy, inlineScriptHashes, withoutNonces } from "./csp.server";
import { encodeBody, negotiateEncoding } from "./encoding.server";

export type StaticFile = {
  body: Uint8Array<ArrayBuffer>;
  br: Uint8Array<ArrayBuffer> | undefined;
  gzip: Uint8Array<ArrayBuffer> | undefined;
  type: string;
  etag: string;
  cacheControl: string;
  /** Prerendered page or its data: the same for every visitor without a session. */
  visitorOnly: boolean;
  /** Served only for a URL without a query string; with one the app renders the page. */
  plainUrlOnly: boolean;
  /** A page's Content-Security-Policy, naming its inline scripts by their hashes. */
  csp: string | undefined;
  /**
   * A page's copy for visitors who have chosen in the cookie banner: the
   * banner hidden without JavaScript too (consented-page.server.ts).
   */
  consented?: StaticFile;
  /** The replies given, by method, validator match and Accept-Encoding (staticFilesAnswer). */
  replies?: Map<string, StaticReply>;
};

const types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".data": "text/x-script",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml",
  ".woff2": "font/woff2",
  ".mp4": "video/mp4",
  ".webm": "video/webm",
  ".vtt": "text/vtt; charset=utf-8",
  ".zip": "application/zip",
};

const compressible = /^(text\/|application\/(json|xml)|image\/svg)/;

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

/**
 * Reads the client build once into memory, precompressed with brotli and
 * gzip, keyed by URL path. Prerendered pages (`x/index.html`) are keyed by
 * their route (`/x`). Hashed assets are immutable for a year. The pages in
 * `plainUrlOnly` (the sign-in pages, which may read their query string:
 * /login?reset=1) are served only for their plain URL.
 */
export async function loadStaticFiles(
  dir: string,
  { plainUrlOnly = signInPagePaths }: { plainUrlOnly?: readonly string[] } = {},
): Promise<Map<string, StaticFile>> {
  const files = new Map<string, StaticFile>();
  for await (const full of walk(dir)) {
    const rel = `/${path.relative(dir, full).split(path.sep).join("/")}`;
    const body = new Uint8Array(await readFile(full));
    const entry = await staticEntry(rel, body, { plainUrlOnly });
    if (entry) files.set(entry[0], entry[1]);
  }
  return files;
}

/**
 * The entry a file of the client build makes: its URL path (a prerendered page
 * `x/index.html` under its route `/x`) and the file, precompressed, with its
 * ETag and, for a page, the Content-Security-Policy naming its inline scripts.
 * Undefined for an HTML file that is no page. Shared with the re-rendering of
 * the prerendered pages (prerender.server.ts), which asks for `rendered`.
 */
export async function staticEntry(
  rel: string,
  body: Uint8Array<ArrayBuffer>,
  {
    plainUrlOnly = signInPagePaths,
    rendered = false,
  }: {
    plainUrlOnly?: readonly string[];
    /**
     * Rendered again while the server runs (after a purchase, say): brotli at 9,
     * a twentieth of the CPU time of 11 for pages about a tenth larger, since
     * a launch's purchases have the pages rendered again several times a minute.
     */
    rendered?: boolean;
  } = {},
): Promise<[string, StaticFile] | undefined> {
  const quality = rendered ? 9 : undefined;
  const route = rel.endsWith("/index.html") ? rel.slice(0, -"/index.html".length) || "/" : rel;
  if (rel.endsWith("/index.html")) {
    const page = withoutNonces(body);
    const [file, consented] = await Promise.all([
      staticFile(rel, route, page, quality),
      staticFile(rel, route, consentedPage(page), quality),
    ]);
    return [route, { ...file, plainUrlOnly: plainUrlOnly.includes(route), consented }];
  }
  if (path.extname(rel) !== ".html") return [rel, await staticFile(rel, route, body, quality)];
  return undefined;
}

/**
 * One file of the client build, precompressed, served at `route`. Compressed on
 * the zlib thread pool: a re-render of the prerendered pages (a purchase, an
 * offer setting saved) leaves the server's thread free to answer requests.
 */
async function staticFile(
  rel: string,
  route: string,
  body: Uint8Array<ArrayBuffer>,
  brotliQuality?: number,
): Promise<StaticFile> {
  const ext = path.extname(rel);
  const type = types[ext] ?? "application/octet-stream";
  const shouldCompress = compressible.test(type) && body.byteLength > 512;
  const isPage = ext === ".html" || ext === ".data";
  // At start, the best compression for pages and small assets; large bundles at 9 keep
  // start-up quick.
  const quality = brotliQuality ?? (body.byteLength < 100_000 ? 11 : 9);
  const [br, gzip] = shouldCompress
    ? await Promise.all([encodeBody(body, "br", quality), encodeBody(body, "gzip", 6, 9)])
    : [];
  return {
    body,
    br: br && new Uint8Array(br),
    gzip: gzip && new Uint8Array(gzip),
    type,
    etag: `"${createHash("sha1").update(body).digest("base64url")}"`,
    csp:
      ext === ".html"
        ? contentSecurityPolicy(inlineScriptHashes(Buffer.from(body).toString("utf8")), {
            path: route,
          })
        : undefined,
    cacheControl: rel.startsWith("/assets/")
      ? "public, max-age=31536000, immutable"
      : isPage
        ? "no-cache"
        : "public, max-age=3600",
    visitorOnly: isPage,
    plainUrlOnly: false,
  };
}

/** Whether a Cookie header carries a session cookie: pages are then rendered for the user. */
export function carriesSession(cookieHeader: string | null | undefined): boolean {
  return cookieHeader?.includes("session_token=") === true;
}

/**
 * The file that answers a GET or HEAD for `path`, or undefined when the app must:
 * no such file, a prerendered page asked for with a session cookie, or a page
 * served only for its plain URL asked for with a query string. A page's copy
 * without the cookie banner when the request carries a choice.
 */
export function staticFileFor(
  files: ReadonlyMap<string, StaticFile>,
  path: string,
  hasQuery: boolean,
  cookieHeader: string | null | undefined,
): StaticFile | undefined {
  const file = files.get(path);
  if (!file) return undefined;
  if (file.visitorOnly && carriesSession(cookieHeader)) return undefined;
  if (file.plainUrlOnly && hasQuery) return undefined;
  if (file.consented && hasChosenConsent(cookieHeader)) return file.consented;
  return file;
}

export type StaticReply = {
  status: 200 | 304;
  headers: Record<string, string>;
  /** Undefined for 304 and HEAD (the headers still describe the body a GET gets). */
  body: Uint8Array<ArrayBuffer> | undefined;
};

/** The reply for a static file, honouring If-None-Match and Accept-Encoding. */
export function staticReply(
  file: StaticFile,
  method: string,
  ifNoneMatch: string | null | undefined,
  acceptEncoding: string | null | undefined,
): StaticReply {
  const headers: Record<string, string> = {
    "Content-Type": file.type,
    "Cache-Control": file.cacheControl,
    ETag: file.etag,
    // A page depends on the Cookie header: a session (rendered instead), a banner choice.
    Vary: file.visitorOnly ? "Cookie, Accept-Encoding" : "Accept-Encoding",
  };
  if (file.csp) headers["Content-Security-Policy"] = file.csp;
  if (ifNoneMatch === file.etag) return { status: 304, headers, body: undefined };
  const encoding = negotiateEncoding(acceptEncoding, (e) => file[e] !== undefined);
  const body = (encoding && file[encoding]) || file.body;
  if (encoding) headers["Content-Encoding"] = encoding;
  headers["Content-Length"] = String(body.byteLength);
  return { status: 200, headers, body: method === "HEAD" ? undefined : body };
}

/** The response for a static file (staticReply as a Response). */
export function staticResponse(file: StaticFile, request: Request): Response {
  const reply = staticReply(
    file,
    request.method,
    request.headers.get("if-none-match"),
    request.headers.get("accept-encoding"),
  );
  return new Response(reply.body ?? null, { status: reply.status, headers: reply.headers });
}
