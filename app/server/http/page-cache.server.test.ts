import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createUser, origin } from "~/test/helpers";
import { getDb } from "../db/db.server";
import { purchase, session } from "../db/schema";
import { readSnapshot } from "../db/snapshot.server";
import { getEnv } from "../env.server";
import { revokePurchase } from "../payments/purchases.server";
import { findSessionMember, readSessionToken, sessionValidUntil } from "../session.server";
import { createHttpApp } from "./app.server";
import { createPageCache, createSnapshotClock } from "./page-cache.server";

const html = (text: string) =>
  new Response(`<!doctype html><main>${text}</main>${" ".repeat(3000)}`, {
    headers: { "content-type": "text/html; charset=utf-8" },
  });

const get = (path: string, cookie = "better-auth.session_token=a.b", encoding = "") =>
  new Request(`${origin}${path}`, { headers: { cookie, "accept-encoding": encoding } });

/** The session token of a test cookie header (the server verifies the signature). */
const tokenOf = (request: Request) =>
  /(?:^|;\s*)better-auth\.session_token=([^;]+)/.exec(request.headers.get("cookie") ?? "")?.[1] ??
  null;

/** A cache over a snapshot the test moves by hand. */
function fakeCache(
  options: { validUntil?: number | null; now?: () => number; maxBytes?: number } = {},
) {
  let snapshot = "1:1:";
  let renders = 0;
  const cache = createPageCache({
    readSnapshot: async () => snapshot,
    sessionKey: tokenOf,
    maxBytes: options.maxBytes,
    sessionValidUntil: async () =>
      options.validUntil === undefined ? Date.now() + 3_600_000 : options.validUntil,
    maxEntries: 2,
    now: options.now,
  });
  const render = (response?: () => Response) => () => {
    renders += 1;
    return Promise.resolve(response ? response() : html(`render ${renders}`));
  };
  return {
    cache,
    render,
    renders: () => renders,
    write: () => {
      snapshot = `${Number(snapshot.split(":")[0]) + 1}:1:`;
    },
  };
}

