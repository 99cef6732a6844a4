import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type BuildDemoState,
  buildDemoStateAt,
  deployAtMs,
  loopingDemoTiming,
  runBuildDemo,
  salesDemoTiming,
} from "./build-demo-timeline";

const steps = 5;

function record(timing = salesDemoTiming) {
  let state: BuildDemoState = buildDemoStateAt(0, timing, steps);
  const stop = runBuildDemo(timing, steps, (s) => {
    state = s;
  });
  return { now: () => state, stop };
}

describe("sales build demo", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("waits 500 ms, then runs each step waiting -> in progress -> complete", () => {
    const demo = record();
    expect(demo.now().steps).toEqual(Array(5).fill("waiting"));
    vi.advanceTimersByTime(499);
    expect(demo.now().steps[0]).toBe("waiting");
    vi.advanceTimersByTime(1);
    expect(demo.now().steps).toEqual(["in-progress", "waiting", "waiting", "waiting", "waiting"]);
    vi.advanceTimersByTime(salesDemoTiming.stepMs);
    expect(demo.now().steps).toEqual(["complete", "in-progress", "waiting", "waiting", "waiting"]);
    vi.advanceTimersByTime(3 * salesDemoTiming.stepMs);
    expect(demo.now().steps).toEqual([
      "complete",
      "complete",
      "complete",
      "complete",
      "in-progress",
    ]);
    vi.advanceTimersByTime(salesDemoTiming.stepMs);
    expect(demo.now().steps).toEqual(Array(5).fill("complete"));
    expect(demo.now().deployed).toBe(false);
    demo.stop();
  });

  it("shows the deploy button 2 s after the last step and stays there", () => {
    const demo = record();
    const lastDone = salesDemoTiming.startMs + steps * salesDemoTiming.stepMs;
    vi.advanceTimersByTime(lastDone + 1999);
    expect(demo.now().deployed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(demo.now().deployed).toBe(true);
    vi.advanceTimersByTime(60_000);
    expect(demo.now()).toMatchObject({ deployed: true, run: 0 });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("on the second variant resets 4 s after deploying and runs again", () => {
    const demo = record(loopingDemoTiming);
    const deployAt = deployAtMs(loopingDemoTiming, steps);
    vi.advanceTimersByTime(deployAt + 3999);
    expect(demo.now()).toMatchObject({ deployed: true, run: 0 });
    vi.advanceTimersByTime(1);
    expect(demo.now()).toEqual({ steps: Array(5).fill("waiting"), deployed: false, run: 1 });
    vi.advanceTimersByTime(500);
    expect(demo.now().steps[0]).toBe("in-progress");
    vi.advanceTimersByTime(deployAt - 500);
    expect(demo.now()).toMatchObject({ deployed: true, run: 1 });
    vi.advanceTimersByTime(4000);
    expect(demo.now().run).toBe(2);
    demo.stop();
    expect(vi.getTimerCount()).toBe(0);
  });
});
