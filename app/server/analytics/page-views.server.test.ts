import { EventEmitter } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "../db/db.server";
import { pageView } from "../db/schema";
import { countedPath, countPageViews, PageViewCounter } from "./page-views.server";

const accepted = {
  cookie: `theme=dark; cookie_consent=all; cookie_consent_at=${Date.now() - 1000}`,
};

/** A day of its own for each run: page_view is shared by every test file and run. */
function farDay(): string {
  const offset = Math.floor(Math.random() * 100_000);
  return new Date(Date.UTC(2032, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);
}

async function viewsOf(day: string, path: string): Promise<number | undefined> {
  const db = await getDb();
  const [row] = await db
    .select({ views: pageView.views })
    .from(pageView)
    .where(and(eq(pageView.day, day), eq(pageView.path, path)));
  return row?.views;
}

describe("which requests count as a view", () => {
  it("counts a GET of a funnel page, with or without a query, when analytical cookies were accepted", () => {
    expect(countedPath("GET", "/", accepted)).toBe("/");
    expect(countedPath("GET", "/ailabs-offer?utm_source=mail", accepted)).toBe("/ailabs-offer");
    expect(countedPath("GET", "/ailabs-offer2", accepted)).toBe("/ailabs-offer2");
    expect(countedPath("GET", "/white-label-upsell", accepted)).toBe("/white-label-upsell");
    expect(countedPath("GET", "/custom-saas-upsell", accepted)).toBe("/custom-saas-upsell");
    expect(countedPath("GET", "/payment-options", accepted)).toBe("/payment-options");
    expect(countedPath("GET", "/success?session_id=cs_1", accepted)).toBe("/success");
    // The app's client loads the members' funnel pages as data.
    expect(countedPath("GET", "/payment-options.data", accepted)).toBe("/payment-options");
    expect(countedPath("GET", "/success.data?session_id=cs_1", accepted)).toBe("/success");
    expect(countedPath("GET", "/ailabs-offer.data", accepted)).toBeNull();
  });

  it("counts a checkout started from the plan page's form, whichever provider it goes to", () => {
    expect(countedPath("POST", "/payment-options", accepted)).toBe("/checkout");
    expect(countedPath("POST", "/payment-options.data", accepted)).toBe("/checkout");
    expect(countedPath("GET", "/checkout/test/123", accepted)).toBeNull();
  });

  it("counts nothing without consent all, or for HEAD, prefetches, crawlers, data requests and assets", () => {
    expect(countedPath("GET", "/", {})).toBeNull();
    expect(countedPath("GET", "/", { cookie: "cookie_consent=essential" })).toBeNull();
    expect(countedPath("GET", "/", { cookie: "cookie_consent=none" })).toBeNull();
    expect(countedPath("GET", "/", { cookie: "cookie_consent=allx" })).toBeNull();
    // A choice made 2 years ago or more no longer counts.
    expect(
      countedPath("GET", "/", { cookie: "cookie_consent=all; cookie_consent_at=1" }),
    ).toBeNull();
    expect(countedPath("HEAD", "/", accepted)).toBeNull();
    expect(countedPath("GET", "/", { ...accepted, purpose: "prefetch" })).toBeNull();
    expect(
      countedPath("GET", "/", { ...accepted, "sec-purpose": "prefetch;prerender" }),
    ).toBeNull();
    expect(countedPath("GET", "/", { ...accepted, "user-agent": "Googlebot/2.1" })).toBeNull();
    expect(countedPath("GET", "/ailabs-offer.data", accepted)).toBeNull();
    expect(countedPath("GET", "/assets/root-abc.js", accepted)).toBeNull();
    expect(countedPath("GET", "/privacy-policy", accepted)).toBeNull();
    expect(countedPath("POST", "/ailabs-offer", accepted)).toBeNull();
  });

  it("counts once the answer is finished, only when it shows the page", () => {
    const counter = new PageViewCounter();
    const hook = countPageViews(counter);
    const answer = (method: string, url: string, status: number) => {
      const res = Object.assign(new EventEmitter(), { statusCode: status });
      const req = { method, url, headers: accepted } as unknown as IncomingMessage;
      expect(hook(req, res as unknown as ServerResponse)).toBe(false);
      res.emit("finish");
    };
    answer("GET", "/", 200);
    answer("GET", "/", 304);
    answer("GET", "/payment-options", 302); // a visitor sent to /login
    answer("GET", "/ailabs-offer", 404);
    answer("POST", "/payment-options", 302);
    answer("POST", "/payment-options.data", 202);
    answer("POST", "/payment-options", 400); // refused: no checkout
    expect(counter.pendingViews().map(({ path, views }) => ({ path, views }))).toEqual([
      { path: "/", views: 2 },
      { path: "/checkout", views: 2 },
    ]);
  });
});

describe("the page view counter", () => {
  it("sums views in memory and adds them in one statement", async () => {
    const db = await getDb();
    const day = farDay();
    const counter = new PageViewCounter();
    for (let i = 0; i < 3; i++) counter.count("/", day);
    counter.count("/ailabs-offer", day);
    expect(counter.pendingViews()).toEqual([
      { day, path: "/", views: 3 },
      { day, path: "/ailabs-offer", views: 1 },
    ]);
    const execute = vi.fn((query: Parameters<typeof db.execute>[0]) => db.execute(query));
    expect(await counter.flush({ execute } as never)).toBe(2);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(counter.pendingViews()).toEqual([]);
    expect(await viewsOf(day, "/")).toBe(3);

    // The next batch adds to the day's row.
    counter.count("/", day);
    counter.count("/", day);
    await counter.flush({ execute } as never);
    expect(execute).toHaveBeenCalledTimes(2);
    expect(await viewsOf(day, "/")).toBe(5);
    expect(await viewsOf(day, "/ailabs-offer")).toBe(1);
    // Nothing pending: no statement at all.
    expect(await counter.flush({ execute } as never)).toBe(0);
    expect(execute).toHaveBeenCalledTimes(2);
  });

  it("keeps the counts of a failed flush, with those made meanwhile, for the next one", async () => {
    const db = await getDb();
    const day = farDay();
    const counter = new PageViewCounter();
    counter.count("/success", day);
    counter.count("/success", day);
    const failing = {
      execute: async () => {
        counter.count("/success", day); // a view counted while the write was under way
        throw new Error("connection lost");
      },
    };
    await expect(counter.flush(failing as never)).rejects.toThrow("connection lost");
    expect(counter.pendingViews()).toEqual([{ day, path: "/success", views: 3 }]);
    expect(await viewsOf(day, "/success")).toBeUndefined();
    await counter.flush(db);
    expect(await viewsOf(day, "/success")).toBe(3);
  });

  it("page_view has no page-version trigger: counting never empties the member page cache", async () => {
    const db = await getDb();
    const result = await db.execute(sql`
      select count(*)::int as n from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where c.relname = 'page_view' and not t.tgisinternal`);
    expect((result as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(0);
  });
});
