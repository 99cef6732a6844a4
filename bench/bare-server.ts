/**
 * The baseline: a bare node:http server that answers each captured path with
 * the captured status, headers and body bytes, and nothing else. Started by
 * run.ts as a child process (`node --import tsx bench/bare-server.ts FIXTURES`);
 * it listens on a free port on 127.0.0.1 and reports the port over IPC.
 */
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

server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  if (process.send) process.send({ port });
  else console.log(`listening on http://127.0.0.1:${port}`);
});

process.on("SIGTERM", () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
process.on("disconnect", () => process.exit(0));
