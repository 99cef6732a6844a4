import { useEffect, useState } from "react";
import { secondsUntil } from "~/lib/commission";
import { CountdownUnits } from "./countdown";
import { splitDuration } from "./countdown-clock";

const pad = (n: number) => String(n).padStart(2, "0");

/** Seconds left until the launch instant, ticking each second; stops at 0. */
export function useLaunchCountdown(launchAt: string): number {
  const [left, setLeft] = useState(() => secondsUntil(launchAt, Date.now()));
  useEffect(() => {
    if (secondsUntil(launchAt, Date.now()) === 0) {
      setLeft(0);
      return;
    }
    const timer = setInterval(() => {
      const next = secondsUntil(launchAt, Date.now());
      setLeft(next);
      if (next === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [launchAt]);
  return left;
}

/**
 * Days, hours, minutes and seconds to `launchAt` (an instant); at zero it says
 * the launch has happened on `label`. Takes no router data, so that a page
 * hydrating only its islands can run it (LaunchCountdown reads the offer).
 */
export function LaunchCountdownClock({
  launchAt,
  label,
  compact = false,
}: {
  launchAt: string;
  label: string;
  compact?: boolean;
}) {
  const left = useLaunchCountdown(launchAt);
  const parts = splitDuration(left);
  const launched = left === 0;
  if (compact) {
    return (
      <p
        role="timer"
        aria-label="Time until launch"
        className="inline-flex items-center gap-2 rounded-full bg-amber-100 px-4 py-1.5 text-sm font-bold text-amber-900"
      >
        {launched
          ? `Launched ${label} — the offer is live`
          : `Launch in ${parts.days}d ${pad(parts.hours)}h ${pad(parts.minutes)}m ${pad(parts.seconds)}s`}
      </p>
    );
  }
  return (
    <div className="text-center">
      <CountdownUnits seconds={left} label="Time until launch" />
      <p className="mt-3 font-semibold text-slate-800" aria-live="polite">
        {launched
          ? `The launch has happened: AI Labs went live on ${label}. Your link earns from the first click.`
          : `Launching ${label}`}
      </p>
    </div>
  );
}
