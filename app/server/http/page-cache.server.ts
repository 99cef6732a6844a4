import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip as gzipCallback } from "node:zlib";

/**
 * A cache of member pages as rendered for one session (docs/decisions/008).
 *
 * An entry is served only while the database is exactly as it was when the
 * page was rendered: each entry keeps the database snapshot
 * (`pg_current_snapshot()`) read before rendering, and a request is answered
 * from the cache only if a snapshot read after the request arrived is the
 * same. Any committed write, by this process, the CLI or another server,
 * changes the snapshot, so a refund, a logout or an edited course shows on
 * the next request, as without the cache. A session's own expiry is kept too.
 *
 * Concurrent requests share one snapshot query: a request waits for a query
 * that started after it arrived, and queries start at most every 5 ms, so the
 * check costs at most 200 queries a second however many requests arrive.
 */

export type CachedPage = {
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
  /** The database's current snapshot, as text. */
  readSnapshot: () => Promise<string>;
  /**
   * The verified session token of the request (the one its page is rendered
   * from), or null: the cache key. Without one the cache is bypassed.
   */
  sessionKey: (request: Request) => string | null;
  /** When the session of this token (sessionKey's) ends, in ms since the epoch; null without one. */
  sessionValidUntil: (token: string) => Promise<number | null>;
  maxEntries?: number;
  /** Memory for pages and their compressed copies (default 64 MB). */
  maxBytes?: number;
  maxAgeMs?: number;
  /** The least time between two snapshot reads (default 5 ms). */
  snapshotIntervalMs?: number;
  now?: () => number;
};

const maxBodyBytes = 1024 * 1024;

/**
 * Coalesces snapshot reads: each caller gets a read that began after it
 * called. Reads start at most every `minIntervalMs`, so under load the check
 * costs a bounded number of queries a second, and a request waits at most
 * about that long for it.
 */
export function createSnapshotClock(
  read: () => Promise<string>,
  minIntervalMs = 0,
): () => Promise<string> {
  let running: Promise<string> | undefined;
  let pending: Promise<string> | undefined;
  let lastStart = Number.NEGATIVE_INFINITY;
  const start = (): Promise<string> => {
    lastStart = performance.now();
    const round = read().finally(() => {
      if (running === round) running = undefined;
    });
    running = round;
    return round;
  };
  const wait = () => Math.max(0, lastStart + minIntervalMs - performance.now());
  return () => {
    // A read that has not started yet starts after this call: share it.
    if (pending) return pending;
    if (!running && wait() === 0) return start();
    // The running read may have begun before this call: wait for the next one.
    const before = running ? running.catch(() => undefined) : Promise.resolve(undefined);
    pending = before
      .then(() => new Promise((resolve) => setTimeout(resolve, wait())))
      .then(() => {
        pending = undefined;
        return start();
      });
    return pending;
  };
}

export function createPageCache(options: PageCacheOptions) {
  const entries = new Map<string, CachedPage>();
  const snapshot = createSnapshotClock(options.readSnapshot, options.snapshotIntervalMs ?? 5);
  const maxEntries = options.maxEntries ?? 2000;
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const maxAgeMs = options.maxAgeMs ?? 5 * 60_000;
  const now = options.now ?? Date.now;
  /** The newest snapshot seen: entries of any other are dead and dropped at once. */
  let generation: string | undefined;
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

  return {
    size: () => entries.size,
    bytes: () => bytes,

    /**
     * The cached response for this request, or the response `render` gives
     * (kept when it is a 200 HTML page that sets no cookie). Requests the
     * cache cannot tell apart safely are only rendered: without a valid
     * session token, with a query other than `?chapter=`, or a prefetch
     * (which renders differently: it does not move the resume point).
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
      // Without a snapshot nothing can be checked: render as if there were no cache.
      const current = await snapshot().catch(() => null);
      if (current === null) return render();
      if (current !== generation) {
        entries.clear();
        bytes = 0;
        generation = current;
      }
      const hit = entries.get(key);
      if (hit && now() < hit.validUntil) {
        store(key, hit);
        const before = sizeOf(hit);
        const response = await cachedResponse(hit, request, true);
        // A compressed copy made for this answer counts against the budget.
        if (entries.get(key) === hit) bytes += sizeOf(hit) - before;
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
      const sessionEnd = await options.sessionValidUntil(token);
      // A write during the render made this page one of an older database: not kept.
      if (
        generation === current &&
        body.byteLength <= maxBodyBytes &&
        sessionEnd !== null &&
        sessionEnd > now()
      ) {
        const page: CachedPage = {
          validUntil: Math.min(sessionEnd, now() + maxAgeMs),
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
