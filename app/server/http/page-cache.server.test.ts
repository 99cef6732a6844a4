import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, get as httpGet, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { action as courseAction, loader as courseLoader } from "~/routes/members/course";
import { loader as dashboardLoader } from "~/routes/members/dashboard";
import { createUser, origin, type TestUser } from "~/test/helpers";
import { respond } from "~/test/page-cache";
import { findSessionMember, readSessionToken } from "../auth/session.server";
import { getSessionUser } from "../auth/session-user.server";
import {
  createChapter,
  createCourse,
  deleteCourse,
  updateCourse,
} from "../courses/authoring.server";
import { type Db, openDatabase } from "../db/client.server";
import { closeDatabase, getDatabase, getDb } from "../db/db.server";
import { type PageStamp, readPageStamps } from "../db/page-version.server";
import { purchase, session, user } from "../db/schema";
import { startDatabaseSocket } from "../db/socket.server";
import { getEnv } from "../env.server";
import { runCli } from "../operator/cli.server";
import { openOperatorDatabase } from "../operator/connect.server";
import { revokePurchase } from "../payments/purchases.server";
import { createAnswers } from "./answer.server";
import { createHttpApp } from "./app.server";
import { contentSecurityPolicy, newNonce } from "./csp.server";
import { createBatchedReader, createPageCache } from "./page-cache.server";
import { requestPipeline } from "./pipeline.server";

afterAll(closeDatabase);

const html = (text: string) =>
  new Response(`<!doctype html><main>${text}</main>${" ".repeat(3000)}`, {
    headers: { "content-type": "text/html; charset=utf-8" },
  });

const get = (path: string, cookie = "better-auth.session_token=a.b", encoding = "") =>
  new Request(`${origin}${path}`, { headers: { cookie, "accept-encoding": encoding } });

/** The session token of a test cookie header (the server verifies the signature). */
const tokenOf = (cookie: string | null | undefined) =>
  /(?:^|;\s*)better-auth\.session_token=([^;]+)/.exec(cookie ?? "")?.[1] ?? null;

