import { Redis } from "ioredis";
import { getEnv } from "./env.server";
import { logger } from "./logger.server";

/**
 * A Redis client for REDIS_URL. A command waits at most `commandTimeoutMs`
 * and is not retried, so a Redis outage slows no request by more than that
 * (callers fall back; see rate-limit.server.ts).
 */
export function createRedis(url: string, commandTimeoutMs = 1000): Redis {
  const redis = new Redis(url, {
    commandTimeout: commandTimeoutMs,
    maxRetriesPerRequest: 0,
    connectTimeout: 5000,
  });
  redis.on("error", (error) => logger.warn({ err: error }, "redis connection error"));
  return redis;
}

let client: Redis | null | undefined;

/** The process's Redis client, or null when REDIS_URL is unset. */
export function getRedis(): Redis | null {
  if (client === undefined) {
    const url = getEnv().redisUrl;
    client = url ? createRedis(url) : null;
  }
  return client;
}

/** Closes the process's client (at shutdown). */
export async function closeRedis(): Promise<void> {
  if (!client) return;
  const closing = client;
  client = undefined;
  await closing.quit().catch(() => closing.disconnect());
}
