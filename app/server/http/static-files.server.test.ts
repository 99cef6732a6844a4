import { brotliCompressSync, brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { brotliOptions } from "./encoding.server";
import { staticEntry } from "./static-files.server";

/** A prerendered page of about the size of the sales page. */
function page(): Uint8Array<ArrayBuffer> {
  const sections = Array.from(
    { length: 400 },
    (_, i) =>
      `<section id="s${i}"><h2>Step ${i}</h2><p>Build, price and launch ${i}.</p></section>`,
  );
  return new TextEncoder().encode(`<!DOCTYPE html><html><body>${sections.join("")}</body></html>`);
}

describe("staticEntry", () => {
  it("keeps a page's brotli and gzip copies, compressed off the server's thread", async () => {
    const body = page();
    // A re-render of the prerendered pages follows a purchase: while its pages are being
    // compressed, the server's thread keeps answering (here: the next turn of the loop runs).
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    const [route, file] = (await staticEntry("/ailabs-offer/index.html", body)) ?? [];
    expect(turned).toBe(true);
    expect(route).toBe("/ailabs-offer");
    const plain = Buffer.from(file?.body ?? []);
    expect(brotliDecompressSync(file?.br ?? new Uint8Array())).toEqual(plain);
    expect(gunzipSync(file?.gzip ?? new Uint8Array())).toEqual(plain);
    expect(file?.br?.byteLength).toBeLessThan(plain.byteLength / 4);
    // The copy for visitors who chose in the cookie banner is compressed the same way.
    expect(brotliDecompressSync(file?.consented?.br ?? new Uint8Array()).byteLength).toBe(
      file?.consented?.body.byteLength,
    );
  });

  it("compresses a page at brotli 11 at start, and at 9 when it is rendered again", async () => {
    const body = page();
    const brotli = (quality: number) =>
      new Uint8Array(brotliCompressSync(body, brotliOptions(quality, body.byteLength)));
    const [, atStart] = (await staticEntry("/ailabs-offer.data", body)) ?? [];
    expect(atStart?.br).toEqual(brotli(11));
    // After a purchase, say: a twentieth of the CPU time, for bytes about a tenth larger.
    const [, again] = (await staticEntry("/ailabs-offer.data", body, { rendered: true })) ?? [];
    expect(again?.br).toEqual(brotli(9));
  });
});
