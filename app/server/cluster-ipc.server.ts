import cluster from "node:cluster";

/**
 * The wire between the cluster's primary and its server processes (node:cluster's
 * IPC channel): a request and its reply, the same way in both directions. What
 * is sent, and who handles it, is listed in process-messages.server.ts; this
 * module knows nothing of it.
 */

/** One end of the IPC channel: `process` in a server process, a Worker in the primary. */
export type Channel = {
  send?(message: unknown): boolean;
  on(event: "message", listener: (message: unknown) => void): unknown;
  off(event: "message", listener: (message: unknown) => void): unknown;
  isConnected?(): boolean;
};

export type Reply = { ok: true; value: unknown } | { ok: false; error: string };

const requestType = "ailabs:request";
const replyType = "ailabs:reply";
type RequestEnvelope = { type: typeof requestType; id: number; body: unknown };
type ReplyEnvelope = { type: typeof replyType; id: number; reply: Reply };

/** Whether this process is one of several started by the primary (WEB_CONCURRENCY > 1). */
export function inCluster(): boolean {
  return cluster.isWorker && typeof process.send === "function";
}

/** The answers awaited on each channel, by request id (one listener per channel). */
const awaiting = new WeakMap<Channel, Map<number, (reply: Reply) => void>>();
let nextId = 1;

function awaitingOn(channel: Channel): Map<number, (reply: Reply) => void> {
  let pending = awaiting.get(channel);
  if (!pending) {
    const map = new Map<number, (reply: Reply) => void>();
    pending = map;
    awaiting.set(channel, map);
    channel.on("message", (message: unknown) => {
      const envelope = message as ReplyEnvelope | undefined;
      if (envelope?.type !== replyType) return;
      map.get(envelope.id)?.(envelope.reply);
      map.delete(envelope.id);
    });
  }
  return pending;
}

/**
 * Sends `body` to the other end of `channel`; resolves with its answer, rejects
 * when it answers an error or does not answer within `timeoutMs`.
 */
export function ask<T>(channel: Channel, body: unknown, timeoutMs: number): Promise<T> {
  const pending = awaitingOn(channel);
  const id = nextId++;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error(`the other process did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    pending.set(id, (reply) => {
      clearTimeout(timer);
      if (reply.ok) resolve(reply.value as T);
      else reject(new Error(reply.error));
    });
    const sent =
      channel.isConnected?.() !== false &&
      channel.send?.({ type: requestType, id, body } satisfies RequestEnvelope);
    if (!sent) {
      clearTimeout(timer);
      pending.delete(id);
      reject(new Error("no channel to the other process"));
    }
  });
}

/** Answers every request arriving on `channel` with `handle`'s result (or its error). */
export function answerRequests(
  channel: Channel,
  handle: (body: unknown) => Promise<unknown>,
): void {
  channel.on("message", (message: unknown) => {
    const envelope = message as RequestEnvelope | undefined;
    if (envelope?.type !== requestType) return;
    handle(envelope.body)
      .then(
        (value): Reply => ({ ok: true, value }),
        (error: unknown): Reply => ({
          ok: false,
          error: error instanceof Error ? error.message : String(error),
        }),
      )
      .then((reply) => {
        if (channel.isConnected?.() !== false) {
          channel.send?.({ type: replyType, id: envelope.id, reply } satisfies ReplyEnvelope);
        }
      });
  });
}
