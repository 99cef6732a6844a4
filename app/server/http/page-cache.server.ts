import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { isPrefetch, pageCacheQueryFor } from "~/route-policies";
import type { PageStamp } from "../db/page-version.server";
import { countPageCache } from "../metrics/metrics.server";
import { type Answers, signedInCache } from "./answer.server";
import { hasChosenConsent } from "./consented-page.server";
import { keptPage } from "./csp.server";
import { type ContentEncoding, decodeBody, encodeBody, negotiateEncoding } from "./encoding.server";

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
 * start at most every 2 ms, two at most running at once, so the check costs
 * at most 500 queries a second however many requests arrive, and the next
 * query is under way while the answers of the last are written
 * (docs/decisions/017-stamp-reads-overlap.md).
 *
 * Requests that find no kept page while it is being rendered under the stamp
 * they read wait for that render and are answered its page, as a hit would
 * be: one render, one turn in the request queue
 * (docs/decisions/043-one-render-per-page-and-stamp.md).
 *
 * A page is held plain until its first compressed copy is made, then as its
 * compressed copies alone (docs/decisions/050-kept-pages-kept-compressed.md);
 * pages kept for several sessions with the same bytes share them and their
 * copies (docs/decisions/058-kept-pages-share-their-bytes.md).
 */

export type CachedPage = {
  /** The stamp the page was rendered under (PageStamp.stamp). */
  stamp: string;
  /** Not served after this instant (ms): the session's expiry, or a few minutes at most. */
  validUntil: number;
  /** Where it is kept (entries), while it is. */
  key: string;
  /** Its bytes, shared with every kept page whose bytes are the same (decision 058). */
  bytes: PageBytes;
};

/**
 * A page's bytes, its headers and its compressed copies: one for all the
 * kept pages with the same bytes (the members on the same chapter with the
 * same chapters done, decision 057), so each copy is compressed and held once.
 */
export type PageBytes = {
  contentType: string;
  /**
   * The page's Content-Security-Policy, naming its inline scripts by their
   * hashes: the same bytes and header serve every answer, and no nonce does.
   */
  csp: string | undefined;
  /**
   * The page's plain bytes, kept until a compressed copy is made: then that
   * copy alone is kept (a page's brotli copy takes about an eighth of its
   * room), and the plain bytes are decompressed from it when a request asks
   * for them or for the other encoding.
   */
  body?: Uint8Array<ArrayBuffer>;
  /** Compressed on the first answer that asks for it: a page changed before then costs none. */
  br?: Uint8Array<ArrayBuffer>;
  gzip?: Uint8Array<ArrayBuffer>;
  brPending?: Promise<Uint8Array<ArrayBuffer>>;
  gzipPending?: Promise<Uint8Array<ArrayBuffer>>;
  etag: string;
  /** Where it is kept (shared), while any kept page holds it. */
  key: string;
  /** The kept pages holding it. */
  holders: number;
  /** The headers of each of its answers, made once (pageCacheAnswer). */
  answers?: Partial<Record<"not-modified" | "identity" | ContentEncoding, Record<string, string>>>;
};

/** What the cache needs of a request: its path and query, cookies, and whether it is a prefetch. */
export type PageRequest = {
  path: string;
  /** The query with its `?`, or "". */
  search: string;
  cookie: string | null | undefined;
  prefetch: boolean;
};

export type PageCacheOptions = {
  /** The stamp of each live session among these tokens (readPageStamps); absent when signed out. */
  readStamps: (tokens: string[]) => Promise<Map<string, PageStamp>>;
  /**
   * The verified session token in a Cookie header (the one the page is
   * rendered from), or null: the cache key. Without one the cache is bypassed.
   */
  sessionKey: (cookieHeader: string | null | undefined) => string | null;
  /** Pages held at most (default 1,000; decision 054). */
  maxEntries?: number;
  /** Memory for the pages held, plain or compressed (default 64 MB; decision 050). */
  maxBytes?: number;
  maxAgeMs?: number;
  /** The least time between the starts of two stamp reads (default 2 ms). */
  stampIntervalMs?: number;
  /** Stamp reads running at once at most (default 2). */
  stampReadsInFlight?: number;
  now?: () => number;
};

const maxBodyBytes = 1024 * 1024;

/**
 * Batches lookups by key: each caller gets the answer of a read that began
 * after it called, and callers waiting at the same time share one read of
 * all their keys. Reads start at most every `minIntervalMs`, and at most
 * `maxInFlight` run at once, so under load the check costs a bounded number
 * of queries a second, and a request waits at most about that long for it.
 * With more than one read in flight, the next read is already under way while
 * the answers of the last are being written, so the process never sits idle
 * waiting for the database while requests queue.
 */
