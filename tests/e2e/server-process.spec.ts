import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createAccount, hydrated } from "./helpers";

// The production server as an operator runs it: start-up checks, the secret it
// keeps, and a clean stop on SIGTERM. Each test starts its own server on the
// embedded database in a fresh DATA_DIR.

type Server = {
  child: ChildProcess;
  origin: string;
  output: () => string;
  exited: Promise<number | null>;
};

/** A port nothing listens on now (the OS picks it), so no fixed range can collide. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function start(dataDir: string, env: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  let output = "";
  const child = spawn(process.execPath, ["build/server/index.js"], {
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      PORT: String(port),
      PUBLIC_ORIGIN: origin,
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, origin, output: () => output, exited };
}

async function healthy(server: Server): Promise<void> {
  await expect
    .poll(async () => (await fetch(`${server.origin}/healthz`).catch(() => null))?.status ?? 0, {
      timeout: 30_000,
    })
    .toBe(200);
}

// Each test starts one or two production servers: slow on a loaded 2-core machine.
test.describe.configure({ timeout: 120_000 });

const tempDirs: string[] = [];
function tempDataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ailabs-proc-"));
  tempDirs.push(dir);
  return path.join(dir, "data");
}
test.afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

test("a bad environment stops the server with a message naming the variable", async () => {
  const server = await start(tempDataDir(), { PORT: "eighty", DATABASE_URL: "mysql://nope" });
  expect(await server.exited).toBe(1);
  expect(server.output()).toContain("PORT");
  expect(server.output()).toContain("DATABASE_URL");
});

test("DATABASE_URL without an auth secret is refused", async () => {
  const server = await start(tempDataDir(), { DATABASE_URL: "postgres://127.0.0.1:1/none" });
  expect(await server.exited).toBe(1);
  expect(server.output()).toContain("BETTER_AUTH_SECRET: required when DATABASE_URL is set");
});

test("keeps its generated secret, so a session survives a restart; SIGTERM stops it cleanly", async () => {
  const dataDir = tempDataDir();
  const first = await start(dataDir);
  await healthy(first);
  const secretFile = path.join(dataDir, "auth-secret");
  expect(statSync(secretFile).mode & 0o777).toBe(0o600);

  const email = `proc-${crypto.randomUUID()}@example.com`;
  const signup = await fetch(`${first.origin}/signup`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: first.origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ name: "Restart", email, password: "survives restarts" }),
  });
  expect(signup.status).toBe(302);
  const cookie = signup.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

  first.child.kill("SIGTERM");
  expect(await first.exited).toBe(0);
  expect(first.output()).toContain('"msg":"stopped"');
  // The socket and the lock are gone: the CLI may open the files now.
  expect(existsSync(path.join(dataDir, ".s.PGSQL.5432"))).toBe(false);
  expect(existsSync(path.join(dataDir, "ailabs.lock"))).toBe(false);

  const second = await start(dataDir);
  try {
    await healthy(second);
    const dashboard = await fetch(`${second.origin}/dashboard`, {
      redirect: "manual",
      headers: { cookie },
    });
    // Signed in, not paid: the plan page, not the login page.
    expect(dashboard.status).toBe(302);
    expect(dashboard.headers.get("location")).toBe("/payment-options");
  } finally {
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  }
});

test("a second server on the same DATA_DIR refuses to open the files", async () => {
  const dataDir = tempDataDir();
  const first = await start(dataDir);
  try {
    await healthy(first);
    const second = await start(dataDir);
    expect(await second.exited).not.toBe(0);
    expect(second.output()).toContain("has the database in");
    // The first one is unharmed.
    expect((await fetch(`${first.origin}/healthz`)).status).toBe(200);
  } finally {
    first.child.kill("SIGTERM");
    await first.exited;
  }
});

test("with DISCORD_INVITE_URL set, a member's Join Discord opens the invite", async ({
  browser,
}) => {
  const invite = "https://discord.gg/ailabs-members";
  const server = await start(tempDataDir(), { DISCORD_INVITE_URL: invite });
  const context = await browser.newContext({ baseURL: server.origin });
  try {
    await healthy(server);
    await context.route("https://discord.gg/**", (route) =>
      route.fulfill({ contentType: "text/html", body: "<title>Discord</title>" }),
    );
    const page = await context.newPage();
    await createAccount(page, { paid: true });
    await page.goto("/bonuses");
    const join = page.getByRole("button", { name: "Join Discord", exact: true });
    await hydrated(join);
    // No alert: the invite opens in a new tab, cut off from this one.
    page.on("dialog", (dialog) => {
      throw new Error(`unexpected dialog: ${dialog.message()}`);
    });
    const opened = context.waitForEvent("page");
    await join.click();
    const tab = await opened;
    await tab.waitForLoadState();
    expect(tab.url()).toBe(invite);
    expect(await tab.evaluate(() => window.opener)).toBeNull();
  } finally {
    await context.close();
    server.child.kill("SIGTERM");
    await server.exited;
  }
});
