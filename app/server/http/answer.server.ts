import type { IncomingMessage, ServerResponse } from "node:http";
import { observeRequest } from "../metrics/metrics.server";
import { currentRequestId } from "../request-context.server";
import { contentSecurityPolicy } from "./csp.server";
import { carriesSession } from "./static-files.server";

/**
 * What every answer gets, applied here and nowhere else: the security
 * headers (a route's own Content-Security-Policy wins), Strict-Transport-
 * Security over https, X-Request-Id, `private, no-store` for a signed-in
 * user's answer that sets no cache rule of its own, and the request metric.
 * Two doors, one rule: `fromMemory` for the answers written on node:http
 * (static files, prerendered pages, kept member pages, probes), `finish` for
 * the app's Responses (rendered pages, redirects, errors, /metrics).
 */
export const securityHeaders: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Content-Security-Policy": contentSecurityPolicy(),
  "Cross-Origin-Opener-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
};

/** Set on every answer when the site is served over https. */
export const strictTransportSecurity = "max-age=63072000; includeSubDomains";

/** A signed-in user's answer is theirs alone: no shared or back-button cache. */
export const signedInCache = "private, no-store";

export type Answers = ReturnType<typeof createAnswers>;

/**
 * @param routeOf a path's route pattern, the metrics label of a rendered answer
 *   (route-label.server.ts); never the raw URL.
 */
export function createAnswers(publicOrigin: string, routeOf: (path: string) => string) {
  const shell = publicOrigin.startsWith("https://")
    ? { ...securityHeaders, "Strict-Transport-Security": strictTransportSecurity }
    : securityHeaders;
  // The answers from memory keep their headers object: the shell's are merged into a flat
  // [name, value, ...] list once per object (a fresh merge per request costs as much CPU
  // as writing the answer, and res.setHeader before writeHead merges one by one).
  const merged = [new WeakMap<object, string[]>(), new WeakMap<object, string[]>()] as const;
  const flatHeaders = (own: Readonly<Record<string, string>>, signedIn: boolean): string[] => {
    const kept = merged[signedIn ? 1 : 0];
    let flat = kept.get(own);
    if (!flat) {
      const all: Record<string, string> = { ...shell, ...own };
      if (signedIn && own["Cache-Control"] === undefined) {
        all["Cache-Control"] = signedInCache;
        all.Vary = own.Vary ? `Cookie, ${own.Vary}` : "Cookie";
      }
      flat = Object.entries(all).flat();
      kept.set(own, flat);
    }
    return flat;
  };

  return {
    /**
     * Writes an answer given from memory. `own` is a kept object (the same for
     * every request that gets this answer). Counted under `route` when one is
     * given: observed with its time when `started` (performance.now()) is too.
     */
    fromMemory(
      req: IncomingMessage,
      res: ServerResponse,
      status: number,
      own: Readonly<Record<string, string>>,
      body: Uint8Array | string | undefined,
      route?: string,
      started?: number,
    ): void {
      const flat = flatHeaders(own, carriesSession(req.headers.cookie));
      const id = currentRequestId();
      res.writeHead(status, id ? [...flat, "X-Request-Id", id] : flat);
      res.end(body);
      if (route === undefined) return;
      const seconds = started === undefined ? undefined : (performance.now() - started) / 1000;
      observeRequest(route, req.method ?? "", status, seconds);
    },

    /** The app's Response with what every answer gets, counted with the time since `started`. */
    finish(request: Request, path: string, response: Response, started: number): Response {
      const headers = response.headers;
      for (const name in shell) {
        if (!headers.has(name)) headers.set(name, shell[name] as string);
      }
      const id = currentRequestId();
      if (id) headers.set("X-Request-Id", id);
      if (!headers.has("Cache-Control") && carriesSession(request.headers.get("cookie"))) {
        headers.set("Cache-Control", signedInCache);
        headers.append("Vary", "Cookie");
      }
      observeRequest(
        routeOf(path),
        request.method,
        response.status,
        (performance.now() - started) / 1000,
      );
      return response;
    },
  };
}
