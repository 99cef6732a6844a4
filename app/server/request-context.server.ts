import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";

/**
 * The request being answered, for whatever runs on its behalf: the logger
 * adds its id to every line (logger.server.ts). Set by the server's request
 * listener (start.server.ts) around everything a request starts.
 */
export type RequestContext = { requestId: string };

export const requestContext = new AsyncLocalStorage<RequestContext>();

/** The id of the request being answered, if any. */
export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}

// Unique across processes and restarts without asking the system for entropy per
// request: a random prefix per process, then a counter.
const processPrefix = randomBytes(6).toString("base64url");
let counter = 0;

/** A new request id: this process's random prefix and a counter. */
export function newRequestId(): string {
  counter += 1;
  return `${processPrefix}-${counter.toString(36)}`;
}

/** What a proxy may send as X-Request-Id: letters, digits and a few separators, 1-128 of them. */
const saneRequestId = /^[A-Za-z0-9._:+/=@-]{1,128}$/;

/**
 * The request's id: the X-Request-Id a trusted proxy sent (TRUSTED_PROXIES),
 * when it looks like an id, so that one id follows the request through the
 * proxy's logs and ours; otherwise a new one. A client's own header is ignored.
 */
export function requestIdOf(req: IncomingMessage, trustedProxies: ReadonlySet<string>): string {
  const given = req.headers["x-request-id"];
  if (
    typeof given === "string" &&
    trustedProxies.size > 0 &&
    trustedProxies.has(req.socket.remoteAddress ?? "") &&
    saneRequestId.test(given)
  ) {
    return given;
  }
  return newRequestId();
}
