import type { HttpBindings } from "@hono/node-server";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { maxBodyBytes, policyFor } from "~/route-policies";
import { clientIpHeader } from "../auth/better-auth.server";
import { logger } from "../logger.server";
import {
  type MetricsAccess,
  metricsAccess,
  metricsContentType,
  observeRequest,
} from "../metrics/metrics.server";
import { currentRequestId } from "../request-context.server";
import { compressResponses } from "./compress.server";
import { contentSecurityPolicy } from "./csp.server";
import type { PageCache } from "./page-cache.server";
import { methodNotAllowed } from "./post-only.server";
import {
  carriesSession,
  type StaticFile,
  staticFileFor,
  staticResponse,
} from "./static-files.server";

export { maxBodyBytes, maxUploadBodyBytes } from "~/route-policies";

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
  /** Keeps member pages rendered per session while the database is unchanged. */
  pageCache?: PageCache;
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

/** Set on every response unless the route set its own (node-listener.server.ts too). */
export const securityHeaders: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Content-Security-Policy": contentSecurityPolicy(),
  "Cross-Origin-Opener-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
};

/** Set on every response when the site is served over https. */
export const strictTransportSecurity = "max-age=63072000; includeSubDomains";

const hasSessionCookie = (request: Request) => carriesSession(request.headers.get("cookie"));

/**
 * The HTTP shell: request metrics, security headers, /metrics, in-memory
 * static files and prerendered pages, then React Router. Refuses bodies over the route's limit
 * (413), non-GET requests from another origin or without an Origin header
 * (403) unless the route waives the check (webhooks), and GET or HEAD on a
 * POST-only route (405). The routes' policies are in app/route-policies.ts.
 */
export function createHttpApp(options: HttpAppOptions) {
  const app = new Hono<{ Bindings: HttpBindings }>();
  const isProduction = options.publicOrigin.startsWith("https://");

  // Requests and their time by route pattern (fast answers count their own).
  const routeOf = options.routeOf ?? (() => "(app)");
  app.use(async (c, next) => {
    const started = performance.now();
    await next();
    observeRequest(
      routeOf(c.req.path),
      c.req.method,
      c.res.status,
      (performance.now() - started) / 1000,
    );
  });

  app.use(async (c, next) => {
    await next();
    const requestId = currentRequestId();
    if (requestId) c.res.headers.set("X-Request-Id", requestId);
    // A route may set a stricter policy of its own (uploaded images: default-src 'none').
    for (const [name, value] of Object.entries(securityHeaders)) {
      if (!c.res.headers.has(name)) c.res.headers.set(name, value);
    }
    if (isProduction) {
      c.res.headers.set("Strict-Transport-Security", strictTransportSecurity);
    }
  });

  const metrics = options.metrics;
  if (metrics) {
    const refusals: Record<Exclude<MetricsAccess, "allowed">, () => Response> = {
      unauthorized: () =>
        new Response("A bearer token is required", {
          status: 401,
          headers: { "WWW-Authenticate": 'Bearer realm="metrics"', "Cache-Control": "no-store" },
        }),
      forbidden: () =>
        new Response("Metrics are served to this machine only", {
          status: 403,
          headers: { "Cache-Control": "no-store" },
        }),
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
          headers: { "Content-Type": metricsContentType, "Cache-Control": "no-store" },
        });
      } catch (error) {
        logger.error({ err: error }, "metrics could not be read");
        return new Response("Metrics unavailable", {
          status: 503,
          headers: { "Cache-Control": "no-store" },
        });
      }
    });
  }

  // node-listener.server.ts answers these before Hono; this serves what it leaves (odd URLs).
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
  app.use((c, next) => limitOf(policyFor(c.req.path).bodyLimit ?? maxBodyBytes)(c, next));

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
    const request = c.req.raw;
    const response =
      options.pageCache && request.method === "GET" && hasSessionCookie(request)
        ? await options.pageCache.respond(
            request,
            () => options.handleRequest(request),
            c.env?.incoming,
          )
        : await options.handleRequest(request);
    // A page rendered for a signed-in user is theirs alone: no shared or back-button cache.
    if (hasSessionCookie(c.req.raw) && !response.headers.has("Cache-Control")) {
      const headers = new Headers(response.headers);
      headers.set("Cache-Control", "private, no-store");
      headers.append("Vary", "Cookie");
      return new Response(response.body, { status: response.status, headers });
    }
    return response;
  });

  return app;
}
