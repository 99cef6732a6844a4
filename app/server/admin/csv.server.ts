// CSV downloads of the owner's console: RFC 4180 quoting, and cells a
// spreadsheet would run as a formula (=, +, -, @, tab, carriage return at the
// start) prefixed with an apostrophe so they open as text.

import { nextTurn } from "../db/client.server";
import { logger } from "../logger.server";

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
 * The last line of a download that failed part way: what the owner sees at
 * the end of the file instead of the rows that are missing.
 */
export const csvFailedLine = csvLine([
  "Error: the export stopped before the end and this file is incomplete. Please download it again.",
]);

/**
 * A streamed CSV response: the header line, then each batch of rows as the
 * database gives it, so a large table is never held in memory at once and
 * other requests are served between batches. The
 * status and headers are sent before the first batch is read: a failure after
 * that ends the file with csvFailedLine and is logged through the logger
 * (which leaves out a database error's parameters). It is never handed to
 * the HTTP server, which would end the download with the error's message:
 * the SQL and its parameters.
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
      try {
        // Others' requests are read before each batch (nextTurn).
        await nextTurn();
        const next = await iterator.next();
        if (next.done) {
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(next.value.map((row) => csvLine(toLine(row))).join("")));
      } catch (error) {
        logger.error({ err: error, file: filename }, "CSV export failed");
        controller.enqueue(encoder.encode(csvFailedLine));
        controller.close();
        await Promise.resolve(iterator.return?.()).catch(() => undefined);
      }
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
