import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { encodeBody, negotiateEncoding } from "./encoding.server";

describe("negotiateEncoding", () => {
  it.each([
    ["gzip, deflate, br", "br"],
    ["br", "br"],
    ["br;q=1.0, gzip;q=0.8", "br"],
    ["gzip, deflate", "gzip"],
    ["deflate, gzip;q=0.5", "gzip"],
    ["deflate", undefined],
    ["identity", undefined],
    ["", undefined],
    [null, undefined],
    [undefined, undefined],
  ] as const)("%j gives %s", (accept, expected) => {
    expect(negotiateEncoding(accept)).toBe(expected);
  });

  it("matches whole tokens only", () => {
    expect(negotiateEncoding("brotli, gzipped")).toBeUndefined();
  });

  it("falls back to what the caller offers", () => {
    expect(negotiateEncoding("br, gzip", (e) => e === "gzip")).toBe("gzip");
    expect(negotiateEncoding("br", (e) => e === "gzip")).toBeUndefined();
    expect(negotiateEncoding("br, gzip", () => false)).toBeUndefined();
  });
});

describe("encodeBody", () => {
  const body = new TextEncoder().encode("<p>hello</p>".repeat(500));

  it("compresses with brotli and with gzip, and both round-trip", async () => {
    const br = await encodeBody(body, "br", 4);
    const gz = await encodeBody(body, "gzip", 4);
    expect(br.byteLength).toBeLessThan(body.byteLength);
    expect(gz.byteLength).toBeLessThan(body.byteLength);
    expect(new Uint8Array(brotliDecompressSync(br))).toEqual(body);
    expect(new Uint8Array(gunzipSync(gz))).toEqual(body);
  });
});
