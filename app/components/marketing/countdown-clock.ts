/** The sales-page countdown, as plain functions so fake timers can drive it. */

export type DurationParts = { days: number; hours: number; minutes: number; seconds: number };

/** Splits whole seconds into days, hours, minutes and seconds (never negative). */
export function splitDuration(totalSeconds: number): DurationParts {
  const s = Math.max(0, Math.floor(totalSeconds));
  return {
    days: Math.floor(s / 86_400),
    hours: Math.floor((s % 86_400) / 3_600),
    minutes: Math.floor((s % 3_600) / 60),
    seconds: s % 60,
  };
}

/**
 * Counts down from `fromSeconds`, calling `onTick` with the seconds left once
 * a second; stops at 0. Returns a function that stops it.
 */
export function startCountdown(fromSeconds: number, onTick: (left: number) => void): () => void {
  let left = fromSeconds;
  const timer = setInterval(() => {
    left = Math.max(0, left - 1);
    onTick(left);
    if (left === 0) clearInterval(timer);
  }, 1000);
  return () => clearInterval(timer);
}
