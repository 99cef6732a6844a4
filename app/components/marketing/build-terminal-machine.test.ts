import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  buildingHeading,
  finalLine,
  idleHeading,
  initialTerminal,
  nextPrompt,
  runTerminal,
  samplePrompts,
  type TerminalState,
  terminalReducer,
  viewOf,
} from "./build-terminal-machine";

describe("the build terminal, played with timers at its documented timings", () => {
  let state: TerminalState;
  let stop: () => void;
  const view = () => viewOf(state);
  const statuses = () => view().steps.map((s) => s.status);

  beforeEach(() => {
    vi.useFakeTimers();
    // random() 0 picks prompt 0 at start; on reset the next prompt is prompt 1.
    stop = runTerminal(
      (s) => {
        state = s;
      },
      () => 0,
    );
  });
  afterEach(() => {
    stop();
    vi.useRealTimers();
  });

  it("types the sample prompt in 2 s", () => {
    expect(view().heading).toBe(idleHeading);
    expect(view().typed).toBe("");
    vi.advanceTimersByTime(1000);
    expect(view().typed).toBe(samplePrompts[0].slice(0, Math.round(samplePrompts[0].length / 2)));
    expect(view().progress).toBeNull();
    vi.advanceTimersByTime(999);
    expect(view().typed).not.toBe(samplePrompts[0]);
    vi.advanceTimersByTime(1);
    expect(view().typed).toBe(samplePrompts[0]);
    expect(view().heading).toBe(buildingHeading);
    expect(view().progress).toBe("Processing step 1 of 5...");
    expect(statuses()).toEqual(["pending", "pending", "pending", "pending", "pending"]);
  });

  it("runs each step pending, in progress, complete with delays 300, 600, 800, 1500 and 700 ms", () => {
    vi.advanceTimersByTime(2000);
    for (let step = 0; step < 5; step++) {
      expect(view().progress).toBe(`Processing step ${step + 1} of 5...`);
      expect(statuses()[step]).toBe("pending");
      vi.advanceTimersByTime(299);
      expect(statuses()[step]).toBe("pending");
      vi.advanceTimersByTime(1);
      expect(statuses()[step]).toBe("in-progress");
      const lines = view().lines.length;
      vi.advanceTimersByTime(600);
      expect(view().lines.length).toBe(lines + 1);
      vi.advanceTimersByTime(800);
      expect(view().lines.length).toBe(lines + 2);
      vi.advanceTimersByTime(1499);
      expect(statuses()[step]).toBe("in-progress");
      vi.advanceTimersByTime(1);
      expect(statuses()[step]).toBe("complete");
      expect(
        statuses()
          .slice(0, step + 1)
          .every((s) => s === "complete"),
      ).toBe(true);
      expect(
        statuses()
          .slice(step + 1)
          .every((s) => s === "pending"),
      ).toBe(true);
      if (step < 4) {
        vi.advanceTimersByTime(699);
        expect(view().progress).toBe(`Processing step ${step + 1} of 5...`);
        vi.advanceTimersByTime(1);
      }
    }
    // 2000 + 5 x 3200 + 4 x 700 ms after the start: all five complete.
    expect(statuses()).toEqual(Array(5).fill("complete"));
  });

  it("pauses 1 s before and after the final line, shows Deploy Now, resets after 4 s and loops", () => {
    const allComplete = 2000 + 5 * 3200 + 4 * 700;
    vi.advanceTimersByTime(allComplete);
    expect(view().lines).not.toContain(finalLine);

    vi.advanceTimersByTime(999);
    expect(view().lines).not.toContain(finalLine);
    vi.advanceTimersByTime(1);
    expect(view().lines.at(-1)).toBe(finalLine);
    expect(view().progress).toBeNull();
    expect(view().deploy).toBe(false);

    vi.advanceTimersByTime(999);
    expect(view().deploy).toBe(false);
    vi.advanceTimersByTime(1);
    expect(view().deploy).toBe(true);

    vi.advanceTimersByTime(3999);
    expect(view().deploy).toBe(true);
    vi.advanceTimersByTime(1);
    expect(view().deploy).toBe(false);
    expect(view().heading).toBe(idleHeading);
    expect(view().typed).toBe("");
    expect(view().lines).toEqual([]);
    expect(state).toEqual(initialTerminal(1));

    // The second loop types the next prompt on the same schedule.
    vi.advanceTimersByTime(2000);
    expect(view().typed).toBe(samplePrompts[1]);
    vi.advanceTimersByTime(allComplete - 2000 + 2000);
    expect(view().deploy).toBe(true);
  });

  it("stops when asked", () => {
    stop();
    vi.advanceTimersByTime(60_000);
    expect(view().typed).toBe("");
  });
});

describe("terminalReducer", () => {
  it("finish jumps to the finished state with Deploy Now and every step complete", () => {
    const done = viewOf(terminalReducer(initialTerminal(3), { type: "finish" }));
    expect(done.deploy).toBe(true);
    expect(done.typed).toBe(samplePrompts[3]);
    expect(done.heading).toBe(buildingHeading);
    expect(done.steps.every((s) => s.status === "complete")).toBe(true);
    expect(done.lines.at(-1)).toBe(finalLine);
  });

  it("start restarts typing with the given prompt", () => {
    const building: TerminalState = { phase: "building", prompt: 0, step: 2, stage: 3 };
    expect(terminalReducer(building, { type: "start", prompt: 4 })).toEqual(initialTerminal(4));
  });

  it("picks a different prompt for each loop, covering all five", () => {
    for (let current = 0; current < 5; current++) {
      const seen = new Set([0, 0.25, 0.5, 0.75, 0.999].map((r) => nextPrompt(current, r)));
      expect(seen.has(current)).toBe(false);
      expect(seen.size).toBe(4);
    }
  });
});
