import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip as gzipCallback } from "node:zlib";
import type { PageStamp } from "../db/page-version.server";

/**
 * A cache of member pages as rendered for one session
 * (docs/decisions/009-page-cache-by-dependency.md).
 *
 * A page is kept with the stamp of what it shows (app/server/db/page-version.server.ts):
 * the session's user, the version of everything of theirs a member page
 * reads and the version of what every member sees. Triggers bump those
 * versions in the transaction of every write, so a request is answered from
 * the cache only when a stamp read after it arrived is the page's own: the
 * member's own progress, a refund, a logout, an edited course shows on the
 * next request, from this process, another server or the CLI. Other members'
 * writes leave the page as it is.
 *
 * Concurrent requests share one stamp query: a request waits for a query
 * that started after it arrived, and queries (one for every session waiting)
 * start at most every 5 ms, so the check costs at most 200 queries a second
 * however many requests arrive.
 */

export type CachedPage = {
  /** The stamp the page was rendered under (PageStamp.stamp). */
  stamp: string;
  /** Not served after this instant (ms): the session's expiry, or a few minutes at most. */
  validUntil: number;
  contentType: string;
  body: Uint8Array<ArrayBuffer>;
  /** Compressed on the first hit that asks for it: a page changed before then costs none. */
  br?: Uint8Array<ArrayBuffer>;
  gzip?: Uint8Array<ArrayBuffer>;
  brPending?: Promise<Uint8Array<ArrayBuffer>>;
  gzipPending?: Promise<Uint8Array<ArrayBuffer>>;
  etag: string;
};

export type PageCacheOptions = {
  /** The stamp of each live session among these tokens (readPageStamps); absent when signed out. */
  readStamps: (tokens: string[]) => Promise<Map<string, PageStamp>>;
  /**
   * The verified session token of the request (the one its page is rendered
   * from), or null: the cache key. Without one the cache is bypassed.
   */
  sessionKey: (request: Request) => string | null;
  maxEntries?: number;
  /** Memory for pages and their compressed copies (default 64 MB). */
  maxBytes?: number;
  maxAgeMs?: number;
  /** The least time between two stamp reads (default 5 ms). */
  stampIntervalMs?: number;
  now?: () => number;
};

const maxBodyBytes = 1024 * 1024;

/**
 * Batches lookups by key: each caller gets the answer of a read that began
 * after it called, and callers waiting at the same time share one read of
 * all their keys. Reads start at most every `minIntervalMs`, so under load
 * the check costs a bounded number of queries a second, and a request waits
 * at most about that long for it.
 */
export function createBatchedReader<V>(
  read: (keys: string[]) => Promise<Map<string, V>>,
  minIntervalMs = 0,
): (key: string) => Promise<V | undefined> {
  /** The read in flight, if any (settled or not, it is over once this resolves). */
  let running: Promise<void> | undefined;
  /** The next read, not started yet: callers join it. */
  let next: { keys: Set<string>; result: Promise<Map<string, V>> } | undefined;
  let lastStart = Number.NEGATIVE_INFINITY;

  const start = (keys: Set<string>): Promise<Map<string, V>> => {
    lastStart = performance.now();
    const result = read([...keys]);
    const over = result.then(
      () => undefined,
      () => undefined,
    );
    running = over;
    void over.then(() => {
      if (running === over) running = undefined;
    });
    return result;
  };
  const wait = () => Math.max(0, lastStart + minIntervalMs - performance.now());

  return (key) => {
    if (next) {
      next.keys.add(key);
      return next.result.then((found) => found.get(key));
    }
    if (!running && wait() === 0) return start(new Set([key])).then((found) => found.get(key));
    // The running read may have begun before this call: wait for the next one.
    const keys = new Set([key]);
    const result = (running ?? Promise.resolve())
      .then(() => new Promise((resolve) => setTimeout(resolve, wait())))
      .then(() => {
        next = undefined;
        return start(keys);
      });
    next = { keys, result };
    return result.then((found) => found.get(key));
  };
}