describe("the snapshot clock", () => {
  it("gives each caller a read that began after it asked, one read per round", async () => {
    const releases: ((value: string) => void)[] = [];
    let reads = 0;
    const clock = createSnapshotClock(
      () =>
        new Promise<string>((resolve) => {
          reads += 1;
          releases.push(resolve);
        }),
    );
    const first = clock();
    // These arrive while the first read runs: they wait for the next one.
    const waiting = Array.from({ length: 10 }, () => clock());
    expect(reads).toBe(1);
    releases[0]?.("before");
    expect(await first).toBe("before");
    await expect.poll(() => reads).toBe(2);
    releases[1]?.("after");
    expect(await Promise.all(waiting)).toEqual(Array(10).fill("after"));
  });

  it("starts reads no closer together than the interval, still after each call", async () => {
    let reads = 0;
    const clock = createSnapshotClock(async () => {
      reads += 1;
      return String(reads);
    }, 50);
    const started = performance.now();
    expect(await clock()).toBe("1");
    // Within the interval: a new read, but not before 50 ms after the first began.
    const [a, b] = await Promise.all([clock(), clock()]);
    expect([a, b]).toEqual(["2", "2"]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(reads).toBe(2);
  });

  it("recovers from a failed read", async () => {
    let fail = true;
    const clock = createSnapshotClock(async () => {
      if (fail) throw new Error("down");
      return "ok";
    });
    await expect(clock()).rejects.toThrow("down");
    fail = false;
    expect(await clock()).toBe("ok");
  });
});

describe("the member page cache", () => {
  it("serves the page again while the snapshot holds, and renders anew after a write", async () => {
    const { cache, render, renders, write } = fakeCache();
    expect(await (await cache.respond(get("/dashboard"), render())).text()).toContain("render 1");
    expect(await (await cache.respond(get("/dashboard"), render())).text()).toContain("render 1");
    expect(renders()).toBe(1);
    write();
    expect(await (await cache.respond(get("/dashboard"), render())).text()).toContain("render 2");
    expect(renders()).toBe(2);
  });

  it("keeps one page per cookie and per URL", async () => {
    const { cache, render, renders } = fakeCache();
    await cache.respond(get("/dashboard", "better-auth.session_token=one.x"), render());
    const other = await cache.respond(
      get("/dashboard", "better-auth.session_token=two.x"),
      render(),
    );
    expect(await other.text()).toContain("render 2");
    const course = await cache.respond(
      get("/course/1", "better-auth.session_token=one.x"),
      render(),
    );
    expect(await course.text()).toContain("render 3");
    expect(renders()).toBe(3);
    // At most two entries: the oldest went.
    expect(cache.size()).toBe(2);
  });

  it("tells sessions apart by their verified session token only", async () => {
    const { cache, render, renders } = fakeCache();
    await cache.respond(get("/dashboard", "better-auth.session_token=one.x; _ga=1"), render());
    await cache.respond(get("/dashboard", "_ga=2; better-auth.session_token=one.x"), render());
    expect(renders()).toBe(1);
    await cache.respond(get("/dashboard", "better-auth.session_token=one.y; _ga=2"), render());
    expect(renders()).toBe(2);
    // No verified token (a look-alike name, or none): rendered each time, never kept.
    for (const cookie of ["better-auth.session_token =one.x; x_session_token=1", "a=1"]) {
      await cache.respond(get("/dashboard", cookie), render());
      await cache.respond(get("/dashboard", cookie), render());
    }
    expect(renders()).toBe(6);
    expect(cache.size()).toBe(2);
  });

  it("only renders a prefetch, or a query other than ?chapter=", async () => {
    const { cache, render, renders } = fakeCache();
    const prefetch = new Request(`${origin}/course/1?chapter=2`, {
      headers: { cookie: "better-auth.session_token=a.b", "sec-purpose": "prefetch" },
    });
    await cache.respond(prefetch, render());
    await cache.respond(get("/dashboard?x=1"), render());
    await cache.respond(get("/course/1?chapter=2&x=1"), render());
    expect(cache.size()).toBe(0);
    await cache.respond(get("/course/1?chapter=2"), render());
    await cache.respond(get("/course/1?chapter=2"), render());
    expect(renders()).toBe(4);
    expect(cache.size()).toBe(1);
  });

  it("drops every page of an older snapshot, and keeps within its byte budget", async () => {
    const { cache, render, write } = fakeCache({ maxBytes: 7_000 });
    await cache.respond(get("/dashboard", "better-auth.session_token=one.x"), render());
    await cache.respond(get("/dashboard", "better-auth.session_token=two.x"), render());
    // Two pages of about 3 KB each fit; a third pushes the oldest out.
    expect(cache.size()).toBe(2);
    await cache.respond(get("/course/1", "better-auth.session_token=two.x"), render());
    expect(cache.size()).toBe(2);
    expect(cache.bytes()).toBeLessThanOrEqual(7_000);
    write();
    await cache.respond(get("/dashboard", "better-auth.session_token=one.x"), render());
    expect(cache.size()).toBe(1);
  });

  it("caches only a 200 HTML page without cookies or its own cache policy", async () => {
    const responses = [
      () => new Response(null, { status: 302, headers: { location: "/login" } }),
      () => {
        const r = html("x");
        r.headers.append("set-cookie", "a=b");
        return r;
      },
      () => {
        const r = html("x");
        r.headers.set("cache-control", "no-cache");
        return r;
      },
      () => Response.json({ a: 1 }),
    ];
    for (const response of responses) {
      const { cache, render, renders } = fakeCache();
      await cache.respond(get("/dashboard"), render(response));
      await cache.respond(get("/dashboard"), render(response));
      expect(renders()).toBe(2);
      expect(cache.size()).toBe(0);
    }
  });

  it("does not keep a page past its session's end", async () => {
    let now = 1_000_000;
    const { cache, render, renders } = fakeCache({ validUntil: 1_005_000, now: () => now });
    await cache.respond(get("/dashboard"), render());
    now = 1_004_999;
    await cache.respond(get("/dashboard"), render());
    expect(renders()).toBe(1);
    now = 1_005_000;
    await cache.respond(get("/dashboard"), render());
    expect(renders()).toBe(2);

    const signedOut = fakeCache({ validUntil: null });
    await signedOut.cache.respond(get("/dashboard"), signedOut.render());
    expect(signedOut.cache.size()).toBe(0);
  });

  it("answers brotli, gzip or plain bytes of the same page, private, and 304 to its ETag", async () => {
    const { cache, render } = fakeCache();
    const plain = await cache.respond(get("/dashboard"), render());
    const text = await plain.text();
    expect(plain.headers.get("cache-control")).toBe("private, no-store");
    expect(plain.headers.get("vary")).toContain("Cookie");
    const br = await cache.respond(get("/dashboard", undefined, "gzip, deflate, br"), render());
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(text);
    const gz = await cache.respond(get("/dashboard", undefined, "gzip"), render());
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(text);
    const etag = plain.headers.get("etag") ?? "";
    const revalidated = await cache.respond(
      new Request(`${origin}/dashboard`, {
        headers: { cookie: "better-auth.session_token=a.b", "if-none-match": etag },
      }),
      render(),
    );
    expect(revalidated.status).toBe(304);
  });

  it("renders without the cache when the snapshot cannot be read", async () => {
    let renders = 0;
    const cache = createPageCache({
      readSnapshot: () => Promise.reject(new Error("database down")),
      sessionKey: tokenOf,
      sessionValidUntil: async () => Date.now() + 60_000,
    });
    const res = await cache.respond(get("/dashboard"), async () => {
      renders += 1;
      return html("fresh");
    });
    expect(await res.text()).toContain("fresh");
    expect(renders).toBe(1);
  });
});

describe("the member page cache on the real database", () => {
  it("a refund and a logout show on the next request", async () => {
    const db = await getDb();
    const env = getEnv();
    const member = await createUser({ paid: true });
    let renders = 0;
    const cache = createPageCache({
      readSnapshot: () => readSnapshot(db),
      sessionKey: (request) => readSessionToken(request.headers.get("cookie"), env.authSecret),
      sessionValidUntil: (token) => sessionValidUntil(db, token),
    });
    // A page that shows what the database says about this session now.
    const render = (request: Request) => async () => {
      renders += 1;
      const token = readSessionToken(request.headers.get("cookie"), env.authSecret);
      const found = token ? await findSessionMember(db, token) : null;
      if (!found) return new Response(null, { status: 302, headers: { location: "/login" } });
      return html(found.isMember ? "member" : "not a member");
    };
    const ask = async () => {
      const request = get("/dashboard", member.cookie);
      return cache.respond(request, render(request));
    };

    expect(await (await ask()).text()).toContain("<main>member</main>");
    const [bought] = await db.select().from(purchase).where(eq(purchase.userId, member.id));
    if (!bought) throw new Error("no purchase");
    await revokePurchase(db, { provider: bought.provider, providerRef: bought.providerRef });
    expect(await (await ask()).text()).toContain("<main>not a member</main>");

    const before = renders;
    await db.delete(session).where(eq(session.userId, member.id));
    const after = await ask();
    expect(after.status).toBe(302);
    expect(renders).toBe(before + 1);
  });

  it("the snapshot moves with a committed write", async () => {
    const db = await getDb();
    const before = await readSnapshot(db);
    expect(before).toMatch(/^\d+:\d+:/);
    await createUser();
    expect(await readSnapshot(db)).not.toBe(before);
  });
});

describe("the HTTP shell and the page cache", () => {
  it("caches GET /dashboard and /course/{id} for a session, nothing else", async () => {
    let renders = 0;
    const app = createHttpApp({
      publicOrigin: origin,
      staticFiles: new Map(),
      handleRequest: async () => {
        renders += 1;
        return html(`render ${renders}`);
      },
      checkDatabase: async () => {},
      pageCache: createPageCache({
        readSnapshot: async () => "1:1:",
        sessionKey: tokenOf,
        sessionValidUntil: async () => Date.now() + 60_000,
      }),
    });
    const cookie = "better-auth.session_token=a.b";
    for (const path of ["/dashboard", "/dashboard", "/course/abc", "/course/abc"]) {
      await app.request(path, { headers: { cookie } });
    }
    expect(renders).toBe(2);
    for (const path of ["/dashboard.data", "/app-builder", "/app-builder", "/admin"]) {
      await app.request(path, { headers: { cookie } });
    }
    await app.request("/dashboard");
    await app.request("/dashboard", { method: "POST", headers: { cookie, origin } });
    expect(renders).toBe(2 + 4 + 2);
  });

  it("states the length of the bytes it sends, compressed or not, first answer or cached", async () => {
    const app = createHttpApp({
      publicOrigin: origin,
      staticFiles: new Map(),
      handleRequest: async () => html("the page"),
      checkDatabase: async () => {},
      pageCache: createPageCache({
        readSnapshot: async () => "1:1:",
        sessionKey: tokenOf,
        sessionValidUntil: async () => Date.now() + 60_000,
      }),
    });
    for (const encoding of ["br", "br", "gzip", ""]) {
      const res = await app.request("/dashboard", {
        headers: { cookie: "better-auth.session_token=a.b", "accept-encoding": encoding },
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      const length = res.headers.get("content-length");
      if (length !== null) expect(Number(length)).toBe(bytes.byteLength);
      const text =
        res.headers.get("content-encoding") === "br"
          ? brotliDecompressSync(bytes).toString()
          : res.headers.get("content-encoding") === "gzip"
            ? gunzipSync(bytes).toString()
            : bytes.toString();
      expect(text).toContain("<main>the page</main>");
    }
  });
});
