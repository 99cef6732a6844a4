/**
 * The sales-page build demo as a timeline: the state is a pure function of the
 * time since the run started, and `runBuildDemo` only schedules the moments it
 * changes. As docs/product.md, Sales pages says: starts at 500 ms; five steps
 * go waiting, in progress, complete; the deploy button shows 2 s after the
 * last step; the second sales page resets 4 s after that and runs again with
 * the next prompt.
 */

export type StepStatus = "waiting" | "in-progress" | "complete";

export type BuildDemoTiming = {
  /** When the first step starts. */
  startMs: number;
  /** How long each step is in progress. */
  stepMs: number;
  /** From the last step's completion to the deploy button. */
  deployDelayMs: number;
  /** From the deploy button to a fresh run; absent: the demo stays deployed. */
  resetAfterMs?: number;
};

export const salesDemoTiming: BuildDemoTiming = { startMs: 500, stepMs: 700, deployDelayMs: 2000 };
export const loopingDemoTiming: BuildDemoTiming = { ...salesDemoTiming, resetAfterMs: 4000 };

export type BuildDemoState = {
  steps: StepStatus[];
  /** The deploy button has replaced the build button. */
  deployed: boolean;
  /** Which run this is (0 first); the second sales page picks its prompt by it. */
  run: number;
};

/** When the deploy button appears, counted from the start of a run. */
export function deployAtMs(timing: BuildDemoTiming, stepCount: number): number {
  return timing.startMs + stepCount * timing.stepMs + timing.deployDelayMs;
}

/** The demo `elapsedMs` into a run. */
export function buildDemoStateAt(
  elapsedMs: number,
  timing: BuildDemoTiming,
  stepCount: number,
  run = 0,
): BuildDemoState {
  const steps = Array.from({ length: stepCount }, (_, i): StepStatus => {
    const startsAt = timing.startMs + i * timing.stepMs;
    if (elapsedMs < startsAt) return "waiting";
    return elapsedMs < startsAt + timing.stepMs ? "in-progress" : "complete";
  });
  return { steps, deployed: elapsedMs >= deployAtMs(timing, stepCount), run };
}

/** The finished demo, shown at once to visitors who prefer reduced motion. */
export function finishedBuildDemo(stepCount: number): BuildDemoState {
  return { steps: Array.from({ length: stepCount }, () => "complete"), deployed: true, run: 0 };
}

/**
 * Runs the demo with timers, calling `onChange` each time the state changes
 * (not at time 0: the caller starts from `buildDemoStateAt(0, ...)`).
 * Returns a function that stops it.
 */
export function runBuildDemo(
  timing: BuildDemoTiming,
  stepCount: number,
  onChange: (state: BuildDemoState) => void,
): () => void {
  const changes = [
    ...Array.from({ length: stepCount + 1 }, (_, i) => timing.startMs + i * timing.stepMs),
    deployAtMs(timing, stepCount),
  ];
  let timers: ReturnType<typeof setTimeout>[] = [];
  const start = (run: number) => {
    timers = changes.map((at) =>
      setTimeout(() => onChange(buildDemoStateAt(at, timing, stepCount, run)), at),
    );
    if (timing.resetAfterMs !== undefined) {
      const resetAt = deployAtMs(timing, stepCount) + timing.resetAfterMs;
      timers.push(
        setTimeout(() => {
          onChange(buildDemoStateAt(0, timing, stepCount, run + 1));
          start(run + 1);
        }, resetAt),
      );
    }
  };
  start(0);
  return () => {
    for (const t of timers) clearTimeout(t);
  };
}
