import { useEffect, useState } from "react";
import {
  finalLine,
  initialTerminal,
  runTerminal,
  type StepStatus,
  terminalReducer,
  viewOf,
} from "./build-terminal-machine";
import { SpinnerIcon } from "./status-icons";

/** Log lines shown at once; the box keeps its height so nothing around it moves. */
const visibleLines = 5;

/**
 * The hero's animated fake build terminal (presentation only, hidden from
 * assistive technology, with a one-sentence text alternative). With
 * prefers-reduced-motion it shows the finished build and does not loop.
 */
export function BuildTerminal() {
  // The server (and the first client render) show the empty prompt; the browser then plays it.
  const [state, setState] = useState(() => initialTerminal());

  useEffect(() => {
    const motion = window.matchMedia("(prefers-reduced-motion: reduce)");
    let stop = () => {};
    const start = () => {
      stop();
      if (motion.matches) {
        stop = () => {};
        setState((s) => terminalReducer(s, { type: "finish" }));
      } else {
        stop = runTerminal(setState);
      }
    };
    start();
    motion.addEventListener("change", start);
    return () => {
      motion.removeEventListener("change", start);
      stop();
    };
  }, []);

  const view = viewOf(state);
  return (
    <figure className="w-full min-w-0">
      <figcaption className="sr-only">
        Demo: a written prompt such as “Build an AI e-mail assistant” becomes a finished SaaS app in
        five build steps, ready to deploy.
      </figcaption>
      <div
        aria-hidden="true"
        className="overflow-hidden rounded-2xl border border-white/10 bg-slate-950 text-left shadow-2xl shadow-indigo-950/50"
      >
        <div className="flex items-center gap-2 border-b border-white/10 px-4 py-3">
          <span className="h-3 w-3 rounded-full bg-red-400" />
          <span className="h-3 w-3 rounded-full bg-amber-400" />
          <span className="h-3 w-3 rounded-full bg-green-400" />
          <span className="ml-2 font-mono text-xs text-slate-400">ai-saas-builder</span>
        </div>
        <div className="space-y-4 p-4 sm:p-5">
          <div className="h-[5.5rem] overflow-hidden rounded-lg bg-white/5 sm:h-16 px-3 py-2 font-mono text-sm leading-6 text-slate-100">
            <span className="text-indigo-300">&gt; </span>
            {view.typed}
            {state.phase === "typing" ? (
              <span className="ml-0.5 inline-block h-4 w-2 translate-y-0.5 animate-pulse bg-indigo-300 motion-reduce:animate-none" />
            ) : null}
          </div>
          <div>
            <p className="text-base font-semibold text-white">{view.heading}</p>
            <p className="h-5 text-sm text-blue-300">{view.progress ?? ""}</p>
          </div>
          <ol className="space-y-1.5">
            {view.steps.map((s) => (
              <li key={s.label} className={`flex items-center gap-2 text-sm ${stepText[s.status]}`}>
                <StepIcon status={s.status} />
                {s.label}
              </li>
            ))}
          </ol>
          <div className="h-[8.5rem] overflow-hidden rounded-lg bg-black/40 px-3 py-2 font-mono text-xs leading-6">
            {view.lines.slice(-visibleLines).map((line, i) => (
              <p
                // Lines only append; the index within the window is stable enough for a log.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above
                key={i}
                className={`truncate ${lineColour(line)}`}
              >
                {line}
              </p>
            ))}
          </div>
          {view.deploy ? (
            <span className="flex h-11 items-center justify-center gap-2 rounded-lg bg-green-500 font-semibold text-white">
              Deploy Now
            </span>
          ) : (
            <span className="flex h-11 items-center justify-center gap-2 rounded-lg bg-indigo-600 font-semibold text-white/90">
              <Spinner />
              Building App
            </span>
          )}
        </div>
      </div>
    </figure>
  );
}

function lineColour(line: string): string {
  if (line === finalLine) return "font-semibold text-white";
  if (line.startsWith("$")) return "text-slate-300";
  return line.startsWith("✓") ? "text-green-400" : "text-slate-400";
}

const stepText: Record<StepStatus, string> = {
  pending: "text-slate-400",
  "in-progress": "text-blue-300",
  complete: "text-green-400",
};

function StepIcon({ status }: { status: StepStatus }) {
  if (status === "complete") {
    return (
      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 shrink-0 fill-current">
        <path d="M10 18a8 8 0 1 0 0-16 8 8 0 0 0 0 16Zm3.7-9.3-4 4a1 1 0 0 1-1.4 0l-2-2a1 1 0 1 1 1.4-1.4L9 10.58l3.3-3.3a1 1 0 0 1 1.4 1.42Z" />
      </svg>
    );
  }
  if (status === "in-progress") return <Spinner />;
  return <span className="mx-0.5 h-3 w-3 shrink-0 rounded-full border-2 border-current" />;
}

function Spinner() {
  return <SpinnerIcon className="h-4 w-4 shrink-0 animate-spin motion-reduce:animate-none" />;
}
