import { describe, expect, it } from "vitest";
import {
  type CommandDoneEnvelope,
  carryOutCommand,
  commandMessage,
  commandProcesses,
  onProcessCommand,
} from "./cluster-ipc.server";

/** A server process as the primary sees it, carrying out commands as a started one does. */
function fakeWorker() {
  const listeners = new Set<(message: unknown) => void>();
  return {
    isConnected: () => true,
    on: (_event: "message", listener: (message: unknown) => void) => listeners.add(listener),
    off: (_event: "message", listener: (message: unknown) => void) => listeners.delete(listener),
    send(message: unknown) {
      carryOutCommand(message, (done) => {
        for (const listener of [...listeners]) listener(done);
      });
      return true;
    },
  };
}

describe("commands from the primary", () => {
  it("answers at once a command this process does not handle yet (it is still starting)", async () => {
    const replies: CommandDoneEnvelope[] = [];
    expect(carryOutCommand(commandMessage(7, "flush-page-views"), (r) => replies.push(r))).toBe(
      true,
    );
    expect(replies).toEqual([{ type: "ailabs:command-done", id: 7, error: undefined }]);
    // Other messages on the channel are not commands.
    expect(carryOutCommand({ type: "ailabs:primary-reply", id: 1 }, () => {})).toBe(false);
    const started = performance.now();
    await commandProcesses([fakeWorker(), fakeWorker()], "flush-page-views", 30_000);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("carries out a registered command and reports its failure", async () => {
    let refreshed = 0;
    onProcessCommand("refresh-offer-settings", async () => {
      refreshed += 1;
    });
    await commandProcesses([fakeWorker(), fakeWorker()], "refresh-offer-settings", 5000);
    expect(refreshed).toBe(2);

    onProcessCommand("refresh-offer-settings", async () => {
      throw new Error("database down");
    });
    await expect(commandProcesses([fakeWorker()], "refresh-offer-settings", 5000)).rejects.toThrow(
      "database down",
    );
  });
});
