import { execFile } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import {
  cookieOf,
  createAccount,
  demoCourseTitle,
  hydrated,
  postForm,
  serverHealthy,
  startServer,
  tempDataDirs,
} from "./helpers";

// The production server as an operator runs it: start-up checks, the secret it
// keeps, and a clean stop on SIGTERM. Each test starts its own server on the
// embedded database in a fresh DATA_DIR.

// Each test starts one or two production servers: slow on a loaded 2-core machine.
test.describe.configure({ timeout: 120_000 });

const tempDataDir = tempDataDirs("ailabs-proc-");

test("a bad environment stops the server with a message naming the variable", async () => {
  const server = await startServer(tempDataDir(), { PORT: "eighty", DATABASE_URL: "mysql://nope" });
  expect(await server.exited).toBe(1);
  expect(server.output()).toContain("PORT");
  expect(server.output()).toContain("DATABASE_URL");
});

/** The server's output must be one log line naming `setting`, with no stack trace. */
function expectOneLineNaming(output: string, setting: string, message: RegExp) {
  const lines = output
    .split("\n")
    .filter((line) => line.trim() && !line.includes("unexpected operator"));
  const failure = lines.find((line) => line.includes('"level":60'));
  expect(failure, output).toBeDefined();
  expect(JSON.parse(failure ?? "{}")).toMatchObject({
    setting,
    msg: expect.stringMatching(message),
  });
  expect(output).not.toMatch(/\n\s+at /);
}

test("start-up failures say in one log line which setting to fix", async () => {
  // The port in use.
  const taken = createNetServer();
  await new Promise<void>((resolve) => taken.listen(0, "0.0.0.0", resolve));
  const port = (taken.address() as AddressInfo).port;
  try {
    const busy = await startServer(tempDataDir(), {}, port);
    expect(await busy.exited).toBe(1);
    expectOneLineNaming(busy.output(), "PORT", /^PORT: 0\.0\.0\.0:\d+ is already in use/);
  } finally {
    taken.close();
  }

  // A database nothing answers at, and one whose password breaks the URL.
  // One process: with several, the primary keeps starting new ones (each says why it stopped).
  const secret = { BETTER_AUTH_SECRET: "x".repeat(40), WEB_CONCURRENCY: "1" };
  const unreachable = await startServer(tempDataDir(), {
    ...secret,
    DATABASE_URL: "postgres://app:sesame-secret@127.0.0.1:1/shop",
  });
  expect(await unreachable.exited).toBe(1);
  expectOneLineNaming(
    unreachable.output(),
    "DATABASE_URL",
    /^DATABASE_URL: nothing answers at 127\.0\.0\.1:1\/shop/,
  );
  expect(unreachable.output()).not.toContain("sesame");
  const unparsable = await startServer(tempDataDir(), {
    ...secret,
    DATABASE_URL: "postgres://app:pa#ss@db:5432/shop",
  });
  expect(await unparsable.exited).toBe(1);
  expectOneLineNaming(unparsable.output(), "DATABASE_URL", /DATABASE_URL: is not a valid URL/);

  // A DATA_DIR it cannot make (a file stands where its parent should be).
  const parent = tempDataDir();
  mkdirSync(parent);
  writeFileSync(path.join(parent, "file"), "");
  const dataDir = path.join(parent, "file", "data");
  const unwritable = await startServer(dataDir);
  expect(await unwritable.exited).toBe(1);
  expectOneLineNaming(
    unwritable.output(),
    "DATA_DIR",
    new RegExp(`DATA_DIR: ${dataDir} cannot be written`),
  );
});

test("on https without SMTP_URL the server warns at start that e-mail is not sent", async () => {
  const server = await startServer(tempDataDir(), { PUBLIC_ORIGIN: "https://shop.example" });
  try {
    await serverHealthy(server);
    const warning = server
      .output()
      .split("\n")
      .filter((line) => line.includes("SMTP_URL is not set"));
    expect(warning).toHaveLength(1);
    expect(JSON.parse(warning[0] ?? "{}").level).toBe(40);
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
  }
});

test("a DATA_DIR that other users can write is refused, the message says how to fix it", async () => {
  const dataDir = tempDataDir();
  mkdirSync(dataDir);
  chmodSync(dataDir, 0o777);
  const server = await startServer(dataDir);
  expect(await server.exited).toBe(1);
  expect(server.output()).toContain(`chmod 700 ${dataDir}`);
});

test("DATABASE_URL without an auth secret is refused", async () => {
  const server = await startServer(tempDataDir(), { DATABASE_URL: "postgres://127.0.0.1:1/none" });
  expect(await server.exited).toBe(1);
  expect(server.output()).toContain("BETTER_AUTH_SECRET: required when DATABASE_URL is set");
});

