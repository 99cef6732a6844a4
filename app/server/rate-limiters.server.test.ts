import { describe, expect, it } from "vitest";
import { prefix, redisClient } from "./auth/redis-fixtures";
import { createMemoryRateLimiter, createRedisRateLimiter } from "./rate-limiters.server";

describe("createMemoryRateLimiter", () => {
  it("allows the limit, refuses past it, and opens again after the window", async () => {
    let t = 0;
    const limiter = createMemoryRateLimiter({ limit: 3, windowMs: 1000, now: () => t });
    expect([await limiter.hit("a"), await limiter.hit("a"), await limiter.hit("a")]).toEqual([
      true,
      true,
      true,
    ]);
    expect(await limiter.hit("a")).toBe(false);
    expect(await limiter.hit("b")).toBe(true);
    t = 1000;
    expect(await limiter.hit("a")).toBe(true);
  });

  it("forgets a key on reset", async () => {
    const limiter = createMemoryRateLimiter({ limit: 1, windowMs: 60_000 });
    await limiter.hit("a");
    expect(await limiter.hit("a")).toBe(false);
    await limiter.reset("a");
    expect(await limiter.hit("a")).toBe(true);
  });

  it("keeps at most maxKeys keys, dropping the oldest, and stays fast", async () => {
    const limiter = createMemoryRateLimiter({ limit: 1, windowMs: 60_000, maxKeys: 1000 });
    await limiter.hit("first");
    const started = performance.now();
    for (let i = 0; i < 100_000; i++) await limiter.hit(`k${i}`);
    expect(performance.now() - started).toBeLessThan(2000);
    // "first" was dropped, so it starts a fresh window.
    expect(await limiter.hit("first")).toBe(true);
  });
});

describe("createRedisRateLimiter", () => {
  it("shares one count between two limiters (two server processes) on the same Redis", async () => {
    const options = { prefix, name: "shared", limit: 3, windowMs: 60_000 };
    const a = createRedisRateLimiter({ ...options, redis: redisClient() });
    const b = createRedisRateLimiter({ ...options, redis: redisClient() });
    expect(await a.hit("k")).toBe(true);
    expect(await b.hit("k")).toBe(true);
    expect(await a.hit("k")).toBe(true);
    expect(await b.hit("k")).toBe(false);
    expect(await a.hit("k")).toBe(false);
    expect(await b.hit("other")).toBe(true);
    await a.reset("k");
    expect(await b.hit("k")).toBe(true);
  });

  it("expires the window in Redis, and stores no attempt key in the clear", async () => {
    const redis = redisClient();
    const limiter = createRedisRateLimiter({ redis, prefix, name: "ttl", limit: 1, windowMs: 300 });
    expect(await limiter.hit("someone@example.test")).toBe(true);
    expect(await limiter.hit("someone@example.test")).toBe(false);
    const keys = await redis.keys(`${prefix}rate:ttl:*`);
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toContain("someone");
    const ttl = await redis.pttl(keys[0] as string);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(300);
    await new Promise((r) => setTimeout(r, 350));
    expect(await limiter.hit("someone@example.test")).toBe(true);
  });

  it("counts in memory when Redis is unreachable, so the limit still holds", async () => {
    const down = redisClient("redis://127.0.0.1:1", 200);
    const limiter = createRedisRateLimiter({
      redis: down,
      prefix,
      name: "down",
      limit: 2,
      windowMs: 60_000,
    });
    expect([await limiter.hit("k"), await limiter.hit("k"), await limiter.hit("k")]).toEqual([
      true,
      true,
      false,
    ]);
  });
});
