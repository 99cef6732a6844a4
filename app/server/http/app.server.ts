import type { HttpBindings } from "@hono/node-server";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { maxBodyBytes, policyFor } from "~/route-policies";
import { clientIpHeader } from "../auth/better-auth.server";
import { logger } from "../logger.server";
import { type MetricsAccess, metricsAccess, metricsContentType } from "../metrics/metrics.server";
import { createAnswers } from "./answer.server";
import { compressResponses } from "./compress.server";
import { methodNotAllowed } from "./post-only.server";
import { type StaticFile, staticFileFor, staticResponse } from "./static-files.server";

export type HttpAppOptions = {
  publicOrigin: string;
  staticFiles: Map<string, StaticFile>;
  /** React Router's request handler. */
  handleRequest: (request: Request) => Promise<Response>;
  /**
   * GET /metrics: the metrics in Prometheus's text format (every server
   * process's), for a client on this machine or one with the bearer token.
   */
  metrics?: { token: string | undefined; read: () => Promise<string> };
  /** A path's route pattern, for metrics labels (route-label.server.ts); default: "(app)". */
  routeOf?: (path: string) => string;
  /** Reverse proxies whose X-Forwarded-For names the client (Env.trustedProxies). */
  trustedProxies?: readonly string[];
};

/**
 * The client's address: the socket's, or, when the socket is a trusted proxy,
 * the right-most X-Forwarded-For entry that is not itself a trusted proxy.
 */
export function clientAddressOf(
  socketAddress: string | undefined,
  forwardedFor: string | undefined,
  trusted: ReadonlySet<string>,
): string | undefined {
  if (!socketAddress || !trusted.has(socketAddress) || !forwardedFor) return socketAddress;
  const hops = forwardedFor
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string;
    if (!trusted.has(hop)) return hop;
  }
  return socketAddress;
}

/** What a forwarding header says, as one value: the right-most (the nearest proxy's) entry. */
function lastEntry(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.at(-1) : header;
  const entry = value?.split(",").at(-1)?.trim();
  return entry || undefined;
}

/**
 * The request's target as the app should see it (React Router's request.url,
 * redirects, absolute links). From a trusted proxy that says how the browser
 * reached it (X-Forwarded-Proto "http" or "https"), the absolute URL with
 * that scheme and the host the browser asked for (X-Forwarded-Host, else
 * Host): behind a proxy that ends TLS, a form's `Origin: https://...` then
 * matches the URL, as React Router's check of actions requires. From anyone
 * else the path alone (an absolute-form target is cut to its path and
 * query), so the server builds the URL from its own socket and the Host
 * header: a client cannot choose the scheme.
 */
