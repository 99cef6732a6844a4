/**
 * The baseline: a bare node:http server that answers each captured path with
 * the captured status, headers and body bytes, and nothing else. Started by
 * run.ts as a child process (`node --import tsx bench/bare-server.ts FIXTURES`);
 * it listens on a free port on 127.0.0.1 and reports the port over IPC.
 * With BARE_PROCESSES=N (mode 7) N processes share the port (node:cluster,
 * as the app's WEB_CONCURRENCY does), and the port is reported once all listen.
 */
import cluster from "node:cluster";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export type CapturedResponse = {
  path: string;
  status: number;
  /** [name, value] pairs as received, minus the hop-by-hop ones Node adds itself. */
  headers: [string, string][];
  bodyBase64: string;
};

type Reply = { status: number; headers: Record<string, string | string[]>; body: Buffer };

function toReply(captured: CapturedResponse): Reply {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of captured.headers) {
    const previous = headers[name];
    if (previous === undefined) headers[name] = value;
    else headers[name] = Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return { status: captured.status, headers, body: Buffer.from(captured.bodyBase64, "base64") };
}

const file = process.argv[2];
if (!file) {
  console.error("usage: bare-server.ts FIXTURES.json");
  process.exit(2);
}
const fixtures = JSON.parse(readFileSync(file, "utf8")) as CapturedResponse[];
const replies = new Map(fixtures.map((f) => [f.path, toReply(f)]));

const server = createServer((req, res) => {
  const reply = replies.get(req.url ?? "");
  if (!reply) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(reply.status, reply.headers);
  res.end(reply.body);
});

const processes = Number(process.env.BARE_PROCESSES || 1);
const report = (port: number) => {
  if (process.send) process.send({ port });
  else console.log(`listening on http://127.0.0.1:${port}`);
};

if (processes > 1 && cluster.isPrimary) {
  let listening = 0;
  cluster.on("listening", (_worker, address) => {
    listening += 1;
    if (listening === processes) report(address.port);
  });
  for (let i = 0; i < processes; i++) cluster.fork();
  process.on("SIGTERM", () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill("SIGTERM");
    cluster.on("exit", () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    });
  });
  process.on("disconnect", () => process.exit(0));
} else {
  // In a cluster every process that listens on port 0 gets the same port.
  server.listen(0, "127.0.0.1", () => {
    if (cluster.isPrimary) report((server.address() as AddressInfo).port);
  });
  process.on("SIGTERM", () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
  if (cluster.isPrimary) process.on("disconnect", () => process.exit(0));
}
