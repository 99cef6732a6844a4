import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { logSerializers } from "./logger.server";

describe("logger", () => {
  it("logs a database error without its query parameters", () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _e, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const child = pino({ serializers: logSerializers }, sink);
    const error = new Error(
      "Failed query: select * from session where token = $1\nparams: secret-session-token",
    );
    child.error({ err: error }, "lookup failed");
    expect(lines.join("")).toContain("Failed query");
    expect(lines.join("")).not.toContain("secret-session-token");
  });
});
