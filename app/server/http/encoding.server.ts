import { type BrotliOptions, constants } from "node:zlib";

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
