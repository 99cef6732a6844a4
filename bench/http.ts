/**
 * HTTP as the bench speaks it: one request at a time with node:http (no
 * redirects followed), a browser-like cookie jar, decoding of compressed
 * bodies and of React Router's single-fetch (.data) payloads.
 */
import { type Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { UNSAFE_decodeViaTurboStream as decodeViaTurboStream } from "react-router";
import type { CapturedResponse } from "./bare-server";
import { BenchError } from "./support";

export type Reply = {
  status: number;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
};

export type SendOptions = {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Default: a fresh connection per request. */
  agent?: Agent | false;
  timeoutMs?: number;
};

/** One request; redirects are not followed. */
export function send(url: string, options: SendOptions = {}): Promise<Reply> {
  const method = options.method ?? "GET";
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method,
        headers: options.headers,
        agent: options.agent ?? false,
        timeout: options.timeoutMs ?? 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            rawHeaders: res.rawHeaders,
            body: Buffer.concat(chunks),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`timeout: ${method} ${url}`)));
    req.on("error", reject);
    req.end(options.body);
  });
}

export function decodedBody(reply: Reply): Buffer {
  const encoding = reply.headers["content-encoding"];
  return encoding === "br"
    ? brotliDecompressSync(reply.body)
    : encoding === "gzip"
      ? gunzipSync(reply.body)
      : encoding === "deflate"
        ? inflateSync(reply.body)
        : reply.body;
}

export function decodedText(reply: Reply): string {
  return decodedBody(reply).toString("utf8");
}

/** A browser-like cookie jar: name=value pairs from Set-Cookie, cleared ones dropped. */
export class CookieJar {
  private cookies = new Map<string, string>();
  take(reply: Reply) {
    for (const line of reply.headers["set-cookie"] ?? []) {
      const pair = line.split(";")[0] ?? "";
      const eq = pair.indexOf("=");
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value) this.cookies.set(name, value);
      else this.cookies.delete(name);
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
  has(part: string): boolean {
    return [...this.cookies.keys()].some((name) => name.includes(part));
  }
}

/** Status, redirect target and the start of the body, for messages. */
export function replyText(reply: Reply): string {
  const location = reply.headers.location ? ` -> ${reply.headers.location}` : "";
  let text = "";
  try {
    text = decodedText(reply);
  } catch {
    text = `<${reply.body.byteLength} undecodable bytes>`;
  }
  return `${reply.status}${location}: ${text.replace(/\s+/g, " ").slice(0, 300)}`;
}

export function replyInfo(reply: Reply) {
  return { status: reply.status, bytes: reply.body.byteLength, headers: reply.headers };
}

export function expectRedirect(reply: Reply, step: string, pattern: RegExp): string {
  const location = reply.headers.location;
  if (reply.status < 300 || reply.status >= 400 || !location || !pattern.test(location)) {
    throw new BenchError(
      `${step}: expected a redirect matching ${pattern}, got ${replyText(reply)}`,
    );
  }
  return location;
}

const hopByHop = new Set(["connection", "keep-alive", "date"]);

/** A response as the bare server replays it: status, headers (minus hop-by-hop) and body bytes. */
export function capture(pathname: string, reply: Reply): CapturedResponse {
  const headers: [string, string][] = [];
  for (let i = 0; i + 1 < reply.rawHeaders.length; i += 2) {
    const name = reply.rawHeaders[i] as string;
    if (!hopByHop.has(name.toLowerCase())) headers.push([name, reply.rawHeaders[i + 1] as string]);
  }
  return {
    path: pathname,
    status: reply.status,
    headers,
    bodyBase64: reply.body.toString("base64"),
  };
}

/**
 * The value of a React Router single-fetch response (`.data`), decoded as the
 * browser decodes it: for an action `{ data }` or `{ error }`, for loaders
 * `{ [routeId]: { data } | { error } }`; a redirect is a `{ redirect }` object
 * in either case.
 */
export async function decodeSingleFetch(reply: Reply): Promise<unknown> {
  const bytes = new Uint8Array(decodedBody(reply));
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  const decoded = await decodeViaTurboStream(stream, globalThis);
  await decoded.done;
  return decoded.value;
}
