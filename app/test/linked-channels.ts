import { EventEmitter } from "node:events";
import type { Channel } from "~/server/cluster-ipc.server";

/**
 * The two ends of an IPC channel in one process: what one end sends, the other
 * receives, a turn later and copied, as node:cluster delivers it.
 */
export function linkedChannels(): [Channel, Channel] {
  const a = new EventEmitter();
  const b = new EventEmitter();
  const end = (self: EventEmitter, other: EventEmitter): Channel => ({
    send(message) {
      setImmediate(() => other.emit("message", structuredClone(message)));
      return true;
    },
    on: (_event, listener) => self.on("message", listener),
    off: (_event, listener) => self.off("message", listener),
    isConnected: () => true,
  });
  return [end(a, b), end(b, a)];
}
