import { salesFunnel } from "~/config/site";
import {
  coachingComparison,
  coachingJourney,
  thankYouPreparation,
  thankYouSteps,
  whiteLabelFeatures,
  whiteLabelTools,
} from "~/content/upsells";
import { FeatureIcon } from "./feature-icon";

// Sections of the upsell pages and the coaching thank-you page.

/**
 * How many of the coaching spots are taken, as a bar: `left` counted from the purchases,
 * of `cap` clients at a time (an offer setting).
 */
export function CoachingSpots({ left, cap }: { left: number; cap: number }) {
  const taken = Math.max(0, cap - left);
  const takenPercent = Math.round((taken / cap) * 100);
  return (
    <div className="mx-auto mt-10 max-w-md rounded-2xl bg-white/10 p-5 text-left ring-1 ring-white/20">
      <p className="flex items-baseline justify-between font-semibold">
        <span>Only {cap} clients</span>
        <span className="text-amber-300" data-testid="coaching-places-left">
          {left === 0 ? "All spots taken" : `${left} ${left === 1 ? "spot" : "spots"} remaining`}
        </span>
      </p>
      <progress
        value={taken}
        max={cap}
        aria-label={`${taken} of ${cap} spots taken`}
        className="mt-3 block h-3 w-full appearance-none overflow-hidden rounded-full [&::-moz-progress-bar]:bg-amber-400 [&::-webkit-progress-bar]:bg-white/20 [&::-webkit-progress-value]:rounded-full [&::-webkit-progress-value]:bg-amber-400"
      />
      <p className="mt-2 text-sm text-indigo-100">{takenPercent}% of spots already taken</p>
    </div>
  );
}

export function CoachingJourney() {
  return (
    <ol className="grid gap-5 md:grid-cols-2 lg:grid-cols-4">
      {coachingJourney.map((step, i) => (
        <li key={step.title} className="rounded-2xl border border-slate-200 p-6">
          <span className="text-sm font-bold uppercase tracking-widest text-indigo-700">
            Step {i + 1}
          </span>
          <h3 className="mt-2 text-lg font-bold">{step.title}</h3>
          <p className="mt-2 text-slate-600">{step.description}</p>
        </li>
      ))}
    </ol>
  );
}

export function CoachingComparison() {
  return (
    <div className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
      <table className="w-full text-left text-sm sm:text-base">
        <caption className="sr-only">
          Doing it yourself compared with the custom SaaS package
        </caption>
        <thead className="bg-slate-100 text-sm uppercase tracking-wide text-slate-700">
          <tr>
            <th scope="col" className="px-3 py-3 sm:px-4">
              <span className="sr-only">Aspect</span>
            </th>
            <th scope="col" className="px-3 py-3 sm:px-4">
              Do it yourself
            </th>
            <th scope="col" className="px-3 py-3 sm:px-4 text-indigo-700">
              Custom SaaS package
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {coachingComparison.map((row) => (
            <tr key={row.aspect}>
              <th scope="row" className="px-3 py-3 sm:px-4 font-semibold">
                {row.aspect}
              </th>
              <td className="px-3 py-3 sm:px-4 text-slate-600">{row.diy}</td>
              <td className="px-3 py-3 sm:px-4 font-semibold text-emerald-800">{row.withUs}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function WhiteLabelFeatureCards() {
  return (
    <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
      {whiteLabelFeatures.map((f) => (
        <li key={f.title} className="rounded-2xl border border-slate-200 p-6">
          <span className="flex h-11 w-11 items-center justify-center rounded-xl bg-indigo-50 text-indigo-700">
            <FeatureIcon name={f.icon} />
          </span>
          <h3 className="mt-4 text-lg font-bold">{f.title}</h3>
          <p className="mt-1 text-slate-600">{f.description}</p>
        </li>
      ))}
    </ul>
  );
}

export function WhiteLabelToolList() {
  return (
    <ol className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
      {whiteLabelTools.map((tool, i) => (
        <li
          key={tool}
          className="flex items-center gap-3 rounded-xl bg-white p-4 font-semibold shadow-sm"
        >
          <span
            aria-hidden="true"
            className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-indigo-600 text-sm text-white"
          >
            {i + 1}
          </span>
          {tool}
        </li>
      ))}
    </ol>
  );
}

const { chat, messaging } = salesFunnel.contactHandles;

/** The two channels to book the first coaching session on. */
export function ContactChannels() {
  return (
    <div className="mt-8 grid gap-5 sm:grid-cols-2">
      <div className="rounded-2xl border border-slate-200 p-6 text-center">
        <h3 className="text-lg font-bold">{chat.service}</h3>
        <p className="mt-2 font-mono text-xl font-semibold text-indigo-700">{chat.handle}</p>
        <p className="mt-2 text-sm text-slate-600">
          Add us as a friend and send your order number in your first message.
        </p>
      </div>
      <div className="rounded-2xl border border-slate-200 p-6 text-center">
        <h3 className="text-lg font-bold">{messaging.service}</h3>
        <a
          href={messaging.url}
          className="mt-2 inline-block font-mono text-xl font-semibold text-indigo-700 underline"
        >
          {messaging.handle}
        </a>
        <p className="mt-2 text-sm text-slate-600">
          Start a chat and include your order number in your first message.
        </p>
      </div>
    </div>
  );
}

export function PreparationList() {
  return (
    <ul className="mt-8 space-y-4">
      {thankYouPreparation.map((item) => (
        <li
          key={item.title}
          className="flex gap-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
        >
          <span aria-hidden="true" className="mt-0.5 font-bold text-emerald-600">
            ✓
          </span>
          <div>
            <h3 className="font-bold">{item.title}</h3>
            <p className="mt-1 text-slate-600">{item.description}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}

export function NextSteps() {
  return (
    <ol className="mt-8 space-y-4">
      {thankYouSteps.map((step, i) => (
        <li key={step.title} className="flex gap-4 rounded-2xl border border-slate-200 p-5">
          <span
            aria-hidden="true"
            className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-indigo-600 font-bold text-white"
          >
            {i + 1}
          </span>
          <div>
            <h3 className="font-bold">
              {step.title} <span className="font-normal text-slate-600">({step.duration})</span>
            </h3>
            <p className="mt-1 text-slate-600">{step.description}</p>
          </div>
        </li>
      ))}
    </ol>
  );
}