/** A cache over stamps the test changes by hand: every token is a live session of its own user. */
function fakeCache(
  options: {
    validUntil?: number | null;
    now?: () => number;
    maxBytes?: number;
    /** Pages held at most: 2 unless given; `undefined` for the cache's default. */
    maxEntries?: number;
  } = {},
) {
  const versions = new Map<string, number>();
  let renders = 0;
  const cache = createPageCache({
    readStamps: async (tokens) => {
      const found = new Map<string, PageStamp>();
      if (options.validUntil === null) return found;
      for (const token of tokens) {
        found.set(token, {
          stamp: `${token}:${versions.get(token) ?? 0}`,
          validUntil: options.validUntil ?? Date.now() + 3_600_000,
        });
      }
      return found;
    },
    sessionKey: tokenOf,
    maxBytes: options.maxBytes,
    maxEntries: "maxEntries" in options ? options.maxEntries : 2,
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
    /** A write to what this session's pages show. */
    write: (token = "a.b") => versions.set(token, (versions.get(token) ?? 0) + 1),
  };
}

describe("the batched reader", () => {
  /** A read that records the keys of each call and answers when the test releases it. */
  const heldReads = () => {
    const releases: ((value: Map<string, string>) => void)[] = [];
    const asked: string[][] = [];
    const read = (keys: string[]) =>
      new Promise<Map<string, string>>((resolve) => {
        asked.push(keys);
        releases.push(resolve);
      });
    return { read, asked, releases };
  };

  it("gives each caller a read that began after it asked, one read for everyone waiting", async () => {
    const held = heldReads();
    const { asked, releases } = held;
    const read = createBatchedReader(held.read);
    const first = read("a");
    // These arrive while the first read runs: they wait for the next one, together.
    const waiting = ["a", "b", "c", "b"].map((key) => read(key));
    expect(asked).toEqual([["a"]]);
    releases[0]?.(new Map([["a", "before"]]));
    expect(await first).toBe("before");
    await expect.poll(() => asked.length).toBe(2);
    expect(asked[1]).toEqual(["a", "b", "c"]);
    releases[1]?.(
      new Map([
        ["a", "after"],
        ["b", "B"],
      ]),
    );
    expect(await Promise.all(waiting)).toEqual(["after", "B", undefined, "B"]);
  });

  it("starts reads no closer together than the interval, still after each call", async () => {
    let reads = 0;
    const read = createBatchedReader(async (keys) => {
      reads += 1;
      return new Map(keys.map((k) => [k, reads]));
    }, 50);
    const started = performance.now();
    expect(await read("x")).toBe(1);
    // Within the interval: a new read, but not before 50 ms after the first began.
    expect(await Promise.all([read("x"), read("y")])).toEqual([2, 2]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(reads).toBe(2);
  });

  it("with two reads allowed at once, starts the next while one runs, never a third", async () => {
    const held = heldReads();
    const { asked, releases } = held;
    const read = createBatchedReader(held.read, 10, 2);
    const started = performance.now();
    const first = read("a");
    // Arrives while the first read runs: a second read begins 10 ms after the first, without waiting for it.
    const second = read("b");
    await expect.poll(() => asked.length).toBe(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(9);
    expect(asked[1]).toEqual(["b"]);
    // Two are running: these wait until one of them is over, then share one read.
    const third = [read("c"), read("a")];
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(asked).toHaveLength(2);
    releases[1]?.(new Map([["b", "B"]]));
    expect(await second).toBe("B");
    await expect.poll(() => asked.length).toBe(3);
    expect(asked[2]).toEqual(["c", "a"]);
    releases[2]?.(new Map([["a", "after"]]));
    expect(await Promise.all(third)).toEqual([undefined, "after"]);
    // The first read, still running, answers its own caller with what it read.
    releases[0]?.(new Map([["a", "before"]]));
    expect(await first).toBe("before");
  });

  it("recovers from a failed read", async () => {
    let fail = true;
    const read = createBatchedReader(async (keys) => {
      if (fail) throw new Error("down");
      return new Map(keys.map((k) => [k, "ok"]));
    });
    await expect(read("x")).rejects.toThrow("down");
    fail = false;
    expect(await read("x")).toBe("ok");
  });
});

describe("the member page cache", () => {
  it("serves the page again while its stamp holds, and renders anew after a write", async () => {
    const { cache, render, renders, write } = fakeCache();
    expect(await (await respond(cache, get("/dashboard"), render())).text()).toContain("render 1");
    expect(await (await respond(cache, get("/dashboard"), render())).text()).toContain("render 1");
    expect(renders()).toBe(1);
    write();
    expect(await (await respond(cache, get("/dashboard"), render())).text()).toContain("render 2");
    expect(renders()).toBe(2);
  });

  it("keeps another session's page when one session's data changes", async () => {
    const { cache, render, renders, write } = fakeCache();
    const one = "better-auth.session_token=one.x";
    const two = "better-auth.session_token=two.x";
    await respond(cache, get("/dashboard", one), render());
    await respond(cache, get("/dashboard", two), render());
    write("one.x");
    await respond(cache, get("/dashboard", one), render());
    expect(await (await respond(cache, get("/dashboard", two), render())).text()).toContain(
      "render 2",
    );
    expect(renders()).toBe(3);
  });

  it("keeps one page per cookie and per URL", async () => {
    const { cache, render, renders } = fakeCache();
    await respond(cache, get("/dashboard", "better-auth.session_token=one.x"), render());
    const other = await respond(
      cache,
      get("/dashboard", "better-auth.session_token=two.x"),
      render(),
    );
    expect(await other.text()).toContain("render 2");
    const course = await respond(
      cache,
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
    await respond(cache, get("/dashboard", "better-auth.session_token=one.x; _ga=1"), render());
    await respond(cache, get("/dashboard", "_ga=2; better-auth.session_token=one.x"), render());
    expect(renders()).toBe(1);
    await respond(cache, get("/dashboard", "better-auth.session_token=one.y; _ga=2"), render());
    expect(renders()).toBe(2);
    // No verified token (a look-alike name, or none): rendered each time, never kept.
    for (const cookie of ["better-auth.session_token =one.x; x_session_token=1", "a=1"]) {
      await respond(cache, get("/dashboard", cookie), render());
      await respond(cache, get("/dashboard", cookie), render());
    }
    expect(renders()).toBe(6);
    expect(cache.size()).toBe(2);
  });

  it("only renders a prefetch, or a query other than ?chapter=", async () => {
    const { cache, render, renders } = fakeCache();
    const prefetch = new Request(`${origin}/course/1?chapter=2`, {
      headers: { cookie: "better-auth.session_token=a.b", "sec-purpose": "prefetch" },
    });
    await respond(cache, prefetch, render());
    await respond(cache, get("/dashboard?x=1"), render());
    await respond(cache, get("/course/1?chapter=2&x=1"), render());
    expect(cache.size()).toBe(0);
    await respond(cache, get("/course/1?chapter=2"), render());
    await respond(cache, get("/course/1?chapter=2"), render());
    expect(renders()).toBe(4);
    expect(cache.size()).toBe(1);
  });

  it("keeps within its byte budget", async () => {
    const { cache, render } = fakeCache({ maxBytes: 7_000 });
    await respond(cache, get("/dashboard", "better-auth.session_token=one.x"), render());
    await respond(cache, get("/dashboard", "better-auth.session_token=two.x"), render());
    // Two pages of about 3 KB each fit; a third pushes the oldest out.
    expect(cache.size()).toBe(2);
    await respond(cache, get("/course/1", "better-auth.session_token=two.x"), render());
    expect(cache.size()).toBe(2);
    expect(cache.bytes()).toBeLessThanOrEqual(7_000);
  });

  it("keeps at most 1,000 pages unless told otherwise, the least recently used going first", async () => {
    const { cache, render, renders } = fakeCache({ maxEntries: undefined });
    const chapter = (i: number) => get(`/course/1?chapter=${i}`);
    for (let i = 0; i < 1_000; i += 1) await respond(cache, chapter(i), render());
    expect(cache.size()).toBe(1_000);
    // The first page is used again, so the second is now the least recently used.
    await respond(cache, chapter(0), render());
    await respond(cache, chapter(1_000), render());
    expect(cache.size()).toBe(1_000);
    expect(renders()).toBe(1_001);
    await respond(cache, chapter(0), render());
    expect(renders()).toBe(1_001);
    await respond(cache, chapter(1), render());
    expect(renders()).toBe(1_002);
  });

  it("never answers a page whose data changed while it was rendered", async () => {
    const { cache, renders, write } = fakeCache();
    let count = 0;
    const renderDuringWrite = async () => {
      count += 1;
      write();
      return html(`render ${count}`);
    };
    await respond(cache, get("/dashboard"), renderDuringWrite);
    expect(await (await respond(cache, get("/dashboard"), renderDuringWrite)).text()).toContain(
      "render 2",
    );
    expect(renders()).toBe(0);
  });

  it("renders a page once for the requests that arrive while it is rendered, under one stamp", async () => {
    const { cache, renders, write } = fakeCache();
    const pending: (() => void)[] = [];
    const slowRender = () =>
      new Promise<Response>((done) => {
        const mine = pending.length + 1;
        pending.push(() => done(html(`render ${mine}`)));
      });
    const first = respond(cache, get("/dashboard"), slowRender);
    await vi.waitFor(() => expect(pending).toHaveLength(1));
    const waiting = Array.from({ length: 5 }, () => respond(cache, get("/dashboard"), slowRender));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pending).toHaveLength(1);
    pending[0]?.();
    const texts = await Promise.all([first, ...waiting].map(async (r) => (await r).text()));
    expect(texts).toEqual(Array(6).fill(texts[0]));
    expect(texts[0]).toContain("render 1");

    // A request whose stamp is newer (a write since) does not take the render under way.
    write();
    const second = respond(cache, get("/dashboard"), slowRender);
    await vi.waitFor(() => expect(pending).toHaveLength(2));
    write();
    const third = respond(cache, get("/dashboard"), slowRender);
    await vi.waitFor(() => expect(pending).toHaveLength(3));
    pending[1]?.();
    pending[2]?.();
    expect(await (await second).text()).toContain("render 2");
    expect(await (await third).text()).toContain("render 3");
    expect(renders()).toBe(0);
  });

  it("renders for itself when the render it waited for is not kept", async () => {
    const { cache, render, renders } = fakeCache();
    let release = () => {};
    const redirect = () =>
      new Promise<Response>((done) => {
        release = () => done(new Response(null, { status: 302, headers: { location: "/login" } }));
      });
    const first = respond(cache, get("/dashboard"), redirect);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = respond(cache, get("/dashboard"), render());
    await new Promise((resolve) => setTimeout(resolve, 5));
    release();
    expect((await first).status).toBe(302);
    expect(await (await second).text()).toContain("render 1");
    expect(renders()).toBe(1);
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
      await respond(cache, get("/dashboard"), render(response));
      await respond(cache, get("/dashboard"), render(response));
      expect(renders()).toBe(2);
      expect(cache.size()).toBe(0);
    }
  });

  it("does not keep a page past its session's end, nor for a session that has ended", async () => {
    let now = 1_000_000;
    const { cache, render, renders } = fakeCache({ validUntil: 1_005_000, now: () => now });
    await respond(cache, get("/dashboard"), render());
    now = 1_004_999;
    await respond(cache, get("/dashboard"), render());
    expect(renders()).toBe(1);
    now = 1_005_000;
    await respond(cache, get("/dashboard"), render());
    expect(renders()).toBe(2);

    const signedOut = fakeCache({ validUntil: null });
    await respond(signedOut.cache, get("/dashboard"), signedOut.render());
    expect(signedOut.cache.size()).toBe(0);
  });

  it("answers brotli, gzip or plain bytes of the same page, private, and 304 to its ETag", async () => {
    const { cache, render } = fakeCache();
    const plain = await respond(cache, get("/dashboard"), render());
    const text = await plain.text();
    // Private, Vary: Cookie: added by answer.server.ts to every signed-in answer (below).
    expect(plain.headers.get("vary")).toBe("Accept-Encoding");
    const br = await respond(cache, get("/dashboard", undefined, "gzip, deflate, br"), render());
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(text);
    const gz = await respond(cache, get("/dashboard", undefined, "gzip"), render());
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(text);
    const etag = plain.headers.get("etag") ?? "";
    const revalidated = await respond(
      cache,
      new Request(`${origin}/dashboard`, {
        headers: { cookie: "better-auth.session_token=a.b", "if-none-match": etag },
      }),
      render(),
    );
    expect(revalidated.status).toBe(304);
  });

  it("keeps only a page's compressed copies once one is made, its plain bytes taken from them", async () => {
    const { cache, render, renders } = fakeCache();
    const first = await respond(cache, get("/dashboard", undefined, "gzip, deflate, br"), render());
    const compressed = Buffer.from(await first.arrayBuffer());
    const text = brotliDecompressSync(compressed).toString();
    expect(text).toContain("<main>render 1</main>");
    // The plain page is some 3 KB; kept, the brotli copy alone counts.
    expect(cache.bytes()).toBe(compressed.byteLength);
    const plain = await respond(cache, get("/dashboard"), render());
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(text);
    expect(cache.bytes(), "the plain bytes are not kept again").toBe(compressed.byteLength);
    const gz = await respond(cache, get("/dashboard", undefined, "gzip"), render());
    const gzipped = Buffer.from(await gz.arrayBuffer());
    expect(gunzipSync(gzipped).toString()).toBe(text);
    expect(cache.bytes()).toBe(compressed.byteLength + gzipped.byteLength);
    expect(renders()).toBe(1);
  });

  it("holds the bytes of pages kept for several sessions once, compressed once, until the last goes", async () => {
    const { cache, render } = fakeCache({ maxEntries: 3 });
    const same = render(() => html("the same chapter"));
    const ask = (token: string) =>
      respond(cache, get("/dashboard", `better-auth.session_token=${token}`, "br"), same);
    const one = Buffer.from(await (await ask("one.x")).arrayBuffer());
    const bytes = cache.bytes();
    expect(bytes).toBe(one.byteLength);
    const two = await ask("two.x");
    expect(Buffer.from(await two.arrayBuffer())).toEqual(one);
    expect(cache.size()).toBe(2);
    expect(cache.bytes(), "one copy for both sessions").toBe(bytes);
    // Another page takes room of its own; the shared one goes once neither session holds it.
    await respond(cache, get("/dashboard", "better-auth.session_token=three.x", "br"), render());
    const other = cache.bytes() - bytes;
    expect(other).toBeGreaterThan(0);
    await respond(cache, get("/dashboard", "better-auth.session_token=four.x", "br"), render());
    expect(cache.size()).toBe(3);
    expect(cache.bytes(), "session one's page went; two still holds the bytes").toBe(
      bytes + other * 2,
    );
    await respond(cache, get("/dashboard", "better-auth.session_token=five.x", "br"), render());
    expect(cache.bytes()).toBe(other * 3);
  });

  it("answers a kept page's inline scripts by their hashes: no nonce serves two answers", async () => {
    const { cache, render } = fakeCache();
    const inline = 'window.__ctx = {"user":"a"};';
    const page = () => {
      const nonce = newNonce();
      return new Response(
        `<!DOCTYPE html><html lang="en"><head><script nonce="${nonce}">${inline}</script></head><body><script type="module" nonce="${nonce}" src="/assets/a.js"></script></body></html>`,
        {
          headers: {
            "content-type": "text/html; charset=utf-8",
            "content-security-policy": contentSecurityPolicy([`'nonce-${nonce}'`]),
          },
        },
      );
    };
    const answers = [];
    for (const encoding of ["", "br", "gzip", ""]) {
      answers.push(await respond(cache, get("/dashboard", undefined, encoding), render(page)));
    }
    const hash = `'sha256-${createHash("sha256").update(inline).digest("base64")}'`;
    for (const answer of answers) {
      const policy = answer.headers.get("content-security-policy") ?? "";
      expect(policy).toContain(`script-src 'self' ${hash};`);
      expect(policy).not.toContain("nonce");
    }
    const plain = await answers[0]?.text();
    expect(plain).not.toContain("nonce");
    expect(plain).toContain(`<script>${inline}</script>`);
    expect(await answers[3]?.text()).toBe(plain);
  });

  it("keeps a page rendered after a choice in the cookie banner apart from one before", async () => {
    const { cache, render, renders } = fakeCache();
    const chosen = "better-auth.session_token=a.b; cookie_consent=essential";
    await respond(cache, get("/dashboard"), render());
    await respond(cache, get("/dashboard", chosen), render());
    expect(renders()).toBe(2);
    expect(await (await respond(cache, get("/dashboard", chosen), render())).text()).toContain(
      "render 2",
    );
    expect(await (await respond(cache, get("/dashboard"), render())).text()).toContain("render 1");
    expect(renders()).toBe(2);
  });

  it("renders without the cache when the stamps cannot be read", async () => {
    let renders = 0;
    const cache = createPageCache({
      readStamps: () => Promise.reject(new Error("database down")),
      sessionKey: tokenOf,
    });
    for (let i = 0; i < 2; i++) {
      const res = await respond(cache, get("/dashboard"), async () => {
        renders += 1;
        return html("fresh");
      });
      expect(await res.text()).toContain("fresh");
    }
    expect(renders).toBe(2);
  });
});

/**
 * The real pages' loaders behind the cache, on the real database: each
 * "page" is the data its loaders return for the request, so what a member
 * would see is compared, and every render is counted.
 */
function memberPages(db: Db) {
  const env = getEnv();
  let renders = 0;
  const cache = createPageCache({
    readStamps: (tokens) => readPageStamps(db, tokens),
    sessionKey: (cookie) => readSessionToken(cookie ?? null, env.authSecret),
  });
  const render = (request: Request, courseId?: string) => async () => {
    renders += 1;
    try {
      const data = courseId
        ? await courseLoader({ request, params: { courseId }, context: {} } as never)
        : await dashboardLoader({ request, params: {}, context: {} } as never);
      return html(JSON.stringify(data));
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  };
  const open = async (member: TestUser, pathname: string) => {
    const request = get(pathname, member.cookie);
    const courseId = /^\/course\/([^/?]+)/.exec(pathname)?.[1];
    const response = await respond(cache, request, render(request, courseId));
    const location = response.headers.get("location");
    return location ? `redirect ${location}` : await response.text();
  };
  return { cache, open, renders: () => renders };
}

/**
 * Another connection to the same database, as another process has it: a
 * second pool on PostgreSQL (another server), or the CLI's connection through
 * the embedded database's socket.
 */
async function otherProcess(): Promise<{ db: Db; close: () => Promise<void> }> {
  const env = getEnv();
  if (env.databaseUrl) {
    const other = await openDatabase({ dataDir: env.dataDir, databaseUrl: env.databaseUrl });
    return { db: other.db, close: other.close };
  }
  const { pglite } = await getDatabase();
  if (!pglite) throw new Error("no embedded database");
  const dir = mkdtempSync(path.join(tmpdir(), "ailabs-socket-"));
  const socket = await startDatabaseSocket(pglite, dir);
  const cli = await openOperatorDatabase({ dataDir: dir, databaseUrl: undefined });
  expect(cli.via).toBe("socket");
  return {
    db: cli.db,
    close: async () => {
      await cli.close();
      await socket.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe("the member page cache on the real database", () => {
  let db: Db;
  let courseId: string;
  let chapterIds: string[];
  const chapterPage = (i: number) => `/course/${courseId}?chapter=${chapterIds[i]}`;
  /** "Mark as complete" on chapter `i`, through the course page's action. */
  const markDone = async (member: TestUser, i: number) => {
    const request = new Request(`${origin}${chapterPage(i)}`, {
      method: "POST",
      headers: { cookie: member.cookie, origin },
      body: new URLSearchParams({ chapterId: chapterIds[i] as string, done: "true" }),
    });
    await courseAction({ request, params: { courseId }, context: {} } as never);
  };

  beforeAll(async () => {
    db = await getDb();
    const created = await createCourse(db, { title: "Cached course", description: "Two chapters" });
    courseId = created.id;
    chapterIds = [];
    for (const title of ["One", "Two"]) {
      const chapter = await createChapter(db, { courseId, title, contentHtml: "<p>x</p>" });
      if (!chapter) throw new Error("no chapter");
      chapterIds.push(chapter.id);
    }
  });

  it("serves a member's pages from memory until something they show changes", async () => {
    const pages = memberPages(db);
    const member = await createUser({ paid: true });
    const dashboard = await pages.open(member, "/dashboard");
    expect(dashboard).toContain("Cached course");
    expect(await pages.open(member, "/dashboard")).toBe(dashboard);
    expect(pages.renders()).toBe(1);
    // The first visit of a chapter moves the resume point: a write, so that page is not kept,
    // and the dashboard (which shows where the member is) is rendered anew once.
    await pages.open(member, chapterPage(0));
    const chapter = await pages.open(member, chapterPage(0));
    const resumed = await pages.open(member, "/dashboard");
    expect(resumed).not.toBe(dashboard);
    expect(resumed).toContain(`"visited":true,"lastChapterId":"${chapterIds[0]}"`);
    expect(pages.renders()).toBe(4);
    // From then on, reads only: loaders that wrote on every visit would make each a render.
    expect(await pages.open(member, chapterPage(0))).toBe(chapter);
    expect(await pages.open(member, "/dashboard")).toBe(resumed);
    expect(pages.renders()).toBe(4);
  });

  it("a member's own progress shows on their next request, on both pages", async () => {
    const pages = memberPages(db);
    const member = await createUser({ paid: true });
    await pages.open(member, "/dashboard");
    await pages.open(member, chapterPage(1));
    await pages.open(member, chapterPage(1));
    await markDone(member, 1);
    expect(await pages.open(member, "/dashboard")).toContain('"doneChapters":1');
    expect(await pages.open(member, chapterPage(1))).toMatch(
      new RegExp(`"id":"${chapterIds[1]}","title":"Two","done":true`),
    );
  });

  it("other members' writes and sign-ups leave a member's pages in the cache", async () => {
    const pages = memberPages(db);
    const member = await createUser({ paid: true });
    const others = await Promise.all([createUser({ paid: true }), createUser({ paid: true })]);
    await pages.open(member, chapterPage(0));
    await pages.open(member, chapterPage(0));
    await pages.open(member, "/dashboard");
    const renders = pages.renders();
    for (const other of others) {
      await pages.open(other, chapterPage(1));
      await markDone(other, 1);
    }
    await createUser();
    const [someone] = others;
    if (someone) await revokePurchase(db, await firstPurchase(someone.id));
    const rendersByOthers = pages.renders() - renders;
    await pages.open(member, "/dashboard");
    await pages.open(member, chapterPage(0));
    expect(pages.renders() - renders).toBe(rendersByOthers);
  });

  it("a refund, a revoked admin, a logout show on the member's next request", async () => {
    const pages = memberPages(db);
    const member = await createUser({ paid: true });
    const admin = await createUser({ isAdmin: true });
    expect(await pages.open(member, "/dashboard")).toContain("Cached course");
    expect(await pages.open(admin, "/dashboard")).toContain("Cached course");

    await revokePurchase(db, await firstPurchase(member.id));
    expect(await pages.open(member, "/dashboard")).toBe("redirect /payment-options");

    await db.update(user).set({ isAdmin: false }).where(eq(user.id, admin.id));
    expect(await pages.open(admin, "/dashboard")).toBe("redirect /payment-options");

    const other = await createUser({ paid: true });
    await pages.open(other, chapterPage(0));
    await db.delete(session).where(eq(session.userId, other.id));
    expect(await pages.open(other, chapterPage(0))).toBe("redirect /login");
  });

  it("an edited, a new and a deleted course show on every member's next request", async () => {
    const pages = memberPages(db);
    const members = [await createUser({ paid: true }), await createUser({ paid: true })];
    for (const member of members) {
      await pages.open(member, "/dashboard");
      await pages.open(member, chapterPage(0));
    }
    const added = await createCourse(db, { title: "Brand new course", description: "" });
    for (const member of members) {
      expect(await pages.open(member, "/dashboard")).toContain("Brand new course");
    }
    await updateCourse(db, courseId, { title: "Renamed course", description: "Two chapters" });
    for (const member of members) {
      expect(await pages.open(member, "/dashboard")).toContain("Renamed course");
      expect(await pages.open(member, chapterPage(0))).toContain("Renamed course");
    }
    await deleteCourse(db, added.id);
    for (const member of members) {
      expect(await pages.open(member, "/dashboard")).not.toContain("Brand new course");
    }
    await updateCourse(db, courseId, { title: "Cached course", description: "Two chapters" });
  });

  it("a page rendered while a write commits is never answered", async () => {
    const env = getEnv();
    const member = await createUser({ paid: true });
    const cache = createPageCache({
      readStamps: (tokens) => readPageStamps(db, tokens),
      sessionKey: (cookie) => readSessionToken(cookie ?? null, env.authSecret),
    });
    let renders = 0;
    const render = (request: Request) => async () => {
      renders += 1;
      const data = await dashboardLoader({ request, params: {}, context: {} } as never);
      // The member finishes a chapter in another tab while this page is being rendered.
      if (renders === 1) await markDone(member, 0);
      return html(JSON.stringify(data));
    };
    const open = async () => {
      const request = get("/dashboard", member.cookie);
      return (await respond(cache, request, render(request))).text();
    };
    expect(await open()).toContain('"doneChapters":0');
    expect(await open()).toContain('"doneChapters":1');
    expect(await open()).toContain('"doneChapters":1');
    expect(renders).toBe(2);
  });

  it("writes from another process (another server, or the CLI through the socket) show on the next request", async () => {
    const pages = memberPages(db);
    const member = await createUser({ paid: true });
    const other = await otherProcess();
    try {
      await pages.open(member, "/dashboard");
      await pages.open(member, chapterPage(0));
      await pages.open(member, chapterPage(0));
      // A purchase of an add-on and a new chapter, written elsewhere.
      await other.db.insert(purchase).values({
        userId: member.id,
        provider: "manual",
        providerRef: `other-${member.id}`,
        product: "bump-offer",
        amountCents: 0,
      });
      await createChapter(other.db, { courseId, title: "Three", contentHtml: "<p>3</p>" });
      expect(await pages.open(member, chapterPage(0))).toContain('"title":"Three"');
      const renders = pages.renders();
      await pages.open(member, chapterPage(0));
      expect(pages.renders()).toBe(renders);
      // The operator revokes access with the CLI.
      const out: string[] = [];
      const code = await runCli(["access", "revoke", member.email], {
        db: other.db,
        out: (t) => out.push(t),
        err: (t) => out.push(t),
      });
      expect(code).toBe(0);
      expect(await pages.open(member, "/dashboard")).toBe("redirect /payment-options");
      expect(await pages.open(member, chapterPage(0))).toBe("redirect /payment-options");
    } finally {
      await other.close();
    }
  });

  it("reads the stamps of many sessions in one query, and none for an ended session", async () => {
    const members = [await createUser({ paid: true }), await createUser()];
    const env = getEnv();
    const tokens = members.map((m) => readSessionToken(m.cookie, env.authSecret) as string);
    const stamps = await readPageStamps(db, [...tokens, "no-such-token"]);
    expect([...stamps.keys()].sort()).toEqual([...tokens].sort());
    expect(stamps.get(tokens[0] as string)?.stamp).toMatch(
      new RegExp(`^${members[0]?.id}:\\d+:\\d+$`),
    );
    expect(stamps.get(tokens[0] as string)?.validUntil).toBeGreaterThan(Date.now());
    await db.delete(session).where(eq(session.userId, members[1]?.id as string));
    expect((await readPageStamps(db, tokens)).has(tokens[1] as string)).toBe(false);
  });

  it("finds with each stamp the session's user and membership, as the session lookup does", async () => {
    const env = getEnv();
    const tokenOfUser = (u: TestUser) => readSessionToken(u.cookie, env.authSecret) as string;
    const member = await createUser({ paid: true });
    const visitor = await createUser();
    const admin = await createUser({ isAdmin: true });
    const tokens = [member, visitor, admin].map(tokenOfUser);
    // An admin whose last request is due to be written: the lookup writes it, so no member.
    const due = await readPageStamps(db, tokens);
    expect(due.get(tokenOfUser(admin))?.member).toBeUndefined();
    for (const u of [member, visitor, admin]) {
      expect(await findSessionMember(db, tokenOfUser(u))).not.toBeNull();
    }
    const stamps = await readPageStamps(db, tokens);
    for (const u of [member, visitor, admin]) {
      expect(stamps.get(tokenOfUser(u))?.member).toEqual(
        await findSessionMember(db, tokenOfUser(u)),
      );
    }
    expect(stamps.get(tokenOfUser(visitor))?.member?.isMember).toBe(false);
    // A session the lookup would not take has no stamp: an admin's idle past 12 hours.
    const idle = new Date(Date.now() - 13 * 3600_000);
    await db
      .update(session)
      .set({ lastSeenAt: idle, updatedAt: idle })
      .where(eq(session.userId, admin.id));
    expect((await readPageStamps(db, tokens)).has(tokenOfUser(admin))).toBe(false);
  });
});

async function firstPurchase(userId: string) {
  const db = await getDb();
  const [bought] = await db.select().from(purchase).where(eq(purchase.userId, userId));
  if (!bought) throw new Error("no purchase");
  return { provider: bought.provider, providerRef: bought.providerRef };
}

/** The request pipeline as the server runs it, with this cache and this app's pages. */
async function pipelineServer(
  pageCache: ReturnType<typeof createPageCache>,
  handleRequest: (request: Request) => Promise<Response>,
) {
  const listener = requestPipeline({
    first: [],
    answers: createAnswers(origin, (path) => path),
    staticFiles: new Map(),
    pageCache,
    app: createHttpApp({ publicOrigin: origin, staticFiles: new Map(), handleRequest }),
    trusted: new Set(),
    routeOf: (path) => path,
  });
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    ask: (path: string, init: RequestInit = {}) => fetch(`${base}${path}`, init),
    /** The bytes as sent (fetch would decompress them). */
    raw: (path: string, headers: Record<string, string>) =>
      new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) =>
        httpGet(`${base}${path}`, { headers }, (res) =>
          buffer(res).then((body) => resolve({ headers: res.headers, body }), reject),
        ).on("error", reject),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("the request pipeline and the page cache", () => {
  const alwaysFresh = async (tokens: string[]) =>
    new Map(tokens.map((t) => [t, { stamp: "1", validUntil: Date.now() + 60_000 }]));

  it("renders a page from the session its stamp read found, without looking it up again", async () => {
    const found = {
      user: {
        id: "u1",
        name: "Found With The Stamp",
        email: "u1@example.com",
        isAdmin: false,
        twoFactorEnabled: false,
      },
      isMember: true,
      session: { id: "s1", provedAt: new Date() },
    };
    const s = await pipelineServer(
      createPageCache({
        readStamps: async (tokens) =>
          new Map(
            tokens.map((t) => [t, { stamp: "1", validUntil: Date.now() + 60_000, member: found }]),
          ),
        sessionKey: tokenOf,
      }),
      // The test cookie's token is no session in the database: a lookup would find none.
      async (request) => html(`user ${(await getSessionUser(request))?.name ?? "none"}`),
    );
    try {
      const cookie = "better-auth.session_token=a.b";
      expect(await (await s.ask("/dashboard", { headers: { cookie } })).text()).toContain(
        "user Found With The Stamp",
      );
    } finally {
      await s.close();
    }
  });

  it("caches GET /dashboard and /course/{id} for a session, nothing else", async () => {
    let renders = 0;
    const s = await pipelineServer(
      createPageCache({ readStamps: alwaysFresh, sessionKey: tokenOf }),
      async () => {
        renders += 1;
        return html(`render ${renders}`);
      },
    );
    try {
      const cookie = "better-auth.session_token=a.b";
      for (const path of ["/dashboard", "/dashboard", "/course/abc", "/course/abc"]) {
        await (await s.ask(path, { headers: { cookie } })).arrayBuffer();
      }
      expect(renders).toBe(2);
      for (const path of ["/dashboard.data", "/app-builder", "/app-builder", "/admin"]) {
        await (await s.ask(path, { headers: { cookie } })).arrayBuffer();
      }
      await (await s.ask("/dashboard")).arrayBuffer();
      await (
        await s.ask("/dashboard", { method: "POST", headers: { cookie, origin } })
      ).arrayBuffer();
      expect(renders).toBe(2 + 4 + 2);
    } finally {
      await s.close();
    }
  });

  it("states the length of the bytes it sends, compressed or not, first answer or cached", async () => {
    const s = await pipelineServer(
      createPageCache({ readStamps: alwaysFresh, sessionKey: tokenOf }),
      async () => html("the page"),
    );
    try {
      for (const encoding of ["br", "br", "gzip", ""]) {
        const { headers, body: bytes } = await s.raw("/dashboard", {
          cookie: "better-auth.session_token=a.b",
          "accept-encoding": encoding,
        });
        const length = headers["content-length"];
        if (length !== undefined) expect(Number(length)).toBe(bytes.byteLength);
        const text =
          headers["content-encoding"] === "br"
            ? brotliDecompressSync(bytes).toString()
            : headers["content-encoding"] === "gzip"
              ? gunzipSync(bytes).toString()
              : bytes.toString();
        expect(text).toContain("<main>the page</main>");
      }
    } finally {
      await s.close();
    }
  });

  it("enters the cache once a request: a kept page from memory, a miss rendered by the app and kept", async () => {
    let reads = 0;
    let version = 0;
    let renders = 0;
    const cache = createPageCache({
      readStamps: async (tokens) => {
        reads += 1;
        return new Map(
          tokens.map((t) => [t, { stamp: `${t}:${version}`, validUntil: Date.now() + 60_000 }]),
        );
      },
      sessionKey: tokenOf,
    });
    const s = await pipelineServer(cache, async () => {
      renders += 1;
      return html(`render ${renders}`);
    });
    const ask = (path: string, headers: Record<string, string> = {}) =>
      s.ask(path, { headers: { cookie: "better-auth.session_token=a.b", ...headers } });
    try {
      // A miss: one stamp read, before the render; the page is kept under it.
      expect(await (await ask("/dashboard")).text()).toContain("render 1");
      expect(reads).toBe(1);
      const hit = await ask("/dashboard", { "accept-encoding": "br" });
      expect(hit.headers.get("x-frame-options")).toBe("DENY");
      expect(hit.headers.get("cache-control")).toBe("private, no-store");
      expect(hit.headers.get("vary")).toBe("Cookie, Accept-Encoding");
      expect(await hit.text()).toContain("render 1");
      expect(reads).toBe(2);
      const etag = hit.headers.get("etag") ?? "";
      const revalidated = await ask("/dashboard", { "if-none-match": etag });
      expect(revalidated.status).toBe(304);
      expect(renders).toBe(1);
      // A write: the app renders again; other paths and prefetches are only rendered.
      version += 1;
      expect(await (await ask("/dashboard")).text()).toContain("render 2");
      await (await ask("/dashboard", { "sec-purpose": "prefetch" })).arrayBuffer();
      await (await ask("/app-builder")).arrayBuffer();
      expect(renders).toBe(4);
      // Signed out: rendered (the app's guard redirects), never answered from memory.
      const signedOut = await s.ask("/dashboard");
      expect(await signedOut.text()).toContain("render 5");
    } finally {
      await s.close();
    }
  });
});
