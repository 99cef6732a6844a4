import { describe, expect, it } from "vitest";
import { linkedChannels } from "~/test/linked-channels";
import { answerRequests, ask } from "./cluster-ipc.server";

describe("the IPC wire", () => {
  it("carries a request and its answer each way, many at once, each to its own asker", async () => {
    const [primary, server] = linkedChannels();
    answerRequests(primary, async (body) => `primary saw ${JSON.stringify(body)}`);
    answerRequests(server, async (body) => (body as number) * 2);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => ask<string>(server, { n: i }, 1000)),
    );
    expect(answers[7]).toBe('primary saw {"n":7}');
    expect(await ask<number>(primary, 21, 1000)).toBe(42);
  });

  it("rejects with the handler's error, on no answer in time, and with no channel", async () => {
    const [primary, server] = linkedChannels();
    answerRequests(primary, async () => {
      throw new Error("database down");
    });
    await expect(ask(server, {}, 1000)).rejects.toThrow("database down");
    const [silent] = linkedChannels();
    await expect(ask(silent, {}, 50)).rejects.toThrow("did not answer within 50 ms");
    const closed = { ...silent, isConnected: () => false };
    await expect(ask(closed, {}, 1000)).rejects.toThrow("no channel");
  });
});
