// How a stored file is answered as a download: under the name its owner gave
// it (reduced to safe characters, with the extension of what it is), never
// shown in the browser, never kept by a shared cache.

/** The name a download is saved as: `given` without its own extension, plus the stored file's. */
export function downloadName(given: string, storedName: string, fallback: string): string {
  const ext = storedName.slice(storedName.lastIndexOf("."));
  const base =
    given
      .replace(/\.[^.]*$/, "")
      .replace(/[^A-Za-z0-9 _-]/g, "")
      .trim() || fallback;
  return `${base.slice(0, 80)}${ext}`;
}

/** A stored file as an attachment of `type`, saved as `name` (downloadName). */
export function downloadResponse(bytes: Uint8Array<ArrayBuffer>, type: string, name: string) {
  return new Response(bytes, {
    headers: {
      "Content-Type": type,
      "Content-Length": String(bytes.byteLength),
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "private, no-store",
      "Content-Security-Policy": "default-src 'none'",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
