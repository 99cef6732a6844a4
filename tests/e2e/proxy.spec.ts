import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { connect } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, type Page, type Response as PageResponse, test } from "@playwright/test";
import { Redis } from "ioredis";
import pg from "pg";
import {
  freePort,
  newAccount,
  openTestCheckout,
  type ServerProcess,
  serverHealthy,
  startServer,
} from "./helpers";

// Two production servers on one PostgreSQL database and one Redis, behind
// HAProxy run with deploy/haproxy.cfg (its ports, socket and certificate
// swapped for the test's): the purchase flow in Chromium through the proxy,
// the client address the proxy forwards, and restarts that lose nothing.

const root = path.resolve(import.meta.dirname, "../..");
const haproxyBin = process.env.HAPROXY ?? "/usr/sbin/haproxy";
const redisUrl = "redis://127.0.0.1:6379";
const secret = `proxy-test-secret-${crypto.randomUUID()}`;
/** The PostgreSQL cluster CI uses (DATABASE_URL's, on the PostgreSQL pass). */
const cluster = (() => {
  const url = new URL(process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres");
  url.pathname = "/postgres";
  return url;
})();

test.describe.configure({ mode: "serial", timeout: 90_000 });

type App = { name: "app1" | "app2"; port: number; server: ServerProcess };

let work: string;
let databaseUrl: string;
let redisPrefix: string;
let proxy: ChildProcess;
let proxyOutput = "";
let origin: string;
let adminSocket: string;
const apps: App[] = [];
let serverEnv: Record<string, string>;

/** One command of HAProxy's runtime API; its answer. */
function haproxyCommand(command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(adminSocket);
    let answer = "";
    socket.on("data", (d) => {
      answer += d;
    });
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
    socket.end(`${command}\n`);
  });
}

/** The state HAProxy gives the server (UP, DOWN, DRAIN, MAINT...), from `show stat`. */
async function proxyState(name: App["name"]): Promise<string> {
  const csv = await haproxyCommand("show stat");
  const row = csv.split("\n").find((line) => line.startsWith(`app,${name},`));
  return row?.split(",")[17] ?? "missing";
}

async function proxySendsTo(name: App["name"]): Promise<void> {
  await expect.poll(() => proxyState(name), { timeout: 30_000 }).toBe("UP");
}

/** HAProxy's configuration: deploy/haproxy.cfg with the test's ports, socket and no TLS. */
function testConfig(proxyPort: number): string {
  const replacements: [RegExp, string][] = [
    [/^ {4}stats socket .*$/m, `    stats socket ${adminSocket} mode 600 level admin`],
    [/^ {4}bind :80\n/m, ""],
    [/^ {4}bind :443 ssl .*$/m, `    bind 127.0.0.1:${proxyPort}`],
    [/^ {4}http-request redirect scheme https .*\n/m, ""],
    [/^ {4}http-request set-header X-Forwarded-Proto https\n/m, ""],
    [/ inter 2s /, " inter 300ms "],
    [/^ {4}server app1 .*$/m, `    server app1 127.0.0.1:${apps[0]?.port}`],
    [/^ {4}server app2 .*$/m, `    server app2 127.0.0.1:${apps[1]?.port}`],
  ];
  let config = readFileSync(path.join(root, "deploy/haproxy.cfg"), "utf8");
  for (const [pattern, replacement] of replacements) {
    // A line the test expects and no longer finds: the two must change together.
    expect(config, `deploy/haproxy.cfg has ${pattern}`).toMatch(pattern);
    config = config.replace(pattern, replacement);
  }
  return config;
}

async function startApp(app: Pick<App, "name" | "port">): Promise<App> {
  const server = await startServer(path.join(work, app.name), serverEnv, app.port);
  await serverHealthy(server, 60_000);
  return { ...app, server };
}

async function stopApp(app: App, signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
  app.server.child.kill(signal);
  return app.server.exited;
}

const servedBy = (response: PageResponse | null | undefined) =>
  response?.headers()["x-served-by"] ?? "none";

