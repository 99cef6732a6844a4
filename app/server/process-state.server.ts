// State a server process keeps in memory (the offer settings, the places left
// for the first customers): one copy per process, the listeners told of a
// change, and the check that keeps it fresh.
import { logger } from "./logger.server";

/**
 * One value per process, made by `initial` on first use and kept on globalThis
 * under `name`: in development the route modules are loaded by Vite apart from
 * the server's own, and both must see one copy.
 */
export function processWide<T>(name: string, initial: () => T): () => T {
  const key = Symbol.for(name);
  return () => {
    const g = globalThis as unknown as Record<symbol, T | undefined>;
    let value = g[key];
    if (!value) {
      value = initial();
      g[key] = value;
    }
    return value;
  };
}

/** Adds `listener` to `listeners`; returns its removal. */
export function addListener<L>(listeners: Set<L>, listener: L): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Awaits every listener in turn with the new value; one that throws is logged
 * (as `failure`) and the others still run.
 */
export async function notifyListeners<T>(
  listeners: Iterable<(value: T) => Promise<void> | void>,
  value: T,
  failure: string,
): Promise<void> {
  for (const listener of listeners) {
    try {
      await listener(value);
    } catch (error) {
      logger.error({ err: error }, failure);
    }
  }
}

/**
 * Runs `check` every `intervalMs`, never two at once (a tick while one runs is
 * skipped); a failure is logged as a warning (`failure`). The timer does not keep
 * the process alive. Returns the stop.
 */
export function checkEvery(
  check: () => Promise<unknown>,
  intervalMs: number,
  failure: string,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    check()
      .catch((error: unknown) => logger.warn({ err: error }, failure))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
