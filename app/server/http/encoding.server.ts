import { promisify } from "node:util";
import {
  type BrotliOptions,
  brotliCompress,
  brotliDecompress,
  constants,
  gunzip,
  gzip,
} from "node:zlib";

/**
 * Brotli settings for a body of `byteLength` bytes: the window is no larger
 * than the body needs (brotli's default is 4 MiB), so compressing a 30 KB
 * page allocates about a hundred kilobytes instead of several megabytes.
 * Buffers that large are what malloc keeps per thread after a burst.
 */
export function brotliOptions(quality: number, byteLength: number): BrotliOptions {
  const window = Math.min(
    constants.BROTLI_MAX_WINDOW_BITS,
    Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(byteLength + 1))),
  );
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_LGWIN]: window,
      [constants.BROTLI_PARAM_SIZE_HINT]: byteLength,
    },
  };
}

export type ContentEncoding = "br" | "gzip";

/**
 * The encoding to answer with for this Accept-Encoding header: brotli when it
 * names `br`, else gzip when it names `gzip`, else none (undefined). `offered`
 * says which of the two the caller has for this body; both by default.
 */
export function negotiateEncoding(
  acceptEncoding: string | null | undefined,
  offered: (encoding: ContentEncoding) => boolean = () => true,
): ContentEncoding | undefined {
  const accept = acceptEncoding ?? "";
  if (/\bbr\b/.test(accept) && offered("br")) return "br";
  if (/\bgzip\b/.test(accept) && offered("gzip")) return "gzip";
  return undefined;
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const brotliDecompressAsync = promisify(brotliDecompress);
const gunzipAsync = promisify(gunzip);

/**
 * `body` compressed in `encoding` on the zlib thread pool: brotli at
 * `brotliQuality` with a window sized to the body, gzip at `gzipLevel`.
 */
export async function encodeBody(
  body: Uint8Array,
  encoding: ContentEncoding,
  brotliQuality: number,
  gzipLevel = 6,
): Promise<Buffer<ArrayBuffer>> {
  return encoding === "br"
    ? brotliAsync(body, brotliOptions(brotliQuality, body.byteLength))
    : gzipAsync(body, { level: gzipLevel });
}

/** `body`, compressed in `encoding` (encodeBody), decompressed on the zlib thread pool. */
export async function decodeBody(
  body: Uint8Array,
  encoding: ContentEncoding,
): Promise<Buffer<ArrayBuffer>> {
  return encoding === "br" ? brotliDecompressAsync(body) : gunzipAsync(body);
}