/** A POST with a form from a loopback address of ours (127.0.0.x), through the proxy. */
function postFrom(
  localAddress: string,
  pathname: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ status: number; servedBy: string }> {
  const body = new URLSearchParams(form).toString();
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${origin}${pathname}`,
      {
        method: "POST",
        localAddress,
        agent: false,
        headers: {
          origin,
          "content-type": "application/x-www-form-urlencoded",
          "content-length": Buffer.byteLength(body),
          ...headers,
        },
      },
      (response) => {
        response.resume();
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            servedBy: String(response.headers["x-served-by"]),
          }),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** `npm run cli -- ARGS` on the test's PostgreSQL database. */
async function cli(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(
    path.join(root, "node_modules/.bin/tsx"),
    ["cli.ts", ...args],
    {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", DATABASE_URL: databaseUrl, BETTER_AUTH_SECRET: secret },
      timeout: 30_000,
    },
  );
  return stdout;
}

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  work = mkdtempSync(path.join(os.tmpdir(), "ailabs-proxy-"));
  adminSocket = path.join(work, "haproxy.sock");
  const database = `proxy_e2e_${Date.now()}_${process.pid}`;
  const admin = new pg.Client({ connectionString: cluster.href });
  await admin.connect();
  await admin.query(`create database ${database}`);
  await admin.end();
  const url = new URL(cluster.href);
  url.pathname = `/${database}`;
  databaseUrl = url.href;
  redisPrefix = `e2e-proxy:${crypto.randomUUID()}:`;

  const [proxyPort, port1, port2] = [await freePort(), await freePort(), await freePort()];
  origin = `http://127.0.0.1:${proxyPort}`;
  serverEnv = {
    HOST: "127.0.0.1",
    PUBLIC_ORIGIN: origin,
    DATABASE_URL: databaseUrl,
    BETTER_AUTH_SECRET: secret,
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: redisPrefix,
    // HAProxy connects to the servers from 127.0.0.1.
    TRUSTED_PROXIES: "127.0.0.1",
    RATE_LIMIT_LOGIN_PER_ADDRESS_AND_EMAIL: "3",
    LOG_LEVEL: "warn",
  };
  // The first applies the migrations; the second then finds them done.
  apps.push(await startApp({ name: "app1", port: port1 }));
  apps.push(await startApp({ name: "app2", port: port2 }));

  const configFile = path.join(work, "haproxy.cfg");
  writeFileSync(configFile, testConfig(proxyPort));
  proxy = spawn(haproxyBin, ["-db", "-f", configFile], { stdio: ["ignore", "pipe", "pipe"] });
  proxy.stdout?.on("data", (d) => {
    proxyOutput += d;
  });
  proxy.stderr?.on("data", (d) => {
    proxyOutput += d;
  });
  await expect
    .poll(() => haproxyCommand("show info").catch(() => ""), { timeout: 10_000 })
    .toContain("Name: HAProxy");
  await proxySendsTo("app1");
  await proxySendsTo("app2");
});

