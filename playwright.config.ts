import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { chromiumArgs, systemChromiumPath } from "./scripts/chromium";

// E2E_PORT lets two checkouts run their suites side by side.
const port = Number(process.env.E2E_PORT ?? 3210);
const origin = `http://localhost:${port}`;

// The config is loaded by the runner and again by every worker: create a fresh
// data directory once, in the runner, and hand it to the workers through the
// environment. The runner removes it when it exits (after stopping the server).
if (!process.env.E2E_DATA_DIR) {
  const created = mkdtempSync(path.join(os.tmpdir(), "ailabs-e2e-"));
  process.env.E2E_DATA_DIR = created;
  process.on("exit", () => rmSync(created, { recursive: true, force: true }));
}
const dataDir = process.env.E2E_DATA_DIR;

const serverEnv: Record<string, string> = {
  NODE_ENV: "production",
  PORT: String(port),
  PUBLIC_ORIGIN: origin,
  DATA_DIR: dataDir,
  LOG_LEVEL: "warn",
  // The admin specs share one admin session per worker for the whole run: its sign-in stays
  // proof enough for them. "Confirm it's you" is tested on its own server (admin-confirm.spec.ts).
  ADMIN_PROOF_MINUTES: "1440",
  // The whole suite signs up from 127.0.0.1, well over the default 100 sign-ups an hour
  // from one address. The limits themselves are tested on servers of their own
  // (rate-limit-redis.spec.ts, server-processes.spec.ts) and in rate-limit.server.test.ts.
  RATE_LIMIT_SIGNUP_PER_ADDRESS: "1000",
  // Every paid sign-up of the suite queues the welcome sequence's first e-mail for now: at the
  // default 600 a minute, a broadcast the owner sends (admin-email.spec.ts) would wait behind them.
  EMAIL_RATE_PER_MINUTE: "60000",
};
if (process.env.DATABASE_URL) {
  serverEnv.DATABASE_URL = process.env.DATABASE_URL;
  if (process.env.BETTER_AUTH_SECRET) serverEnv.BETTER_AUTH_SECRET = process.env.BETTER_AUTH_SECRET;
}

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  forbidOnly: true,
  retries: 0,
  // A journey of a few pages, each checked by axe, takes 5 s alone and up to five times that
  // on CI's two shared cores, with the other worker and the servers of other specs running.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  use: {
    baseURL: origin,
    viewport: { width: 1280, height: 800 },
    trace: "off",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: systemChromiumPath,
      args: chromiumArgs,
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  webServer: {
    command: "sh bin/serve",
    env: serverEnv,
    url: `${origin}/readyz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
