import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { logger } from "../logger.server";
import { countRequest } from "../metrics/metrics.server";
import { withRequestId } from "../request-context.server";
import { requestTargetOf, securityHeaders, strictTransportSecurity } from "./app.server";
import {
  type StaticFile,
  type StaticReply,
  staticFileFor,
  staticReply,
} from "./static-files.server";

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
    req.url = requestTargetOf(
      {
        socketAddress: req.socket.remoteAddress,
        url: req.url ?? "/",
        host: req.headers.host,
        forwardedProto: req.headers["x-forwarded-proto"],
        forwardedHost: req.headers["x-forwarded-host"],
      },
      trusted,
    );
    app(req, res);
  };
}

/** The headers the Hono shell adds to every answer (app.server.ts), for answers given before it. */
export function shellHeaders(publicOrigin: string): Readonly<Record<string, string>> {
  return publicOrigin.startsWith("https://")
    ? { ...securityHeaders, "Strict-Transport-Security": strictTransportSecurity }
    : securityHeaders;
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
 * Static files and prerendered pages from memory (loadStaticFiles), with the
 * headers the Hono shell gives them: the same file, status and headers for the
 * same request (staticFileFor and staticReply are shared with it).
 *
 * Each file keeps the replies it gave, headers merged, by what chose them (the
 * method, whether If-None-Match matched, the Accept-Encoding value): building
 * and merging the headers object on every request cost as much CPU as the rest
 * of the answer. A file replaced in the map (settings
 * changed) is a new object, so its replies are new too.
 */
export function staticFilesAnswer(
  files: ReadonlyMap<string, StaticFile>,
  publicOrigin: string,
): FastAnswer {
  const headers = shellHeaders(publicOrigin);
  const kept = new WeakMap<StaticFile, Map<string, StaticReply>>();
  const replyFor = (
    file: StaticFile,
    method: string,
    ifNoneMatch: string | undefined,
    acceptEncoding: string | undefined,
  ): StaticReply => {
    let replies = kept.get(file);
    if (!replies) {
      replies = new Map();
      kept.set(file, replies);
    }
    const key = `${method} ${ifNoneMatch === file.etag} ${acceptEncoding ?? ""}`;
    let reply = replies.get(key);
    if (!reply) {
      const own = staticReply(file, method, ifNoneMatch, acceptEncoding);
      // The shell's headers, and the file's own where it has one (a page's CSP).
      reply = { ...own, headers: { ...headers, ...own.headers } };
      if (replies.size < repliesKeptPerFile) replies.set(key, reply);
    }
    return reply;
  };
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
    const reply = replyFor(
      file,
      method,
      req.headers["if-none-match"],
      req.headers["accept-encoding"],
    );
    res.writeHead(reply.status, withRequestId(reply.headers));
    res.end(reply.body);
    // Pages by their path (a bounded set: the prerendered ones), build files together.
    countRequest(file.visitorOnly ? path : "static file", method, reply.status);
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
export function probesAnswer(readiness: Readiness): FastAnswer {
  return (req, res) => {
    const url = req.url;
    if (url !== "/healthz" && url !== "/readyz") return false;
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const ok = url === "/healthz" || (readiness.ready && !readiness.stopping);
    const body =
      url === "/healthz" ? "ok" : ok ? "ready" : readiness.stopping ? "stopping" : "starting";
    res.writeHead(ok ? 200 : 503, withRequestId(probeHeaders));
    res.end(req.method === "HEAD" ? undefined : body);
    return true;
  };
}
