import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { getRequestListener, type HttpBindings } from "@hono/node-server";
import type { Hono } from "hono";
import { busyTryAgain } from "~/lib/busy";
import { pageCacheQueryFor, policyFor } from "~/route-policies";
import { seedSessionLookup } from "../auth/session-user.server";
import { logger } from "../logger.server";
import {
  busyRetryAfterSeconds,
  createWorkQueue,
  ServerBusy,
  serverBusy,
  type WorkQueue,
} from "../work-queue.server";
import type { Answers } from "./answer.server";
import { requestTargetOf } from "./app.server";
import { type PageCache, pageCacheAnswer } from "./page-cache.server";
import { type StaticFile, staticFileFor, staticReply } from "./static-files.server";

/**
 * The way every request takes, in order (start.server.ts listens with it):
 * 1. `first`: answers that look before anything else (the funnel's counting,
 *    which answers nothing; in development, Vite);
 * 2. static files and prerendered pages, from memory (staticFilesAnswer);
 * 3. member pages, through the page cache: kept, or rendered by the app and
 *    kept (pageCacheAnswer, page-cache.server.ts);
 * 4. the app (app.server.ts: Origin check, body limits, React Router).
 * Every answer's headers and metric come from `answers` (answer.server.ts),
 * whichever of these gives it. What the app renders or acts on (3's misses
 * and 4) takes a turn in `work` (requestQueue): past the server's capacity a
 * request waits a bounded time, then is answered 503 busy (decision 030).
 */
export function requestPipeline(options: {
  first: readonly FastAnswer[];
  answers: Answers;
  staticFiles: ReadonlyMap<string, StaticFile>;
  pageCache: PageCache | undefined;
  app: Hono<{ Bindings: HttpBindings }>;
  /** Reverse proxies whose X-Forwarded-* headers are believed (Env.trustedProxies). */
  trusted: ReadonlySet<string>;
  /** The metrics label of a path (route-label.server.ts). */
  routeOf: (path: string) => string;
  /** The host @hono/node-server puts in a URL when the request has none. */
  hostname?: string;
  /** The turns of what the app renders or acts on; requestQueue() when not given. */
  work?: WorkQueue;
}): RequestListener {
  const { app, trusted } = options;
  const work = options.work ?? requestQueue();
  const answers: FastAnswer[] = [
    ...options.first,
    staticFilesAnswer(options.staticFiles, options.answers),
  ];
  if (options.pageCache) {
    // A kept member page is answered from memory and never waits; rendering one takes a
    // turn, held until the page is answered: rendered whole (it streams), kept, compressed
    // and written. Compression runs on the zlib pool: outside the turn, pages waiting for it
    // would pile up without bound past capacity.
    const pages = pageCacheAnswer(
      options.pageCache,
      options.answers,
      (req, res, stamp) =>
        new Promise<Response>((rendered, failed) => {
          work
            .run(async () => {
              const request = pageRequestOf(req, trusted);
              // The stamp read found the session's user too: the page does not look it up again.
              if (stamp?.member) seedSessionLookup(request, stamp.member);
              rendered(await wholeBody(await app.fetch(request, { incoming: req, outgoing: res })));
              await answered(res);
            })
            .catch(failed);
        }),
      options.routeOf,
    );
    // A Host the app would refuse (400) is left to it.
    answers.push((req, res) => {
      if (req.method !== "GET" || !plainHost.test(req.headers.host ?? "")) return false;
      if (!pageCacheQueryFor((req.url ?? "").split("?")[0] ?? "")) return false;
      return pages(req, res).catch((error: unknown) => {
        if (!(error instanceof ServerBusy)) throw error;
        answerBusy(req, res, options.answers, options.routeOf);
        return true;
      });
    });
  }
  const appListener = getRequestListener(
    (request, env) => {
      const path = new URL(request.url).pathname;
      // A page's data (React Router's `.data` requests) goes as the page goes.
      const route = path.endsWith(".data") ? path.slice(0, -".data".length) : path;
      if (policyFor(route).queue === false) return app.fetch(request, env as HttpBindings);
      const started = performance.now();
      return work
        .run(async () => app.fetch(request, env as HttpBindings))
        .catch((error: unknown) => {
          if (!(error instanceof ServerBusy)) throw error;
          const busy = new Response(busyPage, { status: 503, headers: busyHeaders });
          return options.answers.finish(request, path, busy, started);
        });
    },
    { hostname: options.hostname },
  );
  return nodeListener(answers, forwardedUrls(appListener, trusted));
}

