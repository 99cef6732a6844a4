import { useEffect, useState } from "react";
import { splitDuration, startCountdown } from "./countdown-clock";

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * A countdown from `fromSeconds` that ticks each second after the page loads
 * (the sales pages start at 2 days 23:59:59: docs/product.md, Sales pages).
 */
export function Countdown({ fromSeconds, label }: { fromSeconds: number; label: string }) {
  const [left, setLeft] = useState(fromSeconds);
  useEffect(() => startCountdown(fromSeconds, setLeft), [fromSeconds]);
  return <CountdownUnits seconds={left} label={label} />;
}

/** Days, hours, minutes and seconds as four boxes, in a timer region named `label`. */
export function CountdownUnits({ seconds, label }: { seconds: number; label: string }) {
  const parts = splitDuration(seconds);
  const units = [
    { value: String(parts.days), unit: "Days" },
    { value: pad(parts.hours), unit: "Hours" },
    { value: pad(parts.minutes), unit: "Minutes" },
    { value: pad(parts.seconds), unit: "Seconds" },
  ];
  return (
    <div role="timer" aria-label={label} className="flex justify-center gap-2 sm:gap-3">
      {units.map((u) => (
        <div
          key={u.unit}
          className="min-w-16 rounded-lg bg-slate-900 px-2 py-2 text-center text-white shadow sm:min-w-20"
        >
          <span
            className="block font-mono text-2xl font-bold tabular-nums sm:text-3xl"
            data-unit={u.unit}
          >
            {u.value}
          </span>
          <span className="block text-xs uppercase tracking-wide text-slate-300">{u.unit}</span>
        </div>
      ))}
    </div>
  );
}
