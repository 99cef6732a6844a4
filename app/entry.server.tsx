import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { NonceContext } from "./lib/nonce";
import { consentedPage, hasChosenConsent } from "./server/http/consented-page.server";
import { contentSecurityPolicy, newNonce } from "./server/http/csp.server";
import { preloadScriptsAfterPaint } from "./server/http/script-priority.server";
import { logError } from "./server/log-error.server";
import { logger } from "./server/logger.server";

export const streamTimeout = 5_000;

export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  const what = `${request.method} ${new URL(request.url).pathname}`;
  // React Router's own 4xx answers (a method the route does not take, say) are the
  // client's mistake, not the server's: noted, not logged as errors.
  if (isRouteErrorResponse(error) && error.status < 500) {
    const reason = typeof error.data === "string" ? error.data : error.statusText;
    logger.info({ status: error.status, reason }, `${what} refused`);
    return;
  }
  logError(error, `${what} failed`);
};

/**
 * Renders the whole page, then answers it as one buffer. The pages stream
 * nothing late (no deferred data), so waiting for all of it costs no time to
 * first byte, and one buffer skips the stream adapters that the default
 * entry pipes every chunk through; the HTTP shell then compresses it once.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  return new Promise<Response>((resolve, reject) => {
    let status = responseStatusCode;
    const chosen = hasChosenConsent(request.headers.get("cookie"));
    const chunks: Buffer[] = [];
    const timeout = setTimeout(() => abort(), streamTimeout + 1000);
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
      final(callback) {
        clearTimeout(timeout);
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        const html = new Uint8Array(preloadScriptsAfterPaint(Buffer.concat(chunks)));
        // A visitor who has chosen in the cookie banner does not see it, without JavaScript too.
        const body = chosen ? consentedPage(html) : html;
        resolve(new Response(body, { status, headers: responseHeaders }));
        callback();
      },
    });
    // Each rendered page's inline scripts carry a nonce of their own (csp.server.ts).
    const nonce = newNonce();
    responseHeaders.set(
      "Content-Security-Policy",
      contentSecurityPolicy([`'nonce-${nonce}'`], {
        path: new URL(request.url).pathname,
        development: import.meta.env.DEV,
      }),
    );
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        onAllReady() {
          pipe(sink);
        },
        onShellError(error: unknown) {
          clearTimeout(timeout);
          reject(error);
        },
        onError(error: unknown) {
          status = 500;
          logError(error, "render failed");
        },
      },
    );
  });
}
