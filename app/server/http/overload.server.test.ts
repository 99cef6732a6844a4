import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { busyTryAgain, serverBusy } from "~/lib/busy";
import { createAnswers, securityHeaders } from "./answer.server";
import { createHttpApp } from "./app.server";
import { createPageCache } from "./page-cache.server";
import { requestPipeline, requestQueue } from "./pipeline.server";

const origin = "http://127.0.0.1";
const member = "better-auth.session_token=a.b";

/** The pipeline with one turn and a wait of 50 ms; /slow holds its turn until released. */
async function overloadedServer() {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const seen: string[] = [];
  const listener = requestPipeline({
    first: [],
    answers: createAnswers(origin, (path) => path),
    staticFiles: new Map(),
    pageCache: createPageCache({
      readStamps: async (tokens) =>
        new Map(tokens.map((t) => [t, { stamp: "1", validUntil: Date.now() + 60_000 }])),
      sessionKey: (cookie) => (cookie?.includes("session_token=a.b") ? "a.b" : null),
    }),
    app: createHttpApp({
      publicOrigin: origin,
      staticFiles: new Map(),
      handleRequest: async (request) => {
        const path = new URL(request.url).pathname;
        seen.push(`${request.method} ${path}`);
        if (path === "/slow") await held;
        return new Response(`<!doctype html><main>${path}</main>`, {
          headers: { "content-type": "text/html; charset=utf-8" },
        });
      },
    }),
    trusted: new Set(),
    routeOf: (path) => path,
    work: requestQueue(1, 50),
  });
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    ask: (path: string, init: RequestInit = {}) => fetch(`${base}${path}`, init),
    base,
    release,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("past the server's capacity", () => {
  it("answers what waited its longest for a turn 503 busy with Retry-After, then serves again", async () => {
    const s = await overloadedServer();
    try {
      const slow = s.ask("/slow");
      await new Promise((resolve) => setTimeout(resolve, 20));

      const started = performance.now();
      const [page, write] = await Promise.all([
        // A member page the page cache would render, and a form's POST the app acts on.
        s.ask("/dashboard", { headers: { cookie: member } }),
        s.ask("/course/x.data", {
          method: "POST",
          headers: {
            cookie: member,
            origin: s.base,
            "content-type": "application/x-www-form-urlencoded",
          },
          body: "chapterId=y&done=true",
        }),
      ]);
      const waited = performance.now() - started;
      for (const answer of [page, write]) {
        expect(answer.status).toBe(503);
        expect(answer.headers.get("retry-after")).toBe("5");
        expect(answer.headers.get("x-content-type-options")).toBe(
          securityHeaders["X-Content-Type-Options"],
        );
        const text = await answer.text();
        expect(text).toContain(busyTryAgain);
        expect(text).toContain(serverBusy);
      }
      expect(waited).toBeGreaterThanOrEqual(45);
      expect(waited).toBeLessThan(1000);
      // Neither reached the app: nothing was rendered or written for them.
      expect(s.seen).toEqual(["GET /slow"]);

      // The payment providers' notifications never wait for a turn.
      const webhook = await s.ask("/api/webhooks/stripe", { method: "POST", body: "{}" });
      expect(webhook.status).not.toBe(503);
      expect(s.seen).toContain("POST /api/webhooks/stripe");
      // Nor the owner's console, a form's `.data` POST included (decision 040).
      const save = await s.ask("/admin/settings.data", {
        method: "POST",
        headers: { origin, "content-type": "application/x-www-form-urlencoded" },
        body: "couponCode=X",
      });
      expect(save.status).not.toBe(503);
      expect(s.seen).toContain("POST /admin/settings.data");
      const consolePage = await s.ask("/admin/members");
      expect(consolePage.status).not.toBe(503);
      expect(s.seen).toContain("GET /admin/members");

      s.release();
      expect((await slow).status).toBe(200);
      const again = await s.ask("/dashboard", { headers: { cookie: member } });
      expect(again.status).toBe(200);
      expect(await again.text()).toContain("/dashboard");
    } finally {
      s.release();
      await s.close();
    }
  });

  it("answers a kept member page from memory without a turn; a page rendered holds its turn until written", async () => {
    const s = await overloadedServer();
    try {
      // Kept by the page cache while the server is idle.
      const first = await s.ask("/dashboard", { headers: { cookie: member } });
      expect(first.status).toBe(200);
      await first.text();
      const rendered = s.seen.length;

      // The only turn is taken: the kept page is still answered, from memory.
      const slow = s.ask("/slow");
      await new Promise((resolve) => setTimeout(resolve, 20));
      const kept = await s.ask("/dashboard", { headers: { cookie: member } });
      expect(kept.status).toBe(200);
      expect(await kept.text()).toContain("/dashboard");
      expect(s.seen.length).toBe(rendered + 1); // only /slow reached the app

      // A page that must be rendered waits for the turn, and past the wait is turned away.
      const other = await s.ask("/course/x", { headers: { cookie: member } });
      expect(other.status).toBe(503);
      s.release();
      expect((await slow).status).toBe(200);
      const now = await s.ask("/course/x", { headers: { cookie: member } });
      expect(now.status).toBe(200);
    } finally {
      s.release();
      await s.close();
    }
  });
});
