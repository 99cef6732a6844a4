import { useEffect, useState } from "react";
import { buildDemoSteps } from "~/content/sales";
import {
  type BuildDemoState,
  type BuildDemoTiming,
  buildDemoStateAt,
  finishedBuildDemo,
  runBuildDemo,
  type StepStatus,
} from "./build-demo-timeline";
import { CheckCircleIcon, SpinnerIcon } from "./status-icons";

const stepCount = buildDemoSteps.length;

function useBuildDemo(timing: BuildDemoTiming): BuildDemoState {
  const [state, setState] = useState(() => buildDemoStateAt(0, timing, stepCount));
  useEffect(() => {
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) {
      setState(finishedBuildDemo(stepCount));
      return;
    }
    return runBuildDemo(timing, stepCount, setState);
  }, [timing]);
  return state;
}

const statusText: Record<StepStatus, string> = {
  waiting: "Waiting",
  "in-progress": "In progress",
  complete: "Complete",
};

function StatusIcon({ status }: { status: StepStatus }) {
  if (status === "complete") return <CheckCircleIcon className="h-5 w-5 text-emerald-400" />;
  if (status === "in-progress") {
    return <SpinnerIcon className="h-5 w-5 text-sky-400 motion-safe:animate-spin" />;
  }
  return (
    <span aria-hidden="true" className="block h-5 w-5 rounded-full border-2 border-slate-600" />
  );
}

/**
 * The animated build of the sales pages: five steps with terminal lines, then
 * the deploy button. `prompts` (second sales page) rotates one prompt per run.
 */
export function BuildDemo({
  timing,
  prompts,
  deployHref,
}: {
  timing: BuildDemoTiming;
  prompts: readonly string[];
  deployHref: string;
}) {
  const state = useBuildDemo(timing);
  const prompt = prompts[state.run % prompts.length] ?? "";
  const lines = buildDemoSteps.flatMap((step, i) => {
    const status = state.steps[i];
    if (status === "waiting" || status === undefined) return [];
    return status === "complete" ? [step.running, step.done] : [step.running];
  });
  return (
    <div className="overflow-hidden rounded-2xl border border-slate-700 bg-slate-950 text-left text-slate-100 shadow-2xl">
      <div className="flex items-center gap-2 border-b border-slate-800 bg-slate-900 px-4 py-3">
        <span aria-hidden="true" className="h-3 w-3 rounded-full bg-red-500" />
        <span aria-hidden="true" className="h-3 w-3 rounded-full bg-amber-400" />
        <span aria-hidden="true" className="h-3 w-3 rounded-full bg-emerald-500" />
        <span className="ml-2 text-sm font-medium text-slate-300">AI Labs builder</span>
      </div>
      <div className="grid gap-6 p-5 sm:p-6 md:grid-cols-2">
        <div>
          <p className="text-xs font-semibold uppercase tracking-widest text-slate-300">
            Your prompt
          </p>
          <p className="mt-2 rounded-lg bg-slate-900 px-3 py-2 text-sm text-sky-200">“{prompt}”</p>
          <ol className="mt-5 space-y-3">
            {buildDemoSteps.map((step, i) => {
              const status = state.steps[i] ?? "waiting";
              return (
                <li key={step.label} className="flex items-center gap-3" data-status={status}>
                  <StatusIcon status={status} />
                  <span
                    className={
                      status === "complete"
                        ? "text-emerald-300"
                        : status === "in-progress"
                          ? "text-sky-300"
                          : "text-slate-400"
                    }
                  >
                    {step.label}
                  </span>
                  <span className="sr-only">: {statusText[status]}</span>
                </li>
              );
            })}
          </ol>
        </div>
        <div
          aria-hidden="true"
          className="min-h-56 rounded-lg bg-black/60 p-4 font-mono text-xs leading-6 text-emerald-300 sm:text-sm"
        >
          {lines.length === 0 ? <p className="text-slate-400">$ waiting for build…</p> : null}
          {lines.map((line) => (
            <p key={line} className={line.startsWith("$") ? "text-slate-200" : undefined}>
              {line}
            </p>
          ))}
          {state.deployed ? <p className="text-amber-300">→ Ready to deploy</p> : null}
        </div>
      </div>
      <div className="border-t border-slate-800 px-5 py-5 text-center sm:px-6">
        {state.deployed ? (
          <>
            <a
              href={deployHref}
              className="inline-flex items-center justify-center rounded-xl bg-emerald-500 px-6 py-3 font-bold text-slate-950 hover:bg-emerald-400 focus:outline-none focus-visible:ring-4 focus-visible:ring-emerald-300"
            >
              Deploy Your SaaS Application
            </a>
            <p className="mt-3 font-semibold text-emerald-300">
              Your AI SaaS app is ready to launch and start generating revenue!
            </p>
          </>
        ) : (
          <button
            type="button"
            disabled
            className="inline-flex items-center justify-center gap-2 rounded-xl bg-sky-600 px-6 py-3 font-bold text-white"
          >
            {state.steps.some((s) => s !== "waiting") ? <StatusIcon status="in-progress" /> : null}
            Building Your SaaS Application
          </button>
        )}
      </div>
    </div>
  );
}
