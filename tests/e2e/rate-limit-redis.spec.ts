import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { Redis } from "ioredis";
import { postForm, type ServerProcess, serverHealthy, startServer } from "./helpers";

// Two production servers (each on its own embedded database) sharing one Redis
// through REDIS_URL: a sign-in limit counts attempts made on either.

const redisUrl = "redis://127.0.0.1:6379";
// Each test starts two servers (embedded database and migrations each): slow on a busy machine.
test.describe.configure({ timeout: 120_000 });

/** A production server on a fresh embedded database, removed when the server exits. */
async function start(env: Record<string, string>): Promise<ServerProcess> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ailabs-redis-"));
  const server = await startServer(path.join(dir, "data"), { LOG_LEVEL: "warn", ...env });
  void server.exited.then(() => rmSync(dir, { recursive: true, force: true }));
  return server;
}

const healthy = (server: ServerProcess) => serverHealthy(server, 90_000);

function signIn(server: ServerProcess, email: string): Promise<Response> {
  return postForm(server.origin, "/login", { email, password: "not the password" });
}

type Servers = (a: ServerProcess, b: ServerProcess) => Promise<void>;

/** Runs `use` with two healthy servers started with `env`, then stops both cleanly. */
async function withTwoServers(env: Record<string, string>, use: Servers): Promise<void> {
  const a = await start(env);
  const b = await start(env);
  try {
    await Promise.all([healthy(a), healthy(b)]);
    await use(a, b);
  } finally {
    a.child.kill("SIGTERM");
    b.child.kill("SIGTERM");
    expect(await a.exited).toBe(0);
    expect(await b.exited).toBe(0);
  }
}

/** withTwoServers sharing the Redis at REDIS_URL, under a key prefix of their own, removed after. */
async function withSharedRedis(env: Record<string, string>, use: Servers): Promise<void> {
  const prefix = `e2e:${crypto.randomUUID()}:`;
  try {
    await withTwoServers({ REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix, ...env }, use);
  } finally {
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  }
}

test("two servers sharing REDIS_URL share the sign-in limit", async () => {
  await withSharedRedis({ RATE_LIMIT_LOGIN_PER_ADDRESS_AND_EMAIL: "3" }, async (a, b) => {
    const email = `limit-${crypto.randomUUID()}@example.com`;
    for (let i = 0; i < 3; i++) expect((await signIn(a, email)).status).toBe(400);
    const refused = await signIn(b, email);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain(
      "Too many attempts. Please wait a few minutes and try again.",
    );
    // Another e-mail is not affected.
    expect((await signIn(b, `other-${crypto.randomUUID()}@example.com`)).status).toBe(400);
  });
});

test("nobody can lock a member out: 40 wrong passwords on one server leave the member signing in on the other", async () => {
  const post = (server: ServerProcess, path: string, from: string, form: Record<string, string>) =>
    postForm(server.origin, path, form, { "x-forwarded-for": from });
  // The test is the proxy: each request names its client in X-Forwarded-For.
  await withSharedRedis({ TRUSTED_PROXIES: "127.0.0.1,::1" }, async (a, b) => {
    const victim = { name: "Victim", email: `victim-${crypto.randomUUID()}@example.com` };
    const password = "the victim's password";
    expect((await post(b, "/signup", "198.51.100.7", { ...victim, password })).status).toBe(302);
    const statuses = [];
    for (let i = 0; i < 40; i++) {
      const guess = await post(a, "/login", "203.0.113.66", {
        email: victim.email,
        password: `guess ${i}`,
      });
      statuses.push(guess.status);
    }
    // The guessing address is held back...
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    // ...the member, from another address, on the other server, is not.
    const member = await post(b, "/login", "192.0.2.44", { email: victim.email, password });
    expect(member.status).toBe(302);
    expect(member.headers.get("location")).toBe("/payment-options");
  });
});

test("without REDIS_URL each server counts on its own", async () => {
  await withTwoServers({ RATE_LIMIT_LOGIN_PER_ADDRESS_AND_EMAIL: "3" }, async (a, b) => {
    const email = `limit-${crypto.randomUUID()}@example.com`;
    for (let i = 0; i < 3; i++) expect((await signIn(a, email)).status).toBe(400);
    expect((await signIn(a, email)).status).toBe(429);
    expect((await signIn(b, email)).status).toBe(400);
  });
});
