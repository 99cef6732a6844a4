import type { MiddlewareHandler } from "hono";
import { encodeBody, negotiateEncoding } from "./encoding.server";

const compressible = /^(text\/|application\/(json|javascript|xml))/;
const minBytes = 1024;

/**
 * Compresses rendered responses in one go (brotli, else gzip) on the zlib
 * thread pool. Rendered pages are small and already whole (entry.server.tsx),
 * so this is cheaper than a per-chunk compression stream.
 */
export function compressResponses(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    const type = res.headers.get("content-type") ?? "";
    const encoding = negotiateEncoding(c.req.header("accept-encoding"));
    if (
      !res.body ||
      res.headers.has("content-encoding") ||
      !compressible.test(type) ||
      c.req.method === "HEAD" ||
      !encoding
    ) {
      return;
    }
    const body = Buffer.from(await res.arrayBuffer());
    const headers = new Headers(res.headers);
    headers.append("Vary", "Accept-Encoding");
    if (body.byteLength < minBytes) {
      headers.set("Content-Length", String(body.byteLength));
      c.res = new Response(body, { status: res.status, headers });
      return;
    }
    const compressed = await encodeBody(body, encoding, 4);
    headers.set("Content-Encoding", encoding);
    headers.set("Content-Length", String(compressed.byteLength));
    c.res = new Response(compressed, { status: res.status, headers });
  };
}
