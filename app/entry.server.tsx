import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { NonceContext } from "./lib/nonce";
import { pageCacheQueryFor } from "./route-policies";
import { consentedPage, hasChosenConsent } from "./server/http/consented-page.server";
import { contentSecurityPolicy, keptPage, newNonce } from "./server/http/csp.server";
import { pageRenders, renderKey } from "./server/http/page-renders.server";
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
 *
 * A member page the page cache keeps is rendered once for its address and
 * data, whichever member asks (page-renders.server.ts, decision 057).
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  const answer = (html: Uint8Array<ArrayBuffer>, status: number) =>
    // A visitor who has chosen in the cookie banner does not see it, without JavaScript too.
    new Response(hasChosenConsent(request.headers.get("cookie")) ? consentedPage(html) : html, {
      status,
      headers: responseHeaders,
    });
  if (!keepsRender(request, responseStatusCode, routerContext)) {
    const page = await renderPage(request, responseHeaders, responseStatusCode, routerContext);
    return answer(page.html, page.status);
  }
  // The data the page is rendered from, as React Router sends it to the browser.
  const data = await new Response(routerContext.serverHandoffStream).text();
  const key = renderKey(request.url, responseStatusCode, data);
  const page = await pageRenders.page(key, async () => {
    const rendered = await renderPage(request, responseHeaders, responseStatusCode, {
      ...routerContext,
      serverHandoffStream: streamOf(data),
    });
    // Its nonce was for this answer alone: kept, its scripts are named by their hashes.
    const policy = responseHeaders.get("Content-Security-Policy") ?? undefined;
    return {
      page: { ...keptPage(rendered.html, policy), status: rendered.status },
      keep: rendered.status === responseStatusCode,
    };
  });
  setPolicy(responseHeaders, page.policy);
  return answer(page.body, "status" in page ? page.status : responseStatusCode);
}

/**
 * Whether this render is one kept for whoever's data is the same: a GET of a
 * page the member page cache keeps, rendered without an error. Not under
 * `npm run dev`, where a component changes while its data does not.
 */
function keepsRender(request: Request, status: number, routerContext: EntryContext) {
  return (
    !import.meta.hot &&
    request.method === "GET" &&
    status === 200 &&
    !routerContext.staticHandlerContext.errors &&
    routerContext.serverHandoffStream !== undefined &&
    pageCacheQueryFor(new URL(request.url).pathname) !== undefined
  );
}

function setPolicy(headers: Headers, policy: string | undefined) {
  if (policy) headers.set("Content-Security-Policy", policy);
  else headers.delete("Content-Security-Policy");
}

function streamOf(text: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      controller.close();
    },
  });
}

/** The page's HTML, rendered with a nonce of its own for its inline scripts (csp.server.ts). */
function renderPage(
  request: Request,
  responseHeaders: Headers,
  responseStatusCode: number,
  routerContext: EntryContext,
) {
  return new Promise<{ html: Uint8Array<ArrayBuffer>; status: number }>((resolve, reject) => {
    let status = responseStatusCode;
    const chunks: Buffer[] = [];
    const timeout = setTimeout(() => abort(), streamTimeout + 1000);
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
      final(callback) {
        clearTimeout(timeout);
        resolve({ html: new Uint8Array(preloadScriptsAfterPaint(Buffer.concat(chunks))), status });
        callback();
      },
    });
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
