import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type RequestListener,
  type Server,
} from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { getRequestListener } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAnswers } from "./answer.server";
import { createHttpApp } from "./app.server";
import { contentSecurityPolicy, inlineScriptHashes } from "./csp.server";
import { type FastAnswer, forwardedUrls, nodeListener, staticFilesAnswer } from "./pipeline.server";
import { loadStaticFiles, type StaticFile, staticEntry } from "./static-files.server";

const homeHtml = `<!doctype html><h1>Home</h1><script>window.ready = 1;</script>${" ".repeat(2000)}`;
const loginHtml = `<!doctype html><h1>Sign in</h1>${" ".repeat(2000)}`;
const script = `console.log(1);${" ".repeat(2000)}`;

/** A client build: two prerendered pages (one with its data), a hashed asset and a small icon. */
async function clientBuild(): Promise<Map<string, StaticFile>> {
  const dir = mkdtempSync(path.join(tmpdir(), "client-"));
  mkdirSync(path.join(dir, "assets"));
  mkdirSync(path.join(dir, "login"));
  mkdirSync(path.join(dir, ".vite"));
  writeFileSync(path.join(dir, "index.html"), homeHtml);
  writeFileSync(path.join(dir, "login", "index.html"), loginHtml);
  writeFileSync(path.join(dir, "login.data"), `[{"_1":2},"routes/auth/login",null]`);
  writeFileSync(path.join(dir, "assets", "app-abc123.js"), script);
  writeFileSync(path.join(dir, "favicon.ico"), "icon");
  writeFileSync(path.join(dir, ".vite", "manifest.json"), "{}");
  return loadStaticFiles(dir, { plainUrlOnly: ["/login"] });
}

const label = () => "(app)";

type Reply = { status: number; headers: IncomingHttpHeaders; body: Buffer };

function send(
  server: Server,
  url: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, path: url, method: options.method ?? "GET" },
      (res) =>
        buffer(res).then(
          (body) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }),
          reject,
        ),
    );
    for (const [name, value] of Object.entries(options.headers ?? {})) req.setHeader(name, value);
    req.on("error", reject);
    req.end();
  });
}

/** Status, headers (less the ones Node adds per response) and body, to compare two servers. */
function comparable({ status, headers, body }: Reply) {
  const { date: _date, connection: _connection, "keep-alive": _keepAlive, ...rest } = headers;
  return { status, headers: rest, body: body.toString("base64") };
}