export function requestTargetOf(
  request: {
    socketAddress: string | undefined;
    url: string;
    host: string | undefined;
    forwardedProto: string | string[] | undefined;
    forwardedHost: string | string[] | undefined;
  },
  trusted: ReadonlySet<string>,
): string {
  let target = request.url;
  if (!target.startsWith("/")) {
    // Absolute form (http://host/path): its path and query only.
    const scheme = /^https?:\/\/[^/?#]*/i.exec(target);
    if (scheme) target = target.slice(scheme[0].length) || "/";
    if (!target.startsWith("/")) target = `/${target}`;
  }
  if (!request.socketAddress || !trusted.has(request.socketAddress)) return target;
  const proto = lastEntry(request.forwardedProto)?.toLowerCase();
  if (proto !== "http" && proto !== "https") return target;
  const host = lastEntry(request.forwardedHost) ?? request.host;
  if (!host || !/^[a-z0-9.:[\]-]+$/i.test(host)) return target;
  return `${proto}://${host}${target}`;
}

/**
 * The app the request pipeline hands what it does not answer from memory
 * (pipeline.server.ts): every answer's headers and metric (answer.server.ts),
 * /metrics, static files for odd URLs, then React Router. Refuses bodies over the route's limit
 * (413), non-GET requests from another origin or without an Origin header
 * (403) unless the route waives the check (webhooks), and GET or HEAD on a
 * POST-only route (405). The routes' policies are in app/route-policies.ts.
 */
export function createHttpApp(options: HttpAppOptions) {
  const app = new Hono<{ Bindings: HttpBindings }>();
  // Every answer's headers and metric (answer.server.ts): the answers from memory get the same.
  const answers = createAnswers(options.publicOrigin, options.routeOf ?? (() => "(app)"));
  app.use(async (c, next) => {
    const started = performance.now();
    await next();
    c.res = answers.finish(c.req.raw, c.req.path, c.res, started);
  });

  const metrics = options.metrics;
  if (metrics) {
    const never = { "Cache-Control": "no-store" };
    const refusals: Record<Exclude<MetricsAccess, "allowed">, () => Response> = {
      unauthorized: () =>
        new Response("A bearer token is required", {
          status: 401,
          headers: { ...never, "WWW-Authenticate": 'Bearer realm="metrics"' },
        }),
      forbidden: () =>
        new Response("Metrics are served to this machine only", { status: 403, headers: never }),
    };
    app.get("/metrics", async (c) => {
      const access = metricsAccess(
        {
          socketAddress: c.env?.incoming?.socket.remoteAddress,
          authorization: c.req.header("authorization"),
          forwarded:
            c.req.header("x-forwarded-for") !== undefined ||
            c.req.header("forwarded") !== undefined,
        },
        metrics.token,
      );
      if (access !== "allowed") return refusals[access]();
      try {
        return new Response(await metrics.read(), {
          headers: { ...never, "Content-Type": metricsContentType },
        });
      } catch (error) {
        logger.error({ err: error }, "metrics could not be read");
        return new Response("Metrics unavailable", { status: 503, headers: never });
      }
    });
  }

  // pipeline.server.ts answers these before Hono; this serves what it leaves (odd URLs).
  app.on(["GET", "HEAD"], "*", async (c, next) => {
    const file = staticFileFor(
      options.staticFiles,
      c.req.path,
      c.req.url.includes("?"),
      c.req.header("cookie"),
    );
    if (!file) return next();
    return staticResponse(file, c.req.raw);
  });

  // Browsers send Origin with every POST (and other non-GET request); a request without
  // one is a script's, which must not act with a browser's cookies. Webhooks come from
  // the payment providers' servers and carry their own signature or key instead
  // (`originCheck: false` in their policy).
  app.use(async (c, next) => {
    const method = c.req.method;
    if (method === "GET" || method === "HEAD" || method === "OPTIONS") return next();
    if (policyFor(c.req.path).originCheck === false) return next();
    const origin = c.req.header("origin");
    if (origin === undefined) return c.text("Request refused: it has no Origin header", 403);
    const site = c.req.header("sec-fetch-site");
    if (origin !== options.publicOrigin || site === "cross-site") {
      return c.text("Cross-site request refused", 403);
    }
    return next();
  });

  const tooLarge = (c: { text: (body: string, status: 413) => Response }) =>
    c.text("Request body too large", 413);
  const limits = new Map<number, ReturnType<typeof bodyLimit>>();
  const limitOf = (maxSize: number) => {
    let limit = limits.get(maxSize);
    if (!limit) {
      limit = bodyLimit({ maxSize, onError: tooLarge });
      limits.set(maxSize, limit);
    }
    return limit;
  };
  // A GET's or HEAD's body is never read: the limit is not asked for it (asking makes the
  // adapter build a whole second Request of every page's request).
  app.use((c, next) =>
    c.req.method === "GET" || c.req.method === "HEAD"
      ? next()
      : limitOf(policyFor(c.req.path).bodyLimit ?? maxBodyBytes)(c, next),
  );

  // A route that only takes POST answers GET and HEAD with 405 and Allow, here as from its
  // loader (postOnly), so that React Router does not log them as errors.
  app.on(["GET", "HEAD"], "*", async (c, next) => {
    const methods = policyFor(c.req.path).methods;
    return methods ? methodNotAllowed(methods) : next();
  });

  app.use(compressResponses());

  const trusted = new Set(options.trustedProxies ?? []);
  app.all("*", async (c) => {
    // The app reads the client address from this header: overwrite whatever the client sent.
    const address = clientAddressOf(
      c.env?.incoming?.socket.remoteAddress,
      c.req.header("x-forwarded-for"),
      trusted,
    );
    c.req.raw.headers.delete(clientIpHeader);
    if (address) c.req.raw.headers.set(clientIpHeader, address);
    return options.handleRequest(c.req.raw);
  });

  return app;
}