export function createBatchedReader<V>(
  read: (keys: string[]) => Promise<Map<string, V>>,
  minIntervalMs = 0,
  maxInFlight = 1,
): (key: string) => Promise<V | undefined> {
  let inFlight = 0;
  /** Called when a read settles: callers waiting for a free slot. */
  let onSettle: (() => void)[] = [];
  /** The next read, not started yet: callers join it. */
  let next: { keys: Set<string>; result: Promise<Map<string, V>> } | undefined;
  let lastStart = Number.NEGATIVE_INFINITY;

  const start = (keys: Set<string>): Promise<Map<string, V>> => {
    lastStart = performance.now();
    inFlight += 1;
    const result = read([...keys]);
    const settled = () => {
      inFlight -= 1;
      const waiting = onSettle;
      onSettle = [];
      for (const resolve of waiting) resolve();
    };
    result.then(settled, settled);
    return result;
  };
  const wait = () => Math.max(0, lastStart + minIntervalMs - performance.now());
  /** Resolves once a read may start: a slot is free and the interval has passed. */
  const turn = async () => {
    while (inFlight >= maxInFlight) await new Promise<void>((resolve) => onSettle.push(resolve));
    const delay = wait();
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  };

  return (key) => {
    if (next) {
      next.keys.add(key);
      return next.result.then((found) => found.get(key));
    }
    if (inFlight < maxInFlight && wait() === 0) {
      return start(new Set([key])).then((found) => found.get(key));
    }
    const keys = new Set([key]);
    const result = turn().then(() => {
      next = undefined;
      return start(keys);
    });
    next = { keys, result };
    return result.then((found) => found.get(key));
  };
}

