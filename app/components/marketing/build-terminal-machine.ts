/**
 * The landing page's demo build terminal (docs/product.md, Landing page and
 * Timings) as a pure state machine: `advanceTerminal` moves one beat forward
 * and `delayBefore` says how long the current state is shown. `runTerminal`
 * plays it with timers.
 *
 * One loop (t in ms from the start of typing):
 * - 0-2000: a random sample prompt is typed, in 40 beats of 50 ms.
 * - per step (5 steps): 'Processing step N of 5...' while the step is pending;
 *   +300 in progress (its command line), +600 a first output line, +800 a
 *   second, +1500 complete; +700 the next step begins.
 * - after step 5 completes: 1 s pause, the final line, 1 s pause, Building App
 *   gives way to Deploy Now; after 4 s everything resets with another prompt.
 */

export const samplePrompts = [
  "Build an AI e-mail assistant that drafts polite replies to customer questions",
  "Build an image background remover that cuts out products for online shops",
  "Build a blog content writer that turns a keyword into an SEO-ready article",
  "Build a podcast transcription tool with speaker labels and show notes",
  "Build a code assistant that explains and fixes snippets in plain English",
] as const;

export type BuildStep = { label: string; command: string; output: readonly [string, string] };

export const buildSteps: readonly BuildStep[] = [
  {
    label: "Analyzing your prompt",
    command: "ai plan --from-prompt",
    output: ["Reading the app description...", "Feature list and data model drafted"],
  },
  {
    label: "Setting up the database and sign-in",
    command: "ai scaffold --auth --db",
    output: ["Creating tables for users and usage...", "E-mail sign-in ready"],
  },
  {
    label: "Generating the user interface",
    command: "ai ui --responsive",
    output: ["Building pages and components...", "Dashboard, settings and landing page ready"],
  },
  {
    label: "Connecting the AI model and payments",
    command: "ai connect --model --payments",
    output: ["Wiring the AI model to your features...", "Subscription checkout connected"],
  },
  {
    label: "Optimizing and preparing for launch",
    command: "ai build --production",
    output: ["Compressing assets and running checks...", "All checks passed"],
  },
] as const;

export const finalLine = "Your AI SaaS app is built and ready to deploy!";

/**
 * docs/product.md, Timings: typing 2 s; step delays 300, 600, 800, 1500 ms plus 700 ms;
 * 1 s pauses; 4 s on deploy.
 */
export const timings = {
  typingMs: 2000,
  typingBeats: 40,
  stepDelaysMs: [300, 600, 800, 1500] as const,
  nextStepMs: 700,
  pauseMs: 1000,
  deployMs: 4000,
} as const;

export type StepStatus = "pending" | "in-progress" | "complete";

export type TerminalState =
  | { phase: "typing"; prompt: number; beat: number }
  /** stage 0 pending, 1 in progress, 2 and 3 output lines, 4 complete. */
  | { phase: "building"; prompt: number; step: number; stage: 0 | 1 | 2 | 3 | 4 }
  | { phase: "final-line"; prompt: number }
  | { phase: "deploy"; prompt: number };

export type TerminalEvent =
  /** One beat forward. `random` in [0, 1) picks the next prompt on reset. */
  | { type: "advance"; random: number }
  /** Restart typing with the given prompt. */
  | { type: "start"; prompt: number }
  /** Jump to the finished state (reduced motion). */
  | { type: "finish" };

const stepCount = buildSteps.length;

export function initialTerminal(prompt = 0): TerminalState {
  return { phase: "typing", prompt, beat: 0 };
}

/** A prompt index from `random`, never the same as `current` (so each loop shows a new prompt). */
export function nextPrompt(current: number, random: number): number {
  const offset = 1 + Math.floor(random * (samplePrompts.length - 1));
  return (current + offset) % samplePrompts.length;
}

