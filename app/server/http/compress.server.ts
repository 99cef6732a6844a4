import { promisify } from "node:util";
import { brotliCompress, gzip } from "node:zlib";
import type { MiddlewareHandler } from "hono";
import { brotliOptions } from "./encoding.server";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
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
    const accept = c.req.header("accept-encoding") ?? "";
    if (
      !res.body ||
      res.headers.has("content-encoding") ||
      !compressible.test(type) ||
      c.req.method === "HEAD" ||
      !/\b(br|gzip)\b/.test(accept)
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
    const useBrotli = /\bbr\b/.test(accept);
    const compressed = useBrotli
      ? await brotli(body, brotliOptions(4, body.byteLength))
      : await gzipAsync(body, { level: 6 });
    headers.set("Content-Encoding", useBrotli ? "br" : "gzip");
    headers.set("Content-Length", String(compressed.byteLength));
    c.res = new Response(compressed, { status: res.status, headers });
  };
}
