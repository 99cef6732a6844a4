import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { maxUploadBodyBytes } from "~/route-policies";
import { clientAddressOf, createHttpApp } from "./app.server";
import { loadStaticFiles } from "./static-files.server";

const origin = "http://localhost:3000";

async function makeApp() {
  const dir = mkdtempSync(path.join(tmpdir(), "client-"));
  mkdirSync(path.join(dir, "assets"));
  writeFileSync(path.join(dir, "index.html"), `<!doctype html><h1>Home</h1>${" ".repeat(2000)}`);
  writeFileSync(path.join(dir, "assets", "app-abc123.js"), `console.log(1);${" ".repeat(2000)}`);
  const seen: Request[] = [];
  const app = createHttpApp({
    publicOrigin: origin,
    staticFiles: await loadStaticFiles(dir),
    handleRequest: async (request) => {
      seen.push(request);
      return new Response(`rendered ${new URL(request.url).pathname}`);
    },
  });
  return { app, seen };
}

describe("HTTP shell", () => {
  it("serves a prerendered page from memory, compressed, with security headers", async () => {
    const { app, seen } = await makeApp();
    const res = await app.request("/", { headers: { "accept-encoding": "gzip" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).toContain("<h1>Home</h1>");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(seen).toHaveLength(0);
  });

  it("answers 304 to a matching ETag", async () => {
    const { app } = await makeApp();
    const etag = (await app.request("/")).headers.get("etag") ?? "";
    const res = await app.request("/", { headers: { "if-none-match": etag } });
    expect(res.status).toBe(304);
  });

  it("marks hashed assets immutable and prefers brotli", async () => {
    const { app } = await makeApp();
    const res = await app.request("/assets/app-abc123.js", {
      headers: { "accept-encoding": "gzip, br" },
    });
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("content-encoding")).toBe("br");
  });

  it("renders a prerendered path for a signed-in user instead of the visitor copy", async () => {
    const { app, seen } = await makeApp();
    const res = await app.request("/", { headers: { cookie: "better-auth.session_token=abc" } });
    expect(await res.text()).toBe("rendered /");
    expect(seen).toHaveLength(1);
  });

  it("serves a sign-in page from memory only for its plain URL", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "client-"));
    mkdirSync(path.join(dir, "login"));
    writeFileSync(path.join(dir, "login", "index.html"), "<h1>Sign in</h1>");
    writeFileSync(path.join(dir, "index.html"), "<h1>Home</h1>");
    const seen: string[] = [];
    const app = createHttpApp({
      publicOrigin: origin,
      staticFiles: await loadStaticFiles(dir, { plainUrlOnly: ["/login"] }),
      handleRequest: async (request) => {
        seen.push(request.url);
        return new Response("rendered");
      },
    });
    expect(await (await app.request("/login")).text()).toBe("<h1>Sign in</h1>");
    // /login?reset=1 shows a message the copy does not have: rendered per request.
    expect(await (await app.request("/login?reset=1")).text()).toBe("rendered");
    // Other pages keep their copy whatever the query.
    expect(await (await app.request("/?utm_source=mail")).text()).toBe("<h1>Home</h1>");
    expect(seen).toEqual(["http://localhost/login?reset=1"]);
  });

  it("refuses a POST from another origin with 403 and never reaches the app", async () => {
    const { app, seen } = await makeApp();
    const res = await app.request("/login", {
      method: "POST",
      headers: {
        origin: "https://evil.example",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "email=a@b.c&password=x",
    });
    expect(res.status).toBe(403);
    const fetchSite = await app.request("/logout", {
      method: "POST",
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect(fetchSite.status).toBe(403);
    expect(seen).toHaveLength(0);
  });

  it("refuses a POST without an Origin header with 403, except to the webhooks", async () => {
    const { app, seen } = await makeApp();
    const form = { "content-type": "application/x-www-form-urlencoded" };
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const res = await app.request("/admin", {
        method,
        headers: { ...form, cookie: "better-auth.session_token=abc" },
        body: "intent=create-course&title=x",
      });
      expect(res.status, method).toBe(403);
      expect(await res.text()).toBe("Request refused: it has no Origin header");
    }
    expect(seen).toHaveLength(0);
    // Payment providers' servers send no Origin; their webhooks check a signature or key.
    for (const path of ["/api/webhooks/stripe", "/api/webhooks/warriorplus"]) {
      const res = await app.request(path, { method: "POST", headers: form, body: "a=1" });
      expect(res.status, path).toBe(200);
    }
    // Reading needs no Origin.
    for (const method of ["GET", "HEAD", "OPTIONS"]) {
      expect((await app.request("/dashboard", { method })).status, method).toBe(200);
    }
    expect(seen.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      "POST /api/webhooks/stripe",
      "POST /api/webhooks/warriorplus",
      "GET /dashboard",
      "HEAD /dashboard",
      "OPTIONS /dashboard",
    ]);
  });

  it("lets a same-origin POST through", async () => {
    const { app } = await makeApp();
    const res = await app.request("/login", { method: "POST", headers: { origin }, body: "a=1" });
    expect(res.status).toBe(200);
  });

  it("refuses a body over 1 MB with 413", async () => {
    const { app, seen } = await makeApp();
    const res = await app.request("/signup", {
      method: "POST",
      headers: { origin, "content-type": "application/x-www-form-urlencoded" },
      body: "a".repeat(1024 * 1024 + 1),
    });
    expect(res.status).toBe(413);
    expect(seen).toHaveLength(0);
  });

  it("takes an upload body up to its route's limit, and refuses one beyond it", async () => {
    const { app, seen } = await makeApp();
    const send = (bytes: number) =>
      app.request("/api/uploads", {
        method: "POST",
        headers: { origin, "content-type": "application/octet-stream" },
        body: new Uint8Array(bytes),
      });
    expect((await send(2 * 1024 * 1024)).status).toBe(200);
    expect((await send(maxUploadBodyBytes + 1)).status).toBe(413);
    expect(seen).toHaveLength(1);
  });

  it("answers GET and HEAD on a route that only takes POST with 405 and Allow", async () => {
    const { app, seen } = await makeApp();
    for (const path of ["/api/uploads", "/api/webhooks/stripe", "/api/webhooks/warriorplus"]) {
      for (const method of ["GET", "HEAD"]) {
        const res = await app.request(path, { method });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.get("allow")).toBe("POST");
        expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      }
    }
    expect(seen).toHaveLength(0);
  });

  it("overwrites a client-sent x-client-ip header", async () => {
    const { app, seen } = await makeApp();
    await app.request("/dashboard", { headers: { "x-client-ip": "6.6.6.6" } });
    expect(seen[0]?.headers.get("x-client-ip")).toBeNull();
  });

  it("compresses a rendered page once, brotli first, and leaves small ones alone", async () => {
    const html = `<!doctype html><p>${"member ".repeat(500)}</p>`;
    const app = createHttpApp({
      publicOrigin: origin,
      staticFiles: new Map(),
      handleRequest: async (request) =>
        new Response(new URL(request.url).pathname === "/big" ? html : "<p>tiny</p>", {
          headers: { "Content-Type": "text/html; charset=utf-8" },
        }),
    });
    const br = await app.request("/big", { headers: { "accept-encoding": "gzip, br" } });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(html);
    const gz = await app.request("/big", { headers: { "accept-encoding": "gzip" } });
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(html);
    const plain = await app.request("/big");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(html);
    const tiny = await app.request("/tiny", { headers: { "accept-encoding": "br" } });
    expect(tiny.headers.get("content-encoding")).toBeNull();
    expect(await tiny.text()).toBe("<p>tiny</p>");
  });

  it("marks pages rendered for a signed-in user private, and keeps a route's own CSP", async () => {
    const app = createHttpApp({
      publicOrigin: origin,
      staticFiles: new Map(),
      handleRequest: async (request) =>
        new URL(request.url).pathname === "/uploads/x.png"
          ? new Response("img", { headers: { "Content-Security-Policy": "default-src 'none'" } })
          : new Response("page"),
    });
    const member = await app.request("/dashboard", {
      headers: { cookie: "better-auth.session_token=x" },
    });
    expect(member.headers.get("cache-control")).toBe("private, no-store");
    expect(member.headers.get("vary")).toContain("Cookie");
    const visitor = await app.request("/login");
    expect(visitor.headers.get("cache-control")).toBeNull();
    const image = await app.request("/uploads/x.png");
    expect(image.headers.get("content-security-policy")).toBe("default-src 'none'");
  });
});

describe("clientAddressOf", () => {
  const proxies = new Set(["10.0.0.2", "10.0.0.3"]);
  it("uses the socket address unless the socket is a trusted proxy", () => {
    expect(clientAddressOf("203.0.113.5", "198.51.100.1", proxies)).toBe("203.0.113.5");
    expect(clientAddressOf("10.0.0.2", undefined, proxies)).toBe("10.0.0.2");
  });

  it("takes the right-most forwarded address that is not a trusted proxy", () => {
    // The client may send any X-Forwarded-For of its own; only what our proxies appended counts.
    expect(clientAddressOf("10.0.0.2", "6.6.6.6, 198.51.100.1", proxies)).toBe("198.51.100.1");
    expect(clientAddressOf("10.0.0.2", "198.51.100.1, 10.0.0.3", proxies)).toBe("198.51.100.1");
  });
});