/** The state one beat later (pure). */
export function terminalReducer(state: TerminalState, event: TerminalEvent): TerminalState {
  if (event.type === "start") return initialTerminal(event.prompt);
  if (event.type === "finish") return { phase: "deploy", prompt: state.prompt };
  switch (state.phase) {
    case "typing":
      return state.beat + 1 < timings.typingBeats
        ? { ...state, beat: state.beat + 1 }
        : { phase: "building", prompt: state.prompt, step: 0, stage: 0 };
    case "building":
      if (state.stage < 4) {
        return { ...state, stage: (state.stage + 1) as 1 | 2 | 3 | 4 };
      }
      return state.step + 1 < stepCount
        ? { ...state, step: state.step + 1, stage: 0 }
        : { phase: "final-line", prompt: state.prompt };
    case "final-line":
      return { phase: "deploy", prompt: state.prompt };
    case "deploy":
      return initialTerminal(nextPrompt(state.prompt, event.random));
  }
}

/** How long `state` is shown before the next beat, in ms. */
export function delayBefore(state: TerminalState): number {
  switch (state.phase) {
    case "typing":
      return timings.typingMs / timings.typingBeats;
    case "building":
      if (state.stage < 4) return timings.stepDelaysMs[state.stage as 0 | 1 | 2 | 3];
      // After the last step the 1 s pause before the final line replaces the 700 ms.
      return state.step + 1 < stepCount ? timings.nextStepMs : timings.pauseMs;
    case "final-line":
      return timings.pauseMs;
    case "deploy":
      return timings.deployMs;
  }
}

/** What the terminal shows in `state`. */
export type TerminalView = {
  heading: string;
  /** The part of the prompt typed so far. */
  typed: string;
  /** 'Processing step N of 5...' while building, else null. */
  progress: string | null;
  steps: { label: string; status: StepStatus }[];
  lines: string[];
  deploy: boolean;
};

export const idleHeading = "Describe Your App";
export const buildingHeading = "Building Your SaaS Application";

function stepLines(step: BuildStep, stage: number): string[] {
  const lines: string[] = [];
  if (stage >= 1) lines.push(`$ ${step.command}`);
  if (stage >= 2) lines.push(step.output[0]);
  if (stage >= 3) lines.push(step.output[1]);
  if (stage >= 4) lines.push(`✓ ${step.label}`);
  return lines;
}

export function viewOf(state: TerminalState): TerminalView {
  const prompt = samplePrompts[state.prompt] ?? samplePrompts[0];
  if (state.phase === "typing") {
    const chars = Math.round((prompt.length * state.beat) / timings.typingBeats);
    return {
      heading: idleHeading,
      typed: prompt.slice(0, chars),
      progress: null,
      steps: buildSteps.map((s) => ({ label: s.label, status: "pending" })),
      lines: [],
      deploy: false,
    };
  }
  const current = state.phase === "building" ? state.step : stepCount;
  const stage = state.phase === "building" ? state.stage : 4;
  const status = (i: number): StepStatus => {
    if (i < current || (i === current && stage === 4)) return "complete";
    if (i === current && stage >= 1) return "in-progress";
    return "pending";
  };
  const lines = buildSteps.flatMap((s, i) =>
    i < current ? stepLines(s, 4) : i === current ? stepLines(s, stage) : [],
  );
  if (state.phase !== "building") lines.push(finalLine);
  return {
    heading: buildingHeading,
    typed: prompt,
    progress:
      state.phase === "building" ? `Processing step ${state.step + 1} of ${stepCount}...` : null,
    steps: buildSteps.map((s, i) => ({ label: s.label, status: status(i) })),
    lines,
    deploy: state.phase === "deploy",
  };
}

/**
 * Plays the terminal with timers, looping, from a random prompt: calls
 * `onState` with each new state. Returns a function that stops it.
 */
export function runTerminal(
  onState: (state: TerminalState) => void,
  random: () => number = Math.random,
): () => void {
  let state = initialTerminal(Math.floor(random() * samplePrompts.length));
  let timer: ReturnType<typeof setTimeout>;
  const schedule = () => {
    timer = setTimeout(() => {
      state = terminalReducer(state, { type: "advance", random: random() });
      onState(state);
      schedule();
    }, delayBefore(state));
  };
  onState(state);
  schedule();
  return () => clearTimeout(timer);
}