/** When the answer on `res` has been written, or its connection closed. */
function answered(res: ServerResponse): Promise<void> {
  if (res.writableFinished || res.destroyed) return Promise.resolve();
  return new Promise((done) => {
    res.once("finish", done);
    res.once("close", done);
  });
}

/** A Response with its body read to the end: a page is rendered while its body streams. */
async function wholeBody(response: Response): Promise<Response> {
  if (!response.body) return response;
  const body = await response.arrayBuffer();
  const { status, statusText, headers } = response;
  return new Response(body, { status, statusText, headers });
}

/**
 * The request queue's bounds (decision 030): requests worked on at once
 * (enough for the database to be busy while pages render, few enough that
 * each is done in a fraction of a second when the CPU is the limit); the
 * work that may wait, by the time it would take; and the longest a request
 * waits for its turn. Past them it is answered 503 busy.
 */
export const requestSlots = 8;
export const requestQueuedWorkMs = 300;
export const requestWaitMs = 700;

/** The app's turns, with the bounds above. */
export function requestQueue(
  slots = requestSlots,
  maxWaitMs = requestWaitMs,
  maxQueuedWorkMs = requestQueuedWorkMs,
): WorkQueue {
  return createWorkQueue({ slots, maxWaitMs, maxQueuedWorkMs, busy: () => new ServerBusy() });
}

const busyHeaders = {
  "Content-Type": "text/html; charset=utf-8",
  "Retry-After": String(busyRetryAfterSeconds),
  "Cache-Control": "no-store",
};

/** The busy page: says so, and offers the same address again. */
const busyPage = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Busy | AI Labs</title></head><body><main><h1>${busyTryAgain}</h1><p>${serverBusy}</p><p><a href="">Try again</a></p></main></body></html>`;

/** 503 with Retry-After for a request refused a turn, written on node:http. */
function answerBusy(
  req: IncomingMessage,
  res: ServerResponse,
  answers: Answers,
  routeOf: (path: string) => string,
): void {
  const path = (req.url ?? "/").split("?")[0] ?? "/";
  answers.fromMemory(req, res, 503, busyHeaders, busyPage, routeOf(path));
}

/** The request's target as the app sees it (requestTargetOf: behind a trusted proxy, absolute). */
function targetOf(req: IncomingMessage, trusted: ReadonlySet<string>): string {
  return requestTargetOf(
    {
      socketAddress: req.socket.remoteAddress,
      url: req.url ?? "/",
      host: req.headers.host,
      forwardedProto: req.headers["x-forwarded-proto"],
      forwardedHost: req.headers["x-forwarded-host"],
    },
    trusted,
  );
}

/**
 * The app's Request for a member page the page cache renders (a GET, no
 * body), without Accept-Encoding: the cache keeps the page plain and encodes
 * it itself, on the zlib pool, once per encoding.
 */
function pageRequestOf(req: IncomingMessage, trusted: ReadonlySet<string>): Request {
  const target = targetOf(req, trusted);
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.toLowerCase() !== "accept-encoding") headers.append(name, raw[i + 1] as string);
  }
  const url = target.startsWith("/") ? `http://${req.headers.host}${target}` : target;
  return new Request(url, { headers });
}

/**
 * An answer given on node:http before the Hono app: it writes the whole response
 * and returns true, or returns false without touching the response to leave the
 * request to the next answer. It may return a promise of either.
 */
export type FastAnswer = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

/**
 * The server's request listener: the fast answers in order, then the app (the
 * Hono shell through @hono/node-server's getRequestListener) for every request
 * none of them answered. An answer that throws before writing hands the request
 * to the app.
 */
export function nodeListener(
  answers: readonly FastAnswer[],
  app: RequestListener,
): RequestListener {
  return (req, res) => {
    const failed = (error: unknown) => {
      logger.error({ err: error, path: req.url?.split("?")[0] }, "fast answer failed");
      if (res.headersSent) res.destroy();
      else app(req, res);
    };
    const tryFrom = (first: number): void => {
      for (let i = first; i < answers.length; i++) {
        let answered: boolean | Promise<boolean>;
        try {
          answered = (answers[i] as FastAnswer)(req, res);
        } catch (error) {
          failed(error);
          return;
        }
        if (answered === true) return;
        if (answered !== false) {
          answered.then((done) => {
            if (!done) tryFrom(i + 1);
          }, failed);
          return;
        }
      }
      app(req, res);
    };
    tryFrom(0);
  };
}