function listen(listener: RequestListener): Promise<Server> {
  const server = createServer(listener);
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/**
 * The same shell twice: `before`, the Hono app alone (as `serve({ fetch: app.fetch })`
 * runs it), and `after`, the node listener with the static answer in front of it.
 * `reachedApp` lists the URLs the listener handed on to the app.
 */
async function servers(publicOrigin: string) {
  const files = await clientBuild();
  const app = createHttpApp({
    publicOrigin,
    staticFiles: files,
    handleRequest: async (request) => {
      const url = new URL(request.url);
      return new Response(`rendered ${url.pathname}${url.search}`);
    },
  });
  const honoListener = getRequestListener(app.fetch);
  const reachedApp: string[] = [];
  const before = await listen(honoListener);
  const after = await listen(
    nodeListener([staticFilesAnswer(files, createAnswers(publicOrigin, label))], (req, res) => {
      reachedApp.push(`${req.method} ${req.url}`);
      return honoListener(req, res);
    }),
  );
  return { files, before, after, reachedApp };
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

describe("staticFilesAnswer", () => {
  let s: Awaited<ReturnType<typeof servers>>;
  beforeAll(async () => {
    s = await servers("http://localhost:3000");
  });
  afterAll(async () => {
    await close(s.before);
    await close(s.after);
  });

  it("answers pages and assets with the same status, headers and bytes as the Hono shell", async () => {
    s.reachedApp.length = 0;
    for (const url of ["/", "/login", "/login.data", "/assets/app-abc123.js", "/favicon.ico"]) {
      for (const method of ["GET", "HEAD"]) {
        for (const acceptEncoding of ["gzip, deflate, br", "gzip", ""]) {
          const headers: Record<string, string> = acceptEncoding
            ? { "accept-encoding": acceptEncoding }
            : {};
          const expected = await send(s.before, url, { method, headers });
          const actual = await send(s.after, url, { method, headers });
          expect(comparable(actual), `${method} ${url} ${acceptEncoding}`).toEqual(
            comparable(expected),
          );
        }
      }
    }
    expect(s.reachedApp).toEqual([]);
  });

  it("sends the headers of a static page and an asset", async () => {
    const page = await send(s.after, "/", { headers: { "accept-encoding": "gzip, br" } });
    expect(page.status).toBe(200);
    expect(page.headers).toMatchObject({
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-cache",
      etag: s.files.get("/")?.etag,
      vary: "Cookie, Accept-Encoding",
      "content-encoding": "br",
      "content-length": String(page.body.byteLength),
      "x-content-type-options": "nosniff",
      "referrer-policy": "strict-origin-when-cross-origin",
      "x-frame-options": "DENY",
      // The page's own policy: its inline scripts by their hashes.
      "content-security-policy": contentSecurityPolicy(inlineScriptHashes(homeHtml), { path: "/" }),
      "cross-origin-opener-policy": "same-origin",
      "permissions-policy": "camera=(), microphone=(), geolocation=()",
    });
    expect(page.headers["content-security-policy"]).toMatch(/script-src 'self' 'sha256-/);
    expect(page.headers["strict-transport-security"]).toBeUndefined();
    expect(brotliDecompressSync(page.body).toString()).toBe(homeHtml);

    const asset = await send(s.after, "/assets/app-abc123.js", {
      headers: { "accept-encoding": "gzip" },
    });
    expect(asset.headers).toMatchObject({
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "public, max-age=31536000, immutable",
      "content-encoding": "gzip",
      "x-frame-options": "DENY",
    });
    expect(gunzipSync(asset.body).toString()).toBe(script);

    const identity = await send(s.after, "/assets/app-abc123.js");
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.body.toString()).toBe(script);
  });

  it("answers the same again from the replies it keeps, and a replaced file with its own", async () => {
    const files = await clientBuild();
    const server = await listen(
      nodeListener([staticFilesAnswer(files, createAnswers("http://x", label))], () => {}),
    );
    try {
      const headers = { "accept-encoding": "gzip" };
      const first = await send(server, "/login", { headers });
      expect(comparable(await send(server, "/login", { headers }))).toEqual(comparable(first));
      // More distinct Accept-Encoding values than a file keeps replies for: each still right.
      for (let i = 0; i < 40; i++) {
        const res = await send(server, "/login", { headers: { "accept-encoding": `br;q=0.${i}` } });
        expect(res.headers["content-encoding"], String(i)).toBe("br");
      }
      // Rendered again (offer settings changed): the new bytes, validator and length.
      const html = `<!doctype html><title>Sign in, again</title>${"<p>Welcome back.</p>".repeat(40)}`;
      const [, login] =
        (await staticEntry("/login/index.html", new TextEncoder().encode(html))) ?? [];
      if (!login) throw new Error("no entry");
      files.set("/login", login);
      const again = await send(server, "/login", { headers });
      expect(again.headers.etag).toBe(login.etag);
      expect(again.headers.etag).not.toBe(first.headers.etag);
      expect(gunzipSync(again.body).toString()).toBe(html);
    } finally {
      await close(server);
    }
  });

  it("answers a visitor who has chosen in the cookie banner the page's copy without it", async () => {
    const files = new Map<string, StaticFile>();
    // Rendered at build with a nonce, which the page's policy (hashes) does not name: left out.
    const rendered = `<!DOCTYPE html><html lang="en"><body><section id="cookie-banner">We use cookies</section><script nonce="c3xzkFnpvGcNBu/Lk7I+1w==">a()</script></body></html>${" ".repeat(600)}`;
    const html = rendered.replace(' nonce="c3xzkFnpvGcNBu/Lk7I+1w=="', "");
    for (const [rel, body] of [
      ["/white-label-upsell/index.html", rendered],
      ["/white-label-upsell.data", "[]"],
    ] as const) {
      const [key, file] = (await staticEntry(rel, new TextEncoder().encode(body))) ?? [];
      if (key && file) files.set(key, file);
    }
    const server = await listen(
      nodeListener([staticFilesAnswer(files, createAnswers("http://x", label))], () => {}),
    );
    try {
      const first = await send(server, "/white-label-upsell");
      expect(first.body.toString()).toBe(html);
      expect(first.headers.vary).toBe("Cookie, Accept-Encoding");
      for (const consent of ["all", "essential", "none"]) {
        const cookie = `theme=dark; cookie_consent=${consent}`;
        for (const encoding of ["", "br", "gzip"]) {
          const chosen = await send(server, "/white-label-upsell", {
            headers: { cookie, "accept-encoding": encoding },
          });
          const body =
            encoding === "br"
              ? brotliDecompressSync(chosen.body)
              : encoding === "gzip"
                ? gunzipSync(chosen.body)
                : chosen.body;
          expect(body.toString()).toBe(html.replace("<html", '<html data-cookie-consent=""'));
          expect(chosen.headers.etag).not.toBe(first.headers.etag);
          // The same scripts, so the same policy (the upsell page's, with the marketplace's host).
          expect(chosen.headers["content-security-policy"]).toBe(
            first.headers["content-security-policy"],
          );
          expect(chosen.headers["content-security-policy"]).toContain("https://warriorplus.com");
        }
      }
      // The page's data is the same for everyone.
      const data = await send(server, "/white-label-upsell.data", {
        headers: { cookie: "cookie_consent=all" },
      });
      expect(data.headers.etag).toBe(files.get("/white-label-upsell.data")?.etag);
    } finally {
      await close(server);
    }
  });

  it("answers HEAD with the headers of the GET and no body", async () => {
    const get = await send(s.after, "/login", { headers: { "accept-encoding": "br" } });
    const head = await send(s.after, "/login", {
      method: "HEAD",
      headers: { "accept-encoding": "br" },
    });
    expect(head.status).toBe(200);
    expect(head.body.byteLength).toBe(0);
    expect(head.headers["content-length"]).toBe(String(get.body.byteLength));
    expect(head.headers["content-encoding"]).toBe("br");
    expect(head.headers.etag).toBe(get.headers.etag);
  });

  it("answers 304 to a matching ETag, like the shell", async () => {
    for (const url of ["/", "/assets/app-abc123.js"]) {
      const etag = s.files.get(url)?.etag ?? "";
      const headers = { "if-none-match": etag, "accept-encoding": "br" };
      const res = await send(s.after, url, { headers });
      expect(res.status).toBe(304);
      expect(res.body.byteLength).toBe(0);
      expect(res.headers.etag).toBe(etag);
      expect(comparable(res)).toEqual(comparable(await send(s.before, url, { headers })));
      const stale = await send(s.after, url, { headers: { "if-none-match": '"old"' } });
      expect(stale.status).toBe(200);
    }
  });

  it("hands a prerendered page asked for with a session cookie to the app; assets stay fast", async () => {
    s.reachedApp.length = 0;
    const cookie = "theme=dark; better-auth.session_token=abc.def";
    for (const url of ["/", "/login", "/login.data"]) {
      const res = await send(s.after, url, { headers: { cookie } });
      expect(res.body.toString()).toBe(`rendered ${url}`);
      expect(res.headers["cache-control"]).toBe("private, no-store");
    }
    const asset = await send(s.after, "/assets/app-abc123.js", { headers: { cookie } });
    expect(asset.body.toString()).toBe(script);
    expect(s.reachedApp).toEqual(["GET /", "GET /login", "GET /login.data"]);
  });

  it("hands unknown paths, other methods and a sign-in page with a query string to the app", async () => {
    s.reachedApp.length = 0;
    expect((await send(s.after, "/dashboard")).body.toString()).toBe("rendered /dashboard");
    expect((await send(s.after, "/login?reset=1")).body.toString()).toBe("rendered /login?reset=1");
    const post = await send(s.after, "/login", {
      method: "POST",
      headers: { origin: "http://localhost:3000" },
    });
    expect(post.body.toString()).toBe("rendered /login");
    expect(s.reachedApp).toEqual(["GET /dashboard", "GET /login?reset=1", "POST /login"]);

    // Other public pages keep their copy whatever the query (campaign parameters).
    const campaign = await send(s.after, "/?utm_source=mail");
    expect(campaign.headers.etag).toBe(s.files.get("/")?.etag);
    const data = await send(s.after, "/login.data?_routes=routes%2Fauth%2Flogin");
    expect(data.headers.etag).toBe(s.files.get("/login.data")?.etag);
    expect(s.reachedApp).toHaveLength(3);
  });

  it("leaves URLs the app would decode or normalise to the app, which answers them the same", async () => {
    s.reachedApp.length = 0;
    const odd = [
      "/%61ssets/app-abc123.js",
      "/./login",
      "/assets/../favicon.ico",
      "/.vite/manifest.json",
    ];
    for (const url of odd) {
      const expected = await send(s.before, url);
      const actual = await send(s.after, url);
      expect(actual.status, url).toBe(200);
      expect(comparable(actual), url).toEqual(comparable(expected));
    }
    expect(s.reachedApp).toEqual(odd.map((url) => `GET ${url}`));
  });
});

describe("staticFilesAnswer on https", () => {
  it("adds Strict-Transport-Security as the shell does", async () => {
    const s = await servers("https://ailabs.app");
    try {
      const res = await send(s.after, "/");
      expect(res.headers["strict-transport-security"]).toBe("max-age=63072000; includeSubDomains");
      expect(comparable(res)).toEqual(comparable(await send(s.before, "/")));
      expect(s.reachedApp).toEqual([]);
    } finally {
      await close(s.before);
      await close(s.after);
    }
  });
});

describe("nodeListener", () => {
  const text =
    (body: string): FastAnswer =>
    (_req, res) => {
      res.writeHead(200, { "Content-Type": "text/plain" }).end(body);
      return true;
    };
  const app: RequestListener = (_req, res) => {
    res.writeHead(200).end("app");
  };

  it("tries the answers in order, waits for one that is async, and ends with the app", async () => {
    const tried: string[] = [];
    const server = await listen(
      nodeListener(
        [
          (req) => {
            tried.push(`sync ${req.url}`);
            return false;
          },
          async (req, res) => {
            tried.push(`async ${req.url}`);
            await new Promise((resolve) => setTimeout(resolve, 5));
            return req.url === "/late" && text("late")(req, res);
          },
          (req, res) => req.url === "/first" && text("first")(req, res),
        ],
        app,
      ),
    );
    try {
      expect((await send(server, "/first")).body.toString()).toBe("first");
      expect((await send(server, "/late")).body.toString()).toBe("late");
      expect((await send(server, "/other")).body.toString()).toBe("app");
      expect(tried).toEqual([
        "sync /first",
        "async /first",
        "sync /late",
        "async /late",
        "sync /other",
        "async /other",
      ]);
    } finally {
      await close(server);
    }
  });

  it("hands the request to the app when an answer fails before writing", async () => {
    const broken: FastAnswer[] = [
      () => {
        throw new Error("broken");
      },
      async () => {
        throw new Error("broken later");
      },
    ];
    for (const answer of broken) {
      const server = await listen(nodeListener([answer, text("never")], app));
      try {
        const res = await send(server, "/");
        expect(res.status).toBe(200);
        expect(res.body.toString()).toBe("app");
      } finally {
        await close(server);
      }
    }
  });
});

describe("forwardedUrls", () => {
  // What the app sees as request.url, through @hono/node-server as the server runs it.
  const echoUrl = getRequestListener((request) => new Response(request.url));
  const urlSeen = async (trusted: string[], target: string, headers: Record<string, string>) => {
    const server = await listen(forwardedUrls(echoUrl, new Set(trusted)));
    try {
      return (await send(server, target, { headers })).body.toString();
    } finally {
      await close(server);
    }
  };
  const behindTls = { host: "shop.example", "x-forwarded-proto": "https" };

  it("takes the scheme and host the browser used from a trusted proxy", async () => {
    expect(await urlSeen(["127.0.0.1"], "/login?next=%2Fa", behindTls)).toBe(
      "https://shop.example/login?next=%2Fa",
    );
    expect(
      await urlSeen(["127.0.0.1"], "/signup", {
        ...behindTls,
        host: "10.0.0.11:3000",
        "x-forwarded-host": "shop.example",
      }),
    ).toBe("https://shop.example/signup");
    // Proxies that append: the nearest one's entry counts.
    expect(
      await urlSeen(["127.0.0.1"], "/", {
        host: "shop.example",
        "x-forwarded-proto": "http, https",
      }),
    ).toBe("https://shop.example/");
  });

  it("never believes the headers of a client that is not a trusted proxy", async () => {
    expect(await urlSeen([], "/login", behindTls)).toBe("http://shop.example/login");
    expect(await urlSeen(["10.0.0.1"], "/login", behindTls)).toBe("http://shop.example/login");
    expect(
      await urlSeen(["10.0.0.1"], "/login", { ...behindTls, "x-forwarded-host": "evil.example" }),
    ).toBe("http://shop.example/login");
    // Nor an absolute target's scheme or host: the path, on the socket's scheme and Host.
    expect(await urlSeen([], "https://evil.example/account?x=1", { host: "shop.example" })).toBe(
      "http://shop.example/account?x=1",
    );
  });

  it("leaves the URL to the socket when a trusted proxy says nothing or something odd", async () => {
    const trusted = ["127.0.0.1"];
    expect(await urlSeen(trusted, "/a", { host: "shop.example" })).toBe("http://shop.example/a");
    expect(
      await urlSeen(trusted, "/a", { host: "shop.example", "x-forwarded-proto": "javascript" }),
    ).toBe("http://shop.example/a");
    expect(
      await urlSeen(trusted, "/a", { ...behindTls, "x-forwarded-host": "evil.example/x?" }),
    ).toBe("http://shop.example/a");
  });
});
