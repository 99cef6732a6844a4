import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { logger } from "./logger.server";

/**
 * Fixed-window attempt counters. In process memory by default; shared
 * through Redis when REDIS_URL is set, so several server copies behind a load
 * balancer count one limit together.
 */
export type RateLimiter = {
  /** Counts one attempt; false once the key has used up its window. */
  hit(key: string): Promise<boolean>;
  /** Forgets the key (after a success). */
  reset(key: string): Promise<void>;
};

export type LimiterOptions = { limit: number; windowMs: number };

/**
 * Counters in this process's memory. Memory is bounded: at most `maxKeys`
 * keys, the oldest dropped first, and expired windows swept on a timer,
 * never while answering a request.
 */
export function createMemoryRateLimiter(
  options: LimiterOptions & { maxKeys?: number; now?: () => number },
): RateLimiter {
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 50_000;
  const windows = new Map<string, { start: number; count: number }>();

  const sweep = setInterval(() => {
    const t = now();
    for (const [key, w] of windows) if (t - w.start >= options.windowMs) windows.delete(key);
  }, options.windowMs);
  sweep.unref();

  return {
    async hit(key) {
      const t = now();
      let w = windows.get(key);
      if (!w || t - w.start >= options.windowMs) {
        windows.delete(key);
        if (windows.size >= maxKeys) {
          const oldest = windows.keys().next().value;
          if (oldest !== undefined) windows.delete(oldest);
        }
        w = { start: t, count: 0 };
        windows.set(key, w);
      }
      w.count += 1;
      return w.count <= options.limit;
    },
    async reset(key) {
      windows.delete(key);
    },
  };
}

// One round trip, atomic: the first hit of a window starts its expiry.
const hitScript = `
local count = redis.call("INCR", KEYS[1])
if count == 1 then redis.call("PEXPIRE", KEYS[1], ARGV[1]) end
return count`;

/**
 * Counters in Redis, shared by every process using the same `prefix`: one
 * key per limiter and attempt key (hashed, so no e-mail address is stored),
 * expiring with its window. If Redis fails, the attempt is counted in this
 * process's memory instead (and the failure logged): the limit still holds
 * per process rather than opening up or refusing every sign-in.
 */
export function createRedisRateLimiter(
  options: LimiterOptions & { redis: Redis; prefix: string; name: string },
): RateLimiter {
  const { redis, limit, windowMs } = options;
  const fallback = createMemoryRateLimiter({ limit, windowMs });
  const keyOf = (key: string) =>
    `${options.prefix}rate:${options.name}:${createHash("sha256").update(key).digest("base64url")}`;
  return {
    async hit(key) {
      try {
        const count = Number(await redis.eval(hitScript, 1, keyOf(key), String(windowMs)));
        return count <= limit;
      } catch (error) {
        logger.error({ err: error, limiter: options.name }, "rate limit store unavailable");
        return fallback.hit(key);
      }
    },
    async reset(key) {
      await fallback.reset(key);
      try {
        await redis.del(keyOf(key));
      } catch (error) {
        logger.error({ err: error, limiter: options.name }, "rate limit store unavailable");
      }
    },
  };
}