export function createPageCache(options: PageCacheOptions) {
  const entries = new Map<string, CachedPage>();
  /** The bytes of the kept pages, by bytes and headers: one for all pages that are the same. */
  const shared = new Map<string, PageBytes>();
  const stampOf = createBatchedReader(
    options.readStamps,
    options.stampIntervalMs ?? 2,
    options.stampReadsInFlight ?? 2,
  );
  const maxEntries = options.maxEntries ?? 1000;
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const maxAgeMs = options.maxAgeMs ?? 5 * 60_000;
  const now = options.now ?? Date.now;
  let bytes = 0;
  /** The render under way of each page, with the stamp it will be kept under. */
  const rendering = new Map<string, { stamp: string; page: Promise<CachedPage | undefined> }>();

  const drop = (key: string) => {
    const page = entries.get(key);
    if (!page) return;
    entries.delete(key);
    page.bytes.holders -= 1;
    if (page.bytes.holders > 0) return;
    shared.delete(page.bytes.key);
    bytes -= sizeOf(page.bytes);
  };
  const store = (page: CachedPage) => {
    if (entries.get(page.key) === page) {
      // Moved to most recent.
      entries.delete(page.key);
      entries.set(page.key, page);
      return;
    }
    drop(page.key);
    entries.set(page.key, page);
    page.bytes.holders += 1;
    if (page.bytes.holders === 1) {
      shared.set(page.bytes.key, page.bytes);
      bytes += sizeOf(page.bytes);
    }
    while (entries.size > maxEntries || bytes > maxBytes) {
      const oldest = entries.keys().next().value;
      if (oldest === undefined) break;
      drop(oldest);
    }
  };
  /** The cache key of a request the cache may answer (URL and session token), or null. */
  const keyOf = (ask: PageRequest): { key: string; token: string } | null => {
    // Which pages are kept, and with which query parameters: app/route-policies.ts (pageCache).
    const allowed = pageCacheQueryFor(ask.path);
    if (!allowed || ask.prefetch) return null;
    const query = [...new URLSearchParams(ask.search).keys()];
    if (query.some((name, i) => !allowed.includes(name) || query.indexOf(name) !== i)) return null;
    const token = options.sessionKey(ask.cookie);
    if (!token) return null;
    // A page rendered after a choice in the cookie banner differs (consented-page.server.ts).
    const chosen = hasChosenConsent(ask.cookie) ? "\nchosen" : "";
    return { key: `${ask.path}${ask.search}\n${token}${chosen}`, token };
  };
  /** The session's stamp; undefined when it has ended, null when it could not be read. */
  const currentStamp = (token: string) =>
    stampOf(token).then(
      (found) => (found && found.validUntil > now() ? found : undefined),
      () => null,
    );
  /** The kept page under `key` if it was rendered under this stamp (moved to most recent). */
  const fresh = (key: string, stamp: PageStamp | null | undefined) => {
    const hit = entries.get(key);
    if (!stamp || !hit || hit.stamp !== stamp.stamp || now() >= hit.validUntil) return undefined;
    store(hit);
    return hit;
  };

  const encoded = (page: CachedPage, accept: string | null | undefined): Promise<EncodedPage> =>
    encodedBody(page.bytes, accept, (change) => {
      if (shared.get(page.bytes.key) === page.bytes) bytes += change;
    });

  return {
    size: () => entries.size,
    bytes: () => bytes,

    /**
     * The one way in: the kept page for this request when a stamp read after
     * it arrived is the page's own; else the Response `render` gives, the page
     * kept when it is a 200 HTML page that sets no cookie nor a cache rule of
     * its own, under the stamp read before rendering (then the kept page is
     * returned, to be answered from memory). `render` is given that stamp,
     * whose session member the page may start from (decision 056). Undefined for a
     * request the cache cannot tell apart safely, without rendering it: no
     * valid session token, a query parameter its route's policy does not name
     * (a course takes `?chapter=`), a prefetch (which renders differently: it
     * does not move the resume point).
     */
    async page(
      ask: PageRequest,
      render: (stamp?: PageStamp) => Promise<Response>,
    ): Promise<CachedPage | Response | undefined> {
      const found = keyOf(ask);
      if (!found) return undefined;
      const before = await currentStamp(found.token);
      const hit = fresh(found.key, before);
      countPageCache(hit ? "hit" : "miss");
      if (hit) return hit;
      drop(found.key);
      // Signed out, expired, or nothing could be checked: rendered as if there were no cache.
      if (!before) return render();
      // A render of this page under this stamp is under way: its kept page answers this
      // request as a hit would, since the stamp read after this request arrived is its own.
      const shared = rendering.get(found.key);
      if (shared?.stamp === before.stamp) {
        const page = await shared.page;
        if (page) return page;
      }
      const answer = renderAndKeep(found.key, before, render);
      const mine = {
        stamp: before.stamp,
        page: answer.then(
          (kept) => (kept instanceof Response ? undefined : kept),
          () => undefined,
        ),
      };
      rendering.set(found.key, mine);
      try {
        return await answer;
      } finally {
        if (rendering.get(found.key) === mine) rendering.delete(found.key);
      }
    },

    /**
     * The page's bytes for this Accept-Encoding: brotli or gzip (compressed
     * on the zlib pool on the first answer that asks, and counted against the
     * byte budget while the page is kept), else plain.
     */
    encoded,
  };

  /** `render`'s answer, kept (and the kept page returned) when it may be. */
  async function renderAndKeep(
    key: string,
    before: PageStamp,
    render: (stamp: PageStamp) => Promise<Response>,
  ): Promise<CachedPage | Response> {
    const response = await render(before);
    const type = response.headers.get("content-type") ?? "";
    const cacheControl = response.headers.get("cache-control");
    if (
      response.status !== 200 ||
      !type.startsWith("text/html") ||
      response.headers.has("set-cookie") ||
      (cacheControl !== null && cacheControl !== signedInCache)
    ) {
      return response;
    }
    const rendered = new Uint8Array(await response.arrayBuffer());
    if (rendered.byteLength > maxBodyBytes) {
      return new Response(rendered, { status: 200, headers: response.headers });
    }
    // Kept under the stamp read before rendering: everything the page shows was read after
    // it, so it is at least that recent. A write while it was rendered (its own resume
    // point, another tab) bumps the stamp, and a kept page is answered only while the
    // stamp is the one it was kept under: such a page is never answered (decision 030).
    // Its nonce was for this answer alone: kept, its scripts are named by their hashes.
    const { body, policy } = keptPage(
      rendered,
      response.headers.get("content-security-policy") ?? undefined,
    );
    const etag = `"p-${createHash("sha1").update(body).digest("base64url")}"`;
    // Pages with the same bytes and headers share them, and their compressed copies.
    const bytesKey = `${etag}\n${type}\n${policy ?? ""}`;
    const page: CachedPage = {
      key,
      stamp: before.stamp,
      validUntil: Math.min(before.validUntil, now() + maxAgeMs),
      bytes: shared.get(bytesKey) ?? {
        key: bytesKey,
        contentType: type,
        csp: policy,
        body,
        etag,
        holders: 0,
      },
    };
    store(page);
    return page;
  }
}

export type PageCache = ReturnType<typeof createPageCache>;

export type EncodedPage = { body: Uint8Array<ArrayBuffer>; encoding: ContentEncoding | undefined };

/**
 * Compressed off the main thread, once per page and encoding, on the first
 * answer that asks; the plain bytes are then let go (CachedPage.body).
 */
