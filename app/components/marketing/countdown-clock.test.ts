import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { salesFunnel } from "~/config/site";
import { splitDuration, startCountdown } from "./countdown-clock";

describe("sales countdown", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("starts at 2 days 23:59:59", () => {
    expect(splitDuration(salesFunnel.countdownStartSeconds)).toEqual({
      days: 2,
      hours: 23,
      minutes: 59,
      seconds: 59,
    });
  });

  it("ticks once a second", () => {
    const seen: number[] = [];
    const stop = startCountdown(salesFunnel.countdownStartSeconds, (s) => seen.push(s));
    vi.advanceTimersByTime(999);
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(splitDuration(seen.at(-1) ?? 0)).toEqual({
      days: 2,
      hours: 23,
      minutes: 59,
      seconds: 58,
    });
    vi.advanceTimersByTime(59_000);
    expect(splitDuration(seen.at(-1) ?? 0)).toEqual({
      days: 2,
      hours: 23,
      minutes: 58,
      seconds: 59,
    });
    expect(seen).toHaveLength(60);
    stop();
    vi.advanceTimersByTime(5_000);
    expect(seen).toHaveLength(60);
  });

  it("stops at zero", () => {
    const seen: number[] = [];
    startCountdown(2, (s) => seen.push(s));
    vi.advanceTimersByTime(10_000);
    expect(seen).toEqual([1, 0]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
