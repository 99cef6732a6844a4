import { createServer, get as httpGet, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { buffer } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { requestContext, requestIdOf } from "../request-context.server";
import { createAnswers, securityHeaders, strictTransportSecurity } from "./answer.server";
import { createHttpApp } from "./app.server";
import { createPageCache } from "./page-cache.server";
import { probesAnswer, requestPipeline } from "./pipeline.server";
import { type StaticFile, staticEntry } from "./static-files.server";

const publicOrigin = "https://ailabs.app";
const member = "better-auth.session_token=a.b";
const page = (text: string, status = 200) =>
  new Response(`<!doctype html><main>${text}</main>${" ".repeat(2000)}`, {
    status,
    headers: { "content-type": "text/html; charset=utf-8" },
  });

/** The server as start.server.ts assembles it: ids, probes, then the request pipeline. */
async function server() {
  const files = new Map<string, StaticFile>();
  for (const [rel, body] of [
    ["/assets/app-abc.js", `console.log(1);${" ".repeat(2000)}`],
    ["/ailabs-offer/index.html", `<!doctype html><h1>Offer</h1>${" ".repeat(2000)}`],
  ] as const) {
    const [key, file] = (await staticEntry(rel, new TextEncoder().encode(body))) ?? [];
    if (key && file) files.set(key, file);
  }
  const answers = createAnswers(publicOrigin, (path) => path);
  const probes = probesAnswer({ ready: true, stopping: false }, answers);
  const listener = requestPipeline({
    first: [],
    answers,
    staticFiles: files,
    pageCache: createPageCache({
      readStamps: async (tokens) =>
        new Map(tokens.map((t) => [t, { stamp: "1", validUntil: Date.now() + 60_000 }])),
      sessionKey: (cookie) => (cookie?.includes("session_token=a.b") ? "a.b" : null),
    }),
    app: createHttpApp({
      publicOrigin,
      staticFiles: files,
      handleRequest: async (request) => {
        const path = new URL(request.url).pathname;
        if (path === "/boom") throw new Error("boom");
        return path === "/missing" ? page("Not found", 404) : page(`rendered ${path}`);
      },
    }),
    trusted: new Set(),
    routeOf: (path) => path,
  });
  const s = createServer((req, res) =>
    requestContext.run({ requestId: requestIdOf(req, new Set()) }, () => {
      if (!probes(req, res)) listener(req, res);
    }),
  );
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  return {
    get: (path: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; headers: IncomingHttpHeaders }>((resolve, reject) =>
        httpGet(`${base}${path}`, { headers }, (res) =>
          buffer(res).then(() => resolve({ status: res.statusCode ?? 0, headers: res.headers })),
        ).on("error", reject),
      ),
    close: () => new Promise<void>((resolve) => s.close(() => resolve())),
  };
}

describe("what every answer gets", () => {
  it("gives every kind of answer the same security headers and its own request id, from one place", async () => {
    const s = await server();
    try {
      const kinds = {
        "static file": await s.get("/assets/app-abc.js"),
        "prerendered public page": await s.get("/ailabs-offer"),
        "member page, rendered and kept": await s.get("/dashboard", { cookie: member }),
        "kept member page": await s.get("/dashboard", { cookie: member }),
        "kept member page, not modified": await s.get("/dashboard", {
          cookie: member,
          "if-none-match": (await s.get("/dashboard", { cookie: member })).headers.etag ?? "",
        }),
        "rendered page": await s.get("/app-builder"),
        "rendered page, signed in": await s.get("/account", { cookie: member }),
        "error page": await s.get("/missing"),
        "error thrown": await s.get("/boom"),
        "refused request": await s.get("/cookie-consent"),
        probe: await s.get("/healthz"),
      };
      expect(kinds["kept member page, not modified"].status).toBe(304);
      expect(kinds["error page"].status).toBe(404);
      expect(kinds["error thrown"].status).toBe(500);
      expect(kinds["refused request"].status).toBe(405);
      const ids = new Set<string>();
      for (const [kind, answer] of Object.entries(kinds)) {
        for (const [name, value] of Object.entries(securityHeaders)) {
          // A page's own policy names its inline scripts by their hashes: its CSP is its own.
          if (name === "Content-Security-Policy") {
            expect(answer.headers[name.toLowerCase()], kind).toMatch(/default-src 'self'/);
          } else {
            expect(answer.headers[name.toLowerCase()], `${kind}: ${name}`).toBe(value);
          }
        }
        expect(answer.headers["strict-transport-security"], kind).toBe(strictTransportSecurity);
        const id = answer.headers["x-request-id"];
        expect(id, kind).toMatch(/^[\w-]+-[0-9a-z]+$/);
        ids.add(String(id));
      }
      expect(ids.size).toBe(Object.keys(kinds).length);
      // A signed-in user's answers are theirs alone, kept or rendered.
      for (const kind of [
        "member page, rendered and kept",
        "kept member page",
        "kept member page, not modified",
        "rendered page, signed in",
      ] as const) {
        expect(kinds[kind].headers["cache-control"], kind).toBe("private, no-store");
        expect(kinds[kind].headers.vary, kind).toContain("Cookie");
      }
      expect(kinds["static file"].headers["cache-control"]).toBe(
        "public, max-age=31536000, immutable",
      );
      expect(kinds["prerendered public page"].headers["cache-control"]).toBe("no-cache");
      expect(kinds["rendered page"].headers["cache-control"]).toBeUndefined();
    } finally {
      await s.close();
    }
  });

  it("leaves a kept headers object as it was", () => {
    const answers = createAnswers("http://localhost:3000", (path) => path);
    const kept = { "Content-Type": "text/plain", ETag: '"e"' };
    const written: unknown[] = [];
    const res = {
      writeHead: (_status: number, headers: unknown) => written.push(headers),
      end: () => {},
    };
    const req = { method: "GET", headers: {} };
    requestContext.run({ requestId: "req-9" }, () =>
      answers.fromMemory(req as never, res as never, 200, kept, undefined),
    );
    expect(written[0]).toEqual(
      expect.arrayContaining(["ETag", '"e"', "X-Frame-Options", "DENY", "X-Request-Id", "req-9"]),
    );
    expect(kept).toEqual({ "Content-Type": "text/plain", ETag: '"e"' });
  });
});