test("keeps its generated secret, so a session survives a restart; SIGTERM stops it cleanly", async () => {
  const dataDir = tempDataDir();
  const first = await startServer(dataDir);
  await serverHealthy(first);
  // bin/serve execs node with the memory settings of decisions 011 and 059: the pid is the server's.
  const pid = first.child.pid;
  const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  expect(argv).toContain("--max-semi-space-size=8");
  expect(argv).toContain("build/server/index.js");
  expect(readFileSync(`/proc/${pid}/environ`, "utf8").split("\0")).toContain("MALLOC_ARENA_MAX=1");
  const secretFile = path.join(dataDir, "auth-secret");
  expect(statSync(secretFile).mode & 0o777).toBe(0o600);
  // The database's socket has no password: it and DATA_DIR are the owner's alone.
  expect(statSync(path.join(dataDir, ".s.PGSQL.5432")).mode & 0o777).toBe(0o600);
  expect(statSync(dataDir).mode & 0o777).toBe(0o700);

  const email = `proc-${crypto.randomUUID()}@example.com`;
  const signup = await postForm(first.origin, "/signup", {
    name: "Restart",
    email,
    password: "survives restarts",
  });
  expect(signup.status).toBe(302);
  const cookie = cookieOf(signup);

  first.child.kill("SIGTERM");
  expect(await first.exited).toBe(0);
  expect(first.output()).toContain('"msg":"stopped"');
  // The socket and the lock are gone: the CLI may open the files now.
  expect(existsSync(path.join(dataDir, ".s.PGSQL.5432"))).toBe(false);
  expect(existsSync(path.join(dataDir, "ailabs.lock"))).toBe(false);

  const second = await startServer(dataDir);
  try {
    await serverHealthy(second);
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

test("stopping, it closes no idle kept-alive connection while requests still come", async () => {
  const server = await startServer(tempDataDir());
  try {
    await serverHealthy(server);
    const port = Number(new URL(server.origin).port);
    // A proxy's idle connection to the server: one answer on it, then nothing.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (agent: http.Agent | false, path = "/login") =>
      new Promise<http.IncomingMessage>((resolve, reject) => {
        http
          .get({ host: "127.0.0.1", port, path, agent }, (response) => {
            response.resume();
            response.on("end", () => resolve(response));
          })
          .on("error", reject);
      });
    await get(agent);
    const [idle] = Object.values(agent.freeSockets).flat();
    expect(idle).toBeDefined();
    let closedAt = 0;
    idle?.on("close", () => {
      closedAt = Date.now();
    });

    server.child.kill("SIGTERM");
    // Draining once /readyz says so (a health check: it does not count as a request).
    await expect.poll(async () => (await get(false, "/readyz")).statusCode).toBe(503);
    const draining = Date.now();
    // Requests keep coming on other kept-alive connections (the proxy still sends), two at
    // a time: each is answered, and its connection is closed after the answer.
    const sender = async () => {
      const busy = new http.Agent({ keepAlive: true, maxSockets: 1 });
      while (Date.now() - draining < 1500) {
        const answer = await get(busy, "/");
        expect(answer.statusCode).toBe(200);
        expect(answer.headers.connection).toBe("close");
      }
      busy.destroy();
    };
    await Promise.all([sender(), sender()]);
    expect(closedAt, "the idle connection is still open while requests come").toBe(0);
    // The proxy sends on its idle connection now: answered on it, which then closes.
    const late = await get(agent);
    expect(late.statusCode).toBe(200);
    expect(late.headers.connection).toBe("close");
    expect(late.socket).toBe(idle);
    // Requests stop: the server exits.
    expect(await server.exited).toBe(0);
    expect(closedAt - draining).toBeGreaterThanOrEqual(1500);
    agent.destroy();
  } finally {
    server.child.kill("SIGTERM");
  }
});

test("behind a trusted proxy, the test checkout pays only for a client on this machine", async () => {
  const server = await startServer(tempDataDir(), { TRUSTED_PROXIES: "127.0.0.1" });
  try {
    await serverHealthy(server);
    // Listening on every interface with the test checkout on: the log says so.
    expect(server.output()).toContain("the test checkout is on and the server listens beyond");
    const signup = await postForm(server.origin, "/signup", {
      name: "Remote",
      email: `remote-${crypto.randomUUID()}@example.com`,
      password: "a long enough password",
    });
    expect(signup.status).toBe(302);
    const cookie = cookieOf(signup);
    const checkout = await postForm(
      server.origin,
      "/payment-options",
      { productId: "lifetime-access" },
      { cookie },
    );
    expect(checkout.status).toBe(302);
    const payPath = new URL(checkout.headers.get("location") ?? "", server.origin).pathname;
    expect(payPath).toMatch(/^\/checkout\/test\//);

    // The proxy says the client is elsewhere: refused, nothing paid.
    const remote = await postForm(
      server.origin,
      payPath,
      { intent: "pay" },
      { cookie, "x-forwarded-for": "203.0.113.5" },
    );
    expect(remote.status).toBe(403);
    const dashboard = () =>
      fetch(`${server.origin}/dashboard`, { redirect: "manual", headers: { cookie } });
    expect((await dashboard()).headers.get("location")).toBe("/payment-options");

    // From this machine it pays.
    const local = await postForm(server.origin, payPath, { intent: "pay" }, { cookie });
    expect(local.status).toBe(302);
    expect(local.headers.get("location")).toBe("/success");
    expect((await dashboard()).status).toBe(200);
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
  }
});

test("a second server on the same DATA_DIR refuses to open the files", async () => {
  const dataDir = tempDataDir();
  const first = await startServer(dataDir);
  try {
    await serverHealthy(first);
    const second = await startServer(dataDir);
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
  const server = await startServer(tempDataDir(), { DISCORD_INVITE_URL: invite });
  const context = await browser.newContext({ baseURL: server.origin });
  try {
    await serverHealthy(server);
    await context.route("https://discord.gg/**", (route) =>
      route.fulfill({ contentType: "text/html", body: "<title>Discord</title>" }),
    );
    const page = await context.newPage();
    await createAccount(page, { paid: true, origin: server.origin });
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

/** The demo course's progress as the dashboard of `origin` shows it to this cookie, or where it redirects. */
async function demoProgress(origin: string, cookie: string): Promise<string> {
  const res = await fetch(`${origin}/dashboard`, { redirect: "manual", headers: { cookie } });
  if (res.status !== 200) return `${res.status} ${res.headers.get("location")}`;
  const html = await res.text();
  const card = html.slice(html.indexOf(demoCourseTitle));
  return /aria-valuetext="([^"]+)"/.exec(card)?.[1] ?? "no progress bar";
}

test("a member's page follows writes by another process on the same database", async () => {
  // The other process: on PostgreSQL a second server on the same database (and the CLI);
  // on the embedded database the CLI, through the first server's socket.
  const databaseUrl = process.env.DATABASE_URL;
  const shared: Record<string, string> = databaseUrl
    ? { DATABASE_URL: databaseUrl, BETTER_AUTH_SECRET: process.env.BETTER_AUTH_SECRET ?? "" }
    : {};
  const dataDir = tempDataDir();
  const first = await startServer(dataDir, shared);
  const second = databaseUrl ? await startServer(tempDataDir(), shared) : undefined;
  try {
    await serverHealthy(first);
    if (second) await serverHealthy(second);
    const email = `proc-${crypto.randomUUID()}@example.com`;
    const signup = await postForm(first.origin, "/signup", {
      name: "Two processes",
      email,
      password: "two processes agree",
    });
    const cookie = cookieOf(signup);
    const checkout = await postForm(
      first.origin,
      "/payment-options",
      {
        productId: "lifetime-access",
      },
      { cookie },
    );
    const checkoutPath = new URL(checkout.headers.get("location") ?? "", first.origin).pathname;
    expect((await postForm(first.origin, checkoutPath, { intent: "pay" }, { cookie })).status).toBe(
      302,
    );

    expect(await demoProgress(first.origin, cookie)).toBe("0 of 3 chapters done");
    // Asked again: the page the first server keeps for this member.
    expect(await demoProgress(first.origin, cookie)).toBe("0 of 3 chapters done");

    if (second) {
      // The member finishes a chapter on the other server.
      const html = await (
        await fetch(`${second.origin}/dashboard`, { headers: { cookie } })
      ).text();
      const courseId = new RegExp(
        `/course/([0-9a-f-]{36})"[^>]*>\\s*<h2[^>]*>${demoCourseTitle}`,
      ).exec(html)?.[1];
      const opened = await fetch(`${second.origin}/course/${courseId}`, {
        redirect: "manual",
        headers: { cookie },
      });
      const chapterPath = opened.headers.get("location") ?? "";
      const chapterId = new URL(chapterPath, second.origin).searchParams.get("chapter") ?? "";
      const done = await postForm(
        second.origin,
        chapterPath,
        { chapterId, done: "true" },
        { cookie },
      );
      expect(done.status).toBe(200);
      expect(await demoProgress(first.origin, cookie)).toBe("1 of 3 chapters done");
    }

    // The operator revokes access with the CLI while the server runs.
    await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "cli.ts", "access", "revoke", email],
      {
        cwd: path.resolve(import.meta.dirname, "../.."),
        env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn", ...shared },
        timeout: 30_000,
      },
    );
    expect(await demoProgress(first.origin, cookie)).toBe("302 /payment-options");
    if (second) expect(await demoProgress(second.origin, cookie)).toBe("302 /payment-options");
  } finally {
    for (const server of [first, second]) {
      server?.child.kill("SIGTERM");
      await server?.exited;
    }
  }
});
