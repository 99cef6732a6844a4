import { createHash } from "node:crypto";

/**
 * Member pages rendered once for what they show, not once per member
 * (docs/decisions/057-renders-kept-by-what-they-show.md).
 *
 * A page the member page cache keeps (app/route-policies.ts, pageCache) is
 * a function of its address and its routes' data alone: the data React
 * Router sends to the browser holds everything its components read, and it
 * names no member (the root's data says only what kind of user is signed
 * in). Two members on the same chapter with the same chapters done are sent
 * the same page. So the page is rendered once for its address and data, and
 * kept here in the form the page cache keeps pages in: no nonce, its inline
 * scripts named by their hashes in its Content-Security-Policy (csp.server.ts,
 * keptPage). Every other member whose loaders read the same data is answered
 * those bytes without React rendering them again.
 *
 * Nothing here needs invalidating: a page changes only when its data does,
 * and then its key does too. Entries go when least recently used, and after
 * a few minutes, like kept pages.
 */

export type KeptRender = {
  body: Uint8Array<ArrayBuffer>;
  /** The page's Content-Security-Policy, naming its scripts by their hashes. */
  policy: string | undefined;
};

export type PageRendersOptions = {
  /** Renders held at most (default 300). */
  maxEntries?: number;
  /** Memory for them (default 16 MB). */
  maxBytes?: number;
  maxAgeMs?: number;
  now?: () => number;
};

type Entry = KeptRender & { until: number };

/**
 * The key of a page: its full address, its status and the data React Router
 * serialised for it (the turbo-stream text its `<Scripts>` send), hashed.
 */
export function renderKey(url: string, status: number, data: string): string {
  return createHash("sha256").update(`${url}\n${status}\n`).update(data).digest("base64url");
}

export function createPageRenders(options: PageRendersOptions = {}) {
  const entries = new Map<string, Entry>();
  const maxEntries = options.maxEntries ?? 300;
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
  const maxAgeMs = options.maxAgeMs ?? 5 * 60_000;
  const now = options.now ?? Date.now;
  let bytes = 0;
  /** The renders under way, by key: undefined when the page turned out not to be kept. */
  const making = new Map<string, Promise<KeptRender | undefined>>();

  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    bytes -= entry.body.byteLength;
    entries.delete(key);
  };

  function get(key: string): KeptRender | undefined {
    const entry = entries.get(key);
    if (!entry) return undefined;
    entries.delete(key);
    if (now() >= entry.until) {
      bytes -= entry.body.byteLength;
      return undefined;
    }
    entries.set(key, entry);
    return entry;
  }

  function keep(key: string, render: KeptRender) {
    drop(key);
    if (render.body.byteLength > maxBytes) return;
    entries.set(key, { body: render.body, policy: render.policy, until: now() + maxAgeMs });
    bytes += render.body.byteLength;
    while (entries.size > maxEntries || bytes > maxBytes) {
      const oldest = entries.keys().next().value;
      if (oldest === undefined) break;
      drop(oldest);
    }
  }

  return {
    size: () => entries.size,
    bytes: () => bytes,
    /** The render kept under `key` (made most recently used), if any. */
    get,
    keep,
    /**
     * The page for `key`: the render kept, else the one another request is
     * making for it (one render for the members who ask at once), else what
     * `render` makes, kept when it says so (a page that failed is not).
     */
    async page<T extends KeptRender>(
      key: string,
      render: () => Promise<{ page: T; keep: boolean }>,
    ): Promise<KeptRender | T> {
      const kept = get(key);
      if (kept) return kept;
      const underWay = making.get(key);
      const shared = underWay && (await underWay);
      if (shared) return shared;
      const made = render();
      const mine = made.then(
        (r) => (r.keep ? r.page : undefined),
        () => undefined,
      );
      making.set(key, mine);
      try {
        const { page, keep: keeps } = await made;
        if (keeps) keep(key, page);
        return page;
      } finally {
        if (making.get(key) === mine) making.delete(key);
      }
    },
    clear() {
      entries.clear();
      bytes = 0;
    },
  };
}

export type PageRenders = ReturnType<typeof createPageRenders>;

/** This process's renders, shared by every request it renders. */
export const pageRenders = createPageRenders();
