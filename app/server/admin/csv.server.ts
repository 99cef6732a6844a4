// CSV downloads of the owner's console: RFC 4180 quoting, and cells a
// spreadsheet would run as a formula (=, +, -, @, tab, carriage return at the
// start) prefixed with an apostrophe so they open as text.

export type CsvValue = string | number | boolean | Date | null;

export function csvCell(value: CsvValue): string {
  if (value === null) return "";
  let text = value instanceof Date ? value.toISOString() : String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}

/**
 * A streamed CSV response: the header line, then each batch of rows as the
 * database gives it, so a large table is never held in memory at once.
 */
export function csvResponse<T>(
  filename: string,
  header: readonly string[],
  batches: AsyncIterable<readonly T[]>,
  toLine: (row: T) => readonly CsvValue[],
): Response {
  const encoder = new TextEncoder();
  const iterator = batches[Symbol.asyncIterator]();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvLine(header)));
    },
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) {
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(next.value.map((row) => csvLine(toLine(row))).join("")));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    },
  });
}