/**
 * The app's listener, given each request with the target the app should see
 * (requestTargetOf): behind a trusted proxy that ends TLS, the absolute URL
 * the browser used, from which @hono/node-server builds request.url as it is.
 */
export function forwardedUrls(app: RequestListener, trusted: ReadonlySet<string>): RequestListener {
  return (req, res) => {
    req.url = targetOf(req, trusted);
    app(req, res);
  };
}

/**
 * A path the app would take as it is: no percent-encoding, backslash or dot
 * segment (and no dot file) for it to decode or normalise. Others go to the
 * app, which serves the same files for them.
 */
const plainPath = /^\/[\w\-.~/]*$/;
/** A Host the app would take as it is (others may be refused with 400 there). */
const plainHost = /^[a-z0-9.-]+(?::\d{1,5})?$/i;

/** How many replies each file keeps (distinct methods, validators and Accept-Encoding values). */
const repliesKeptPerFile = 16;

/**
 * Static files and prerendered pages from memory (loadStaticFiles), as the
 * app would answer them: the same file, status and headers for the same
 * request (staticFileFor and staticReply are shared with it).
 *
 * Each file keeps the replies it gave, headers merged, by what chose them (the
 * method, whether If-None-Match matched, the Accept-Encoding value): building
 * and merging the headers object on every request cost as much CPU as the rest
 * of the answer. A file replaced in the map (settings
 * changed) is a new object, so its replies are new too.
 */
export function staticFilesAnswer(
  files: ReadonlyMap<string, StaticFile>,
  answers: Answers,
): FastAnswer {
  return (req, res) => {
    const method = req.method ?? "";
    if (method !== "GET" && method !== "HEAD") return false;
    const url = req.url ?? "";
    const query = url.indexOf("?");
    const path = query === -1 ? url : url.slice(0, query);
    if (!plainPath.test(path) || path.includes("/.") || !plainHost.test(req.headers.host ?? "")) {
      return false;
    }
    const file = staticFileFor(files, path, query !== -1, req.headers.cookie);
    if (!file) return false;
    const ifNoneMatch = req.headers["if-none-match"];
    const acceptEncoding = req.headers["accept-encoding"];
    const key = `${method} ${ifNoneMatch === file.etag} ${acceptEncoding ?? ""}`;
    file.replies ??= new Map();
    let reply = file.replies.get(key);
    if (!reply) {
      reply = staticReply(file, method, ifNoneMatch, acceptEncoding);
      if (file.replies.size < repliesKeptPerFile) file.replies.set(key, reply);
    }
    // Counted: pages by their path (a bounded set: the prerendered ones), build files together.
    answers.fromMemory(
      req,
      res,
      reply.status,
      reply.headers,
      reply.body,
      file.visitorOnly ? path : "static file",
    );
    return true;
  };
}

/** Where the process is in its life, for /readyz (start.server.ts sets it). */
export type Readiness = {
  /** Migrations ran, the public pages are in memory and the app answers. */
  ready: boolean;
  /** SIGTERM or SIGINT came: draining, then stopping. */
  stopping: boolean;
};

const probeHeaders = { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" };

/**
 * GET or HEAD /healthz: 200 while the process lives (it answers even while
 * starting or draining). /readyz: 200 once the server is ready to serve and
 * not stopping, 503 before and after; what a load balancer's health check
 * should ask. Neither reads the database, so a database outage does not get
 * every process restarted or taken out at once.
 */
export function probesAnswer(readiness: Readiness, answers: Answers): FastAnswer {
  return (req, res) => {
    const url = req.url;
    if (url !== "/healthz" && url !== "/readyz") return false;
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const ok = url === "/healthz" || (readiness.ready && !readiness.stopping);
    const body =
      url === "/healthz" ? "ok" : ok ? "ready" : readiness.stopping ? "stopping" : "starting";
    answers.fromMemory(
      req,
      res,
      ok ? 200 : 503,
      probeHeaders,
      req.method === "HEAD" ? undefined : body,
    );
    return true;
  };
}