export function createPageCache(options: PageCacheOptions) {
  const entries = new Map<string, CachedPage>();
  const stampOf = createBatchedReader(options.readStamps, options.stampIntervalMs ?? 5);
  const maxEntries = options.maxEntries ?? 2000;
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const maxAgeMs = options.maxAgeMs ?? 5 * 60_000;
  const now = options.now ?? Date.now;
  let bytes = 0;

  const sizeOf = (page: CachedPage) =>
    page.body.byteLength + (page.br?.byteLength ?? 0) + (page.gzip?.byteLength ?? 0);
  const drop = (key: string) => {
    const page = entries.get(key);
    if (!page) return;
    bytes -= sizeOf(page);
    entries.delete(key);
  };
  const store = (key: string, page: CachedPage) => {
    drop(key);
    entries.set(key, page);
    bytes += sizeOf(page);
    while (entries.size > maxEntries || bytes > maxBytes) {
      const oldest = entries.keys().next().value;
      if (oldest === undefined) break;
      drop(oldest);
    }
  };
  /** The session's stamp; undefined when it has ended, null when it could not be read. */
  const currentStamp = (token: string) =>
    stampOf(token).then(
      (found) => (found && found.validUntil > now() ? found : undefined),
      () => null,
    );

  return {
    size: () => entries.size,
    bytes: () => bytes,

    /**
     * The cached response for this request, or the response `render` gives
     * (kept when it is a 200 HTML page that sets no cookie and nothing it
     * shows changed while it was rendered). Requests the cache cannot tell
     * apart safely are only rendered: without a valid session token, with a
     * query other than `?chapter=`, or a prefetch (which renders differently:
     * it does not move the resume point).
     */
    async respond(request: Request, render: () => Promise<Response>): Promise<Response> {
      const token = options.sessionKey(request);
      const url = new URL(request.url);
      const query = [...url.searchParams.keys()];
      const purpose = request.headers.get("sec-purpose") ?? request.headers.get("purpose") ?? "";
      if (
        !token ||
        query.length > 1 ||
        (query.length === 1 && query[0] !== "chapter") ||
        /prefetch/i.test(purpose)
      ) {
        return render();
      }
      const key = `${url.pathname}${url.search}\n${token}`;
      const before = await currentStamp(token);
      // Signed out, expired, or nothing could be checked: render as if there were no cache.
      if (!before) {
        drop(key);
        return render();
      }
      const hit = entries.get(key);
      if (hit && hit.stamp === before.stamp && now() < hit.validUntil) {
        store(key, hit);
        const size = sizeOf(hit);
        const response = await cachedResponse(hit, request, true);
        // A compressed copy made for this answer counts against the budget.
        if (entries.get(key) === hit) bytes += sizeOf(hit) - size;
        return response;
      }
      drop(key);

      const response = await render();
      const type = response.headers.get("content-type") ?? "";
      if (
        response.status !== 200 ||
        !type.startsWith("text/html") ||
        response.headers.has("set-cookie") ||
        response.headers.has("cache-control")
      ) {
        return response;
      }
      const body = new Uint8Array(await response.arrayBuffer());
      const after = await currentStamp(token);
      // A write during the render may or may not show in this page: not kept.
      if (after && after.stamp === before.stamp && body.byteLength <= maxBodyBytes) {
        const page: CachedPage = {
          stamp: before.stamp,
          validUntil: Math.min(after.validUntil, now() + maxAgeMs),
          contentType: type,
          body,
          etag: `"p-${createHash("sha1").update(body).digest("base64url")}"`,
        };
        store(key, page);
        // Plain: the shell's compression middleware encodes this first answer.
        return cachedResponse(page, request, false);
      }
      return new Response(body, { status: 200, headers: response.headers });
    },
  };
}

export type PageCache = ReturnType<typeof createPageCache>;

const brotli = promisify(brotliCompress);
const gzip = promisify(gzipCallback);

async function cachedResponse(
  page: CachedPage,
  request: Request,
  encode: boolean,
): Promise<Response> {
  const headers: Record<string, string> = {
    "Content-Type": page.contentType,
    // Theirs alone: no shared cache, no back-button copy after logout.
    "Cache-Control": "private, no-store",
    Vary: "Cookie, Accept-Encoding",
    ETag: page.etag,
  };
  if (request.headers.get("if-none-match") === page.etag) {
    return new Response(null, { status: 304, headers });
  }
  const accept = request.headers.get("accept-encoding") ?? "";
  let body = page.body;
  // Compressed off the main thread, once per page, on the first hit that asks.
  if (encode && /\bbr\b/.test(accept)) {
    page.brPending ??= brotli(page.body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 5 },
    }).then((b) => {
      page.br = new Uint8Array(b);
      return page.br;
    });
    body = page.br ?? (await page.brPending);
    headers["Content-Encoding"] = "br";
  } else if (encode && /\bgzip\b/.test(accept)) {
    page.gzipPending ??= gzip(page.body, { level: 6 }).then((b) => {
      page.gzip = new Uint8Array(b);
      return page.gzip;
    });
    body = page.gzip ?? (await page.gzipPending);
    headers["Content-Encoding"] = "gzip";
  }
  // Not on a plain first answer: the compression middleware replaces its body, and Hono
  // would carry this length over to the compressed response.
  if (encode) headers["Content-Length"] = String(body.byteLength);
  return new Response(request.method === "HEAD" ? null : body, { headers });
}
