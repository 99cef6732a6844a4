import { serverBusy } from "~/lib/busy";

/**
 * The one bound on work past the server's capacity (decisions 026 and 030):
 * at most `slots` tasks run at once; others wait their turn, first come first
 * served, and are refused with `busy()` instead of waiting without bound:
 * at once when `maxWaiting` already wait, or when they have waited
 * `maxWaitMs` without a turn. Two queues use it: password hashing
 * (auth/password.server.ts) and the requests the app renders or acts on
 * (http/pipeline.server.ts). Both refusals reach the person as 503 with
 * Retry-After and "We are busy right now".
 */
export { serverBusy };

/** How long to wait before trying again after `serverBusy`, in seconds (the Retry-After header). */
export const busyRetryAfterSeconds = 5;

/** A queue's refusal where no caller's own error type is asked for. */
export class ServerBusy extends Error {
  constructor() {
    super(serverBusy);
    this.name = "ServerBusy";
  }
}

export type WorkQueueOptions = {
  slots: number;
  maxWaiting?: number;
  maxWaitMs?: number;
  /**
   * Refused at once when the work already waiting would take longer than
   * this (ms): those waiting, times the mean time a task has taken lately,
   * over the slots. The line holds a few hundred ms of work, not a count.
   */
  maxQueuedWorkMs?: number;
  /** The clock tasks are timed by (ms); performance.now by default. */
  now?: () => number;
  /** The error a refused task's run rejects with. */
  busy: () => Error;
};

export type WorkQueue = {
  running: () => number;
  waiting: () => number;
  run<T>(task: () => Promise<T>): Promise<T>;
};

export function createWorkQueue(options: WorkQueueOptions): WorkQueue {
  const { slots, busy } = options;
  const maxWaiting = options.maxWaiting ?? Number.POSITIVE_INFINITY;
  const maxWaitMs = options.maxWaitMs ?? Number.POSITIVE_INFINITY;
  const maxQueuedWorkMs = options.maxQueuedWorkMs ?? Number.POSITIVE_INFINITY;
  const now = options.now ?? (() => performance.now());
  let running = 0;
  /** The mean time a task took lately (ms): a moving average over about the last 20. */
  let meanTaskMs = 0;
  /** In arrival order; a waiter refused for its wait is taken out. */
  const waiting = new Set<() => void>();

  const turn = () =>
    new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const take = () => {
        if (timer) clearTimeout(timer);
        resolve();
      };
      waiting.add(take);
      if (Number.isFinite(maxWaitMs)) {
        timer = setTimeout(() => {
          waiting.delete(take);
          reject(busy());
        }, maxWaitMs);
      }
    });

  return {
    running: () => running,
    waiting: () => waiting.size,
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running < slots) running += 1;
      else if (
        waiting.size >= maxWaiting ||
        ((waiting.size + 1) * meanTaskMs) / slots > maxQueuedWorkMs
      ) {
        throw busy();
      } else await turn();
      const started = now();
      try {
        return await task();
      } finally {
        // A task longer than the wait bound (an admin's save that renders every process's
        // pages) counts as that bound: one such task must not turn every waiting request away.
        const took = Math.min(now() - started, maxWaitMs);
        meanTaskMs += (took - meanTaskMs) / 20;
        // The slot passes straight to the next in line, or is given back.
        const next = waiting.values().next();
        if (next.done) running -= 1;
        else {
          waiting.delete(next.value);
          next.value();
        }
      }
    },
  };
}
