import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAnswers } from "./answer.server";
import { probesAnswer, type Readiness } from "./pipeline.server";

const readiness: Readiness = { ready: false, stopping: false };
let server: Server;
let origin: string;

beforeAll(async () => {
  const probes = probesAnswer(
    readiness,
    createAnswers("http://localhost:3000", () => "(app)"),
  );
  server = createServer((req, res) => {
    if (!probes(req, res)) res.writeHead(418).end("not a probe");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const status = async (path: string) => {
  const res = await fetch(`${origin}${path}`);
  return `${res.status} ${await res.text()}`;
};

describe("/healthz and /readyz", () => {
  it("answers /healthz while the process lives; /readyz only between ready and stopping", async () => {
    expect(await status("/healthz")).toBe("200 ok");
    expect(await status("/readyz")).toBe("503 starting");

    readiness.ready = true;
    expect(await status("/readyz")).toBe("200 ready");
    expect(await status("/healthz")).toBe("200 ok");

    readiness.stopping = true;
    expect(await status("/readyz")).toBe("503 stopping");
    expect(await status("/healthz")).toBe("200 ok");
  });

  it("is never cached and leaves other paths and methods alone", async () => {
    const res = await fetch(`${origin}/readyz`);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await status("/readyz?x=1")).toBe("418 not a probe");
    expect(await status("/healthz/more")).toBe("418 not a probe");
    const post = await fetch(`${origin}/healthz`, { method: "POST" });
    expect(post.status).toBe(418);
  });
});