async function encodedBody(
  page: PageBytes,
  accept: string | null | undefined,
  resized: (change: number) => void,
): Promise<EncodedPage> {
  const encoding = negotiateEncoding(accept);
  if (!encoding) return { body: await plainBody(page), encoding };
  const kept = page[encoding];
  if (kept) return { body: kept, encoding };
  const pending = encoding === "br" ? "brPending" : "gzipPending";
  page[pending] ??= plainBody(page)
    .then((plain) => encodeBody(plain, encoding, 5))
    .then((b) => {
      const body = new Uint8Array(b);
      const size = sizeOf(page);
      page[encoding] = body;
      page.body = undefined;
      resized(sizeOf(page) - size);
      return body;
    })
    .finally(() => {
      page[pending] = undefined;
    });
  return { body: await page[pending], encoding };
}

/** The room a kept page takes: its plain bytes while kept, and its compressed copies. */
function sizeOf(page: PageBytes): number {
  return (page.body?.byteLength ?? 0) + (page.br?.byteLength ?? 0) + (page.gzip?.byteLength ?? 0);
}

/** A kept page's plain bytes: kept, or decompressed from a compressed copy (not kept). */
async function plainBody(page: PageBytes): Promise<Uint8Array<ArrayBuffer>> {
  if (page.body) return page.body;
  if (page.br) return decodeBody(page.br, "br");
  if (page.gzip) return decodeBody(page.gzip, "gzip");
  throw new Error("a kept page has neither its plain bytes nor a compressed copy");
}

/** A kept page's own headers (answer.server.ts adds the shell's and `private, no-store`). */
export function cachedPageHeaders(
  { bytes: page }: CachedPage,
  encoded: EncodedPage | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Type": page.contentType,
    Vary: "Accept-Encoding",
    ETag: page.etag,
  };
  // The same bytes again: this policy names its inline scripts by their hashes.
  if (page.csp) headers["Content-Security-Policy"] = page.csp;
  if (encoded?.encoding) headers["Content-Encoding"] = encoded.encoding;
  if (encoded) headers["Content-Length"] = String(encoded.body.byteLength);
  return headers;
}

/**
 * The member page cache on node:http, before the app: every GET of a page it
 * keeps (app/route-policies.ts, pageCache) goes through `cache.page`, which
 * answers from memory or has `render` (the app, for this request) render it.
 * A kept page is written from memory; the app's other answers as they came.
 * The headers of each kept page's 304 and of each of its encodings are made
 * once and kept on it, so that answers.fromMemory merges them once.
 */
export function pageCacheAnswer(
  cache: PageCache,
  answers: Answers,
  render: (req: IncomingMessage, res: ServerResponse, stamp?: PageStamp) => Promise<Response>,
  routeOf: (path: string) => string = (path) => path,
) {
  // A page's bytes in one encoding never change: neither do their headers.
  const headersOf = (page: CachedPage, encoded: EncodedPage | undefined) => {
    const answer = encoded ? (encoded.encoding ?? "identity") : "not-modified";
    page.bytes.answers ??= {};
    page.bytes.answers[answer] ??= cachedPageHeaders(page, encoded);
    return page.bytes.answers[answer];
  };
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    if (req.method !== "GET") return false;
    const url = req.url ?? "";
    const q = url.indexOf("?");
    const path = q === -1 ? url : url.slice(0, q);
    if (!pageCacheQueryFor(path)) return false;
    const started = performance.now();
    let rendered = false;
    const page = await cache.page(
      {
        path,
        search: q === -1 ? "" : url.slice(q),
        cookie: req.headers.cookie,
        prefetch: isPrefetch(req.headers),
      },
      (stamp) => {
        rendered = true;
        return render(req, res, stamp);
      },
    );
    if (!page) return false;
    if (page instanceof Response) {
      await writeResponse(res, page);
      return true;
    }
    // A hit is counted here; a page rendered now was counted by the app.
    const route = rendered ? undefined : routeOf(path);
    if (req.headers["if-none-match"] === page.bytes.etag) {
      answers.fromMemory(req, res, 304, headersOf(page, undefined), undefined, route, started);
      return true;
    }
    const encoded = await cache.encoded(page, req.headers["accept-encoding"]);
    answers.fromMemory(req, res, 200, headersOf(page, encoded), encoded.body, route, started);
    return true;
  };
}

/** Writes a Response the app gave (its headers complete: answer.server.ts) on node:http. */
async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: string[] = [];
  for (const [name, value] of response.headers) headers.push(name, value);
  const body = response.body ? new Uint8Array(await response.arrayBuffer()) : undefined;
  res.writeHead(response.status, headers);
  res.end(body);
}
