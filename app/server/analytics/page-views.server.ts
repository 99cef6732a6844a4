import type { IncomingMessage, ServerResponse } from "node:http";
import { type SQL, sql } from "drizzle-orm";
import { readConsent } from "~/lib/cookie-consent";
import { type FunnelPagePath, funnelStepOf, isPrefetch } from "~/route-policies";
import type { Db } from "../db/client.server";
import { logger } from "../logger.server";

/**
 * First-party counting of the funnel's pages (docs/product.md, Funnel): views
 * per day and page, only for visitors who accepted analytical cookies
 * (consent "all"). No cookie of its own and no script: the HTTP shell counts
 * the request itself. A view is a Map increment; the sums reach the database
 * in batches, one upsert for everything pending.
 */

const crawler = /bot|crawl|spider|slurp/i;

/**
 * The path a request would be counted under once answered, or null: not a
 * funnel page, no consent "all", a prefetch or prerender, a crawler, HEAD.
 */
export function countedPath(
  method: string | undefined,
  url: string | undefined,
  headers: IncomingMessage["headers"],
): FunnelPagePath | null {
  const raw = url ?? "";
  const query = raw.indexOf("?");
  // Which URLs are funnel steps: app/route-policies.ts (funnel).
  const counted = funnelStepOf(method, query === -1 ? raw : raw.slice(0, query));
  if (!counted) return null;
  const cookie = headers.cookie;
  if (!cookie?.includes("cookie_consent=all")) return null;
  if (readConsent(cookie)?.consent !== "all") return null;
  if (isPrefetch(headers)) return null;
  if (crawler.test(headers["user-agent"] ?? "")) return null;
  return counted;
}

/** Whether an answer of this status is a view of the page (or, for a POST, a checkout started). */
function answeredAsView(method: string | undefined, status: number): boolean {
  return method === "GET" ? status === 200 || status === 304 : status >= 200 && status < 400;
}

/** The UTC day of a moment, as page_view.day holds it. */
export function utcDay(at: Date = new Date()): string {
  return at.toISOString().slice(0, 10);
}

export type PendingView = { day: string; path: string; views: number };

/** Views summed in memory until the next flush. */
export class PageViewCounter {
  private pending = new Map<string, PendingView>();

  count(path: string, day: string = utcDay(), views = 1): void {
    const key = `${day} ${path}`;
    const row = this.pending.get(key);
    if (row) row.views += views;
    else this.pending.set(key, { day, path, views });
  }

  /** What is waiting to be written, for tests and the log. */
  pendingViews(): PendingView[] {
    return [...this.pending.values()].map((row) => ({ ...row }));
  }

  /**
   * Adds everything pending to page_view in one statement. The counts are
   * taken out first (views made meanwhile wait for the next flush) and put
   * back if the write fails, so a failed flush loses nothing.
   */
  async flush(db: Pick<Db, "execute">): Promise<number> {
    if (this.pending.size === 0) return 0;
    const batch = this.pending;
    this.pending = new Map();
    const rows = [...batch.values()];
    try {
      await db.execute(pageViewUpsert(rows));
      return rows.length;
    } catch (error) {
      for (const row of rows) this.count(row.path, row.day, row.views);
      throw error;
    }
  }
}

/** `insert ... on conflict (day, path) do update set views = page_view.views + excluded.views`. */
export function pageViewUpsert(rows: readonly PendingView[]): SQL {
  const values = sql.join(
    rows.map((r) => sql`(${r.day}::date, ${r.path}, ${r.views})`),
    sql`, `,
  );
  return sql`insert into page_view (day, path, views) values ${values}
    on conflict (day, path) do update set views = page_view.views + excluded.views`;
}

// One counter per process, shared by the HTTP shell and the admin pages however
// the modules were loaded (development loads the app's modules through Vite).
const key = Symbol.for("ailabs.pageViews");
type WithCounter = typeof globalThis & { [key]?: PageViewCounter };

/** The process's counter. */
export function pageViews(): PageViewCounter {
  const scope = globalThis as WithCounter;
  scope[key] ??= new PageViewCounter();
  return scope[key];
}

/**
 * A fast answer (pipeline.server.ts) that answers nothing: for a request
 * to a funnel page from a visitor who accepted analytical cookies, it counts a
 * view once the response is finished with a status that shows the page. Every
 * other request costs a method check and a Map lookup.
 */
export function countPageViews(counter: PageViewCounter = pageViews()) {
  return (req: IncomingMessage, res: ServerResponse): false => {
    const path = countedPath(req.method, req.url, req.headers);
    if (path) {
      const method = req.method;
      res.once("finish", () => {
        if (answeredAsView(method, res.statusCode)) counter.count(path);
      });
    }
    return false;
  };
}

/** Writes the pending counts every `intervalMs` and once more at stop. */
export function startPageViewFlusher(
  db: Db,
  {
    counter = pageViews(),
    intervalMs = 10_000,
  }: { counter?: PageViewCounter; intervalMs?: number } = {},
): { stop(): Promise<void> } {
  const flush = async () => {
    try {
      await counter.flush(db);
    } catch (error) {
      logger.warn(
        { err: error, pending: counter.pendingViews().length },
        "page views not written yet",
      );
    }
  };
  const timer = setInterval(() => void flush(), intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
