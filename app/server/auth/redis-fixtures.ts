// Redis for the rate-limit tests (a server at 127.0.0.1:6379), keys under one
// prefix removed after the file's tests.
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll } from "vitest";
import { getEnv } from "../env.server";
import { createRedis } from "../redis.server";

const redisUrl = "redis://127.0.0.1:6379";
getEnv(); // sets the log level (silent): the unreachable-Redis test logs errors on purpose
export const prefix = `test:${randomUUID()}:`;
const clients: Redis[] = [];
/** A client of the test Redis (or of `url`, e.g. one nobody answers), closed after the tests. */
export function redisClient(url = redisUrl, commandTimeoutMs?: number): Redis {
  const client = createRedis(url, commandTimeoutMs);
  clients.push(client);
  return client;
}
afterAll(async () => {
  const cleaner = new Redis(redisUrl);
  const keys = await cleaner.keys(`${prefix}*`);
  if (keys.length > 0) await cleaner.del(...keys);
  await cleaner.quit();
  for (const c of clients) c.disconnect();
});
