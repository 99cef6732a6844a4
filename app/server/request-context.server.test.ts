import type { IncomingMessage } from "node:http";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "./logger.server";
import { newRequestId, requestContext, requestIdOf } from "./request-context.server";

const request = (remoteAddress: string, id?: string) =>
  ({
    headers: id === undefined ? {} : { "x-request-id": id },
    socket: { remoteAddress },
  }) as unknown as IncomingMessage;

describe("request ids", () => {
  const proxies = new Set(["10.0.0.2"]);

  it("keeps the id a trusted proxy sent", () => {
    expect(requestIdOf(request("10.0.0.2", "7F000001:8C4A_0A000002:0050"), proxies)).toBe(
      "7F000001:8C4A_0A000002:0050",
    );
    expect(requestIdOf(request("10.0.0.2", "2b5f1c9e-6a0d-4f0e-9d3b-1f7c2a9e8b11"), proxies)).toBe(
      "2b5f1c9e-6a0d-4f0e-9d3b-1f7c2a9e8b11",
    );
  });

  it("makes its own for a client's claim, a strange id, or none", () => {
    const own = /^[\w-]{8}-[0-9a-z]+$/;
    expect(requestIdOf(request("203.0.113.9", "chosen-by-client"), proxies)).toMatch(own);
    expect(requestIdOf(request("10.0.0.2", "has spaces and <html>"), proxies)).toMatch(own);
    expect(requestIdOf(request("10.0.0.2", "x".repeat(129)), proxies)).toMatch(own);
    expect(requestIdOf(request("10.0.0.2"), proxies)).toMatch(own);
    expect(requestIdOf(request("10.0.0.2", "abc"), new Set())).toMatch(own);
  });

  it("never gives the same id twice", () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newRequestId()));
    expect(ids.size).toBe(1000);
  });

  it("puts the request's id on every log line written while it is answered", async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const log = createLogger(sink);
    log.info("before");
    await requestContext.run({ requestId: "req-1" }, async () => {
      log.info("during");
      await new Promise((resolve) => setTimeout(resolve, 5));
      log.warn({ detail: 1 }, "later, after an await");
    });
    log.info("after");
    expect(lines.map((l) => [l.msg, l.requestId])).toEqual([
      ["before", undefined],
      ["during", "req-1"],
      ["later, after an await", "req-1"],
      ["after", undefined],
    ]);
  });
});