test.afterAll(async () => {
  proxy?.kill("SIGTERM");
  await Promise.all(apps.map((app) => stopApp(app)));
  const admin = new pg.Client({ connectionString: cluster.href });
  await admin.connect();
  await admin.query(
    `drop database if exists ${new URL(databaseUrl).pathname.slice(1)} with (force)`,
  );
  await admin.end();
  const redis = new Redis(redisUrl);
  const keys = await redis.keys(`${redisPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
  rmSync(work, { recursive: true, force: true });
});

test.afterEach(async () => {
  const testInfo = test.info();
  if (testInfo.status !== testInfo.expectedStatus) {
    await testInfo.attach("haproxy", { body: proxyOutput });
    for (const app of apps) await testInfo.attach(app.name, { body: app.server.output() });
  }
});

/** The next POST the page sends, and its answer. */
const nextPost = (page: Page) => page.waitForResponse((r) => r.request().method() === "POST");

test("a purchase through the proxy: sign-up on one server, which is then killed; payment and dashboard on the other; a refund seen by both at once", async ({
  page,
}) => {
  const [app1, app2] = apps as [App, App];
  // Only app1 takes new requests while the member signs up.
  await haproxyCommand("set server app/app2 state drain");
  const account = newAccount();
  await page.goto(`${origin}/signup`);
  await page.getByLabel("Full Name", { exact: true }).fill(account.name);
  await page.getByLabel("Email address").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  const signupAnswer = nextPost(page);
  await page.getByRole("button", { name: "Create Account" }).click();
  expect(servedBy(await signupAnswer)).toBe("app1");
  await expect(page).toHaveURL(/\/payment-options$/);
  await openTestCheckout(page);

  // app1 dies without warning, with the checkout it opened on the screen.
  await haproxyCommand("set server app/app2 state ready");
  await stopApp(app1, "SIGKILL");
  const payAnswer = nextPost(page);
  await page.getByRole("button", { name: "Pay $25" }).click();
  expect(servedBy(await payAnswer)).toBe("app2");
  await expect(page).toHaveURL(/\/success$/);
  // A link followed in the page: React Router fetches the dashboard's data.
  const dashboardAnswer = page.waitForResponse((r) =>
    new URL(r.url()).pathname.startsWith("/dashboard"),
  );
  await page.getByRole("link", { name: "Go to dashboard now" }).click();
  expect(servedBy(await dashboardAnswer)).toBe("app2");
  await expect(page.getByRole("heading", { name: "Training Area" })).toBeVisible();

  const purchases = await query<{ status: string }>(
    `select p.status from purchase p join "user" u on u.id = p.user_id where u.email = $1`,
    [account.email],
  );
  expect(purchases).toEqual([{ status: "completed" }]);

  // app1 comes back; each server, asked directly, shows the member the dashboard.
  apps[0] = await startApp(app1);
  await proxySendsTo("app1");
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const dashboardOn = (app: App) =>
    fetch(`http://127.0.0.1:${app.port}/dashboard`, { headers: { cookie }, redirect: "manual" });
  for (const app of [apps[0], app2]) expect((await dashboardOn(app)).status).toBe(200);

  // The refund is written once; both servers stop showing the course on the next request.
  expect(await cli("access", "revoke", account.email)).toContain(account.email);
  for (const app of [apps[0], app2]) {
    const answer = await dashboardOn(app);
    expect(answer.status, app.name).toBe(302);
    expect(answer.headers.get("location")).toBe("/payment-options");
  }
});

test("the rate limits count the address the proxy forwards, on both servers together", async () => {
  const email = `limit-${crypto.randomUUID()}@example.com`;
  // Each client names itself in X-Forwarded-For; HAProxy appends the address it sees.
  const spoofed = { "x-forwarded-for": "203.0.113.9" };
  const tries = [];
  // Two tries on app1, the third on app2 (the other one drained each time).
  for (const [i, drained] of ["app2", "app2", "app1"].entries()) {
    await haproxyCommand(`set server app/${drained} state drain`);
    tries.push(await postFrom("127.0.0.2", "/login", { email, password: `guess ${i}` }, spoofed));
    await haproxyCommand(`set server app/${drained} state ready`);
  }
  expect(tries).toEqual([
    { status: 400, servedBy: "app1" },
    { status: 400, servedBy: "app1" },
    { status: 400, servedBy: "app2" },
  ]);
  const fourth = await postFrom("127.0.0.2", "/login", { email, password: "again" }, spoofed);
  expect(fourth.status).toBe(429);
  // Another client with the same made-up header is counted on its own.
  const other = await postFrom("127.0.0.3", "/login", { email, password: "mine" }, spoofed);
  expect(other.status).toBe(400);
});

test("the proxy names each request, and a client cannot choose the name", async () => {
  const ids = [];
  for (let i = 0; i < 2; i++) {
    const answer = await fetch(`${origin}/login`, { headers: { "x-request-id": "chosen-by-me" } });
    expect(answer.status).toBe(200);
    ids.push(answer.headers.get("x-request-id"));
  }
  // HAProxy's unique id (hexadecimal client and frontend addresses, ports, time, pid).
  for (const id of ids) expect(id).toMatch(/^[0-9A-F]+:[0-9A-F]+_[0-9A-F]+:[0-9A-F]+_/);
  expect(new Set(ids).size).toBe(2);
});

test("a rolling restart of both servers under load answers no request with a 5xx", async ({
  request,
}) => {
  // A member, for pages rendered per session as well as the static ones.
  const signup = await request.post(`${origin}/signup`, {
    form: { ...newAccount() },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(signup.status()).toBe(302);
  const cookie = (signup.headers()["set-cookie"] ?? "")
    .split("\n")
    .map((c) => c.split(";")[0])
    .join("; ");

  const statuses = new Map<string, number>();
  const failures: string[] = [];
  let loading = true;
  const paths = ["/", "/payment-options", "/login?reset=1", "/account"];
  const loop = async (n: number) => {
    for (let i = n; loading; i++) {
      const pathname = paths[i % paths.length] as string;
      try {
        const answer = await fetch(`${origin}${pathname}`, {
          headers: { cookie },
          redirect: "manual",
        });
        await answer.arrayBuffer();
        const key = `${answer.status} ${answer.headers.get("x-served-by")}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        if (answer.status >= 500) failures.push(`${pathname}: ${answer.status}`);
      } catch (error) {
        failures.push(`${pathname}: ${(error as Error).message}`);
      }
    }
  };
  const load = Promise.all([0, 1, 2, 3].map(loop));

  for (const index of [0, 1]) {
    const app = apps[index] as App;
    expect(await stopApp(app), `${app.name} exits cleanly`).toBe(0);
    apps[index] = await startApp(app);
    await proxySendsTo(app.name);
  }
  loading = false;
  await load;

  expect(failures).toEqual([]);
  const answered = [...statuses].reduce((sum, [, count]) => sum + count, 0);
  expect(answered).toBeGreaterThan(100);
  expect([...statuses.keys()].every((key) => /^(200|302) app[12]$/.test(key))).toBe(true);
});
