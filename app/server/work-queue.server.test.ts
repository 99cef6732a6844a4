import { describe, expect, it } from "vitest";
import { createWorkQueue } from "./work-queue.server";

class Busy extends Error {}
const busy = () => new Busy("busy");

describe("the work queue", () => {
  it("runs at most its slots at once, in arrival order, and frees a slot on failure", async () => {
    const queue = createWorkQueue({ slots: 2, busy });
    const order: number[] = [];
    let active = 0;
    let most = 0;
    const task = (n: number, fail = false) =>
      queue.run(async () => {
        active += 1;
        most = Math.max(most, active);
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push(n);
        active -= 1;
        if (fail) throw new Error(`task ${n}`);
        return n;
      });
    const results = await Promise.allSettled([task(1), task(2, true), task(3), task(4), task(5)]);
    expect(most).toBe(2);
    expect(order.slice(0, 2).sort()).toEqual([1, 2]);
    expect(order.slice(2)).toEqual([3, 4, 5]);
    expect(results.map((r) => r.status)).toEqual([
      "fulfilled",
      "rejected",
      "fulfilled",
      "fulfilled",
      "fulfilled",
    ]);
    expect(queue.running()).toBe(0);
    expect(queue.waiting()).toBe(0);
  });

  it("refuses at once, as busy, what would wait past its line; takes work again once there is room", async () => {
    const queue = createWorkQueue({ slots: 1, maxWaiting: 2, busy });
    let release = () => {};
    const held = new Promise<string>((resolve) => {
      release = () => resolve("done");
    });
    const accepted = [queue.run(() => held), queue.run(() => held), queue.run(() => held)];
    await expect(queue.run(() => held)).rejects.toBeInstanceOf(Busy);
    expect(queue.waiting()).toBe(2);
    release();
    expect(await Promise.all(accepted)).toEqual(["done", "done", "done"]);
    expect(await queue.run(async () => "after")).toBe("after");
  });
  it("refuses, as busy, what waited its longest wait without a turn; the line moves on", async () => {
    const queue = createWorkQueue({ slots: 1, maxWaitMs: 30, busy });
    let release = () => {};
    const held = new Promise<string>((resolve) => {
      release = () => resolve("done");
    });
    const first = queue.run(() => held);
    const started = performance.now();
    await expect(queue.run(async () => "never")).rejects.toBeInstanceOf(Busy);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    expect(queue.waiting()).toBe(0);
    const next = queue.run(async () => "next");
    release();
    expect(await first).toBe("done");
    expect(await next).toBe("next");
    expect(queue.running()).toBe(0);
  });
  it("refuses at once what would wait behind more work than its bound, by the time tasks took lately", async () => {
    let clock = 0;
    const queue = createWorkQueue({ slots: 1, maxQueuedWorkMs: 50, busy, now: () => clock });
    // Tasks of 20 ms on the queue's clock: the mean it knows them by.
    for (let i = 0; i < 100; i++) {
      await queue.run(async () => {
        clock += 20;
      });
    }
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = queue.run(() => held);
    // Two waiting are about 40 ms of work: taken. A third would be about 60: refused at once.
    const waiting = [queue.run(async () => "a"), queue.run(async () => "b")];
    const started = performance.now();
    await expect(queue.run(async () => "c")).rejects.toBeInstanceOf(Busy);
    expect(performance.now() - started).toBeLessThan(10);
    release();
    await first;
    expect(await Promise.all(waiting)).toEqual(["a", "b"]);
  });

  it("counts a task longer than the wait bound as that bound, so one long task does not refuse the rest", async () => {
    let clock = 0;
    const queue = createWorkQueue({
      slots: 1,
      maxWaitMs: 1000,
      maxQueuedWorkMs: 300,
      busy,
      now: () => clock,
    });
    // One task of 60 s on the queue's clock: counted as 1 s, a mean of 50 ms.
    await queue.run(async () => {
      clock += 60_000;
    });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = queue.run(() => held);
    const waiting = [queue.run(async () => "a"), queue.run(async () => "b")];
    release();
    await first;
    expect(await Promise.all(waiting)).toEqual(["a", "b"]);
  });
});
