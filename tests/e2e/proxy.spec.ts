import { type ChildProcess, execFile, spawn } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import { connect } from "node:net";
import os from "node:os";
import path from "node:path";
import { connect as tlsConnect } from "node:tls";
import { promisify } from "node:util";
import { expect, type Page, type Response as PageResponse, test } from "@playwright/test";
import { Redis } from "ioredis";
import pg from "pg";
import { totpCode } from "../../app/test/totp";
import {
  freePort,
  hydrated,
  newAccount,
  openTestCheckout,
  type ServerProcess,
  serverHealthy,
  startServer,
} from "./helpers";

// Two production servers on one PostgreSQL database and one Redis, behind
// HAProxy run with deploy/haproxy.cfg through TLS (only its ports, socket,
// certificate and ACME client's address swapped for the test's): the purchase
// flow in Chromium over https, the client address the proxy forwards, its log
// line and request ids, the ACME challenge on port 80, a renewed certificate,
// and restarts that lose nothing.

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
/** HAProxy drops to its own user in a chroot only when started as root (as systemd does). */
const asRoot = process.getuid?.() === 0;
/** The check interval the test gives HAProxy (deploy/haproxy.cfg: 2s) and its fall (2). */
const checkInterMs = 300;

test.describe.configure({ mode: "serial", timeout: 90_000 });
test.use({ ignoreHTTPSErrors: true });

type App = { name: "app1" | "app2"; port: number; server: ServerProcess };

let work: string;
let databaseUrl: string;
let redisPrefix: string;
let proxy: ChildProcess;
let proxyOutput = "";
/** https://localhost:PORT: PUBLIC_ORIGIN, HAProxy's TLS port. */
let origin: string;
let tlsPort: number;
let httpPort: number;
let certFile: string;
let certPem: string;
let adminSocket: string;
let acme: http.Server;
const apps: App[] = [];
let serverEnv: Record<string, string>;

/** A self-signed certificate for localhost, as docs/deploy.md's placeholder: PEM of certificate and key. */
async function selfSignedPem(dir: string): Promise<{ cert: string; key: string }> {
  mkdirSync(dir, { recursive: true });
  await promisify(execFile)("openssl", [
    ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost"],
    ...["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
    ...["-keyout", path.join(dir, "privkey.pem"), "-out", path.join(dir, "fullchain.pem")],
  ]);
  return {
    cert: readFileSync(path.join(dir, "fullchain.pem"), "utf8"),
    key: readFileSync(path.join(dir, "privkey.pem"), "utf8"),
  };
}

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

/**
 * HAProxy's configuration: deploy/haproxy.cfg with the test's ports, socket, certificate
 * and ACME client; not run as root, without the chroot and user it cannot switch to.
 */
function testConfig(acmePort: number): string {
  const replacements: [RegExp, string | ((...groups: string[]) => string)][] = [
    [/^ {4}stats socket .*$/m, `    stats socket ${adminSocket} mode 600 level admin`],
    [/^ {4}bind :80$/m, `    bind 127.0.0.1:${httpPort}`],
    [
      /^( {4}bind ):443( ssl crt )\/etc\/haproxy\/certs\/ailabs\.pem( .*)$/m,
      (_all, bind, ssl, rest) => `${bind}127.0.0.1:${tlsPort}${ssl}${certFile}${rest}`,
    ],
    [/ inter 2s /, ` inter ${checkInterMs}ms `],
    [/^ {4}server app1 .*$/m, `    server app1 127.0.0.1:${apps[0]?.port}`],
    [/^ {4}server app2 .*$/m, `    server app2 127.0.0.1:${apps[1]?.port}`],
    [/^ {4}server certbot 127\.0\.0\.1:8402$/m, `    server certbot 127.0.0.1:${acmePort}`],
  ];
  if (!asRoot) {
    replacements.push([/^ {4}chroot .*\n {4}user haproxy\n {4}group haproxy\n/m, ""]);
  }
  let config = readFileSync(path.join(root, "deploy/haproxy.cfg"), "utf8");
  for (const [pattern, replacement] of replacements) {
    // A line the test expects and no longer finds: the two must change together.
    expect(config, `deploy/haproxy.cfg has ${pattern}`).toMatch(pattern);
    config =
      typeof replacement === "string"
        ? config.replace(pattern, replacement)
        : config.replace(pattern, replacement as (...groups: string[]) => string);
  }
  return config;
}

async function startApp(app: Pick<App, "name" | "port">): Promise<App> {
  const server = await startServer(path.join(work, app.name), serverEnv, app.port);
  // Started again during the rolling restart, it opens its database and renders the public
  // pages while the other server takes the whole load: on two busy cores that can pass 60 s.
  await serverHealthy(server, 120_000);
  return { ...app, server };
}

async function stopApp(app: App, signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
  app.server.child.kill(signal);
  return app.server.exited;
}

const servedBy = (response: PageResponse | null | undefined) =>
  response?.headers()["x-served-by"] ?? "none";

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/**
 * A request through HAProxy's TLS port, checking its certificate (the test's), from one of
 * our loopback addresses (127.0.0.x); a new connection unless an agent is given.
 */
function send(
  pathname: string,
  options: {
    method?: string;
    form?: Record<string, string>;
    headers?: Record<string, string>;
    localAddress?: string;
    agent?: https.Agent;
  } = {},
): Promise<Answer> {
  const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const request = https.request(
      {
        host: "127.0.0.1",
        port: tlsPort,
        servername: "localhost",
        ca: certPem,
        path: pathname,
        method: options.method ?? (body === undefined ? "GET" : "POST"),
        localAddress: options.localAddress,
        agent: options.agent ?? false,
        headers: {
          host: `localhost:${tlsPort}`,
          ...(body === undefined
            ? {}
            : {
                origin,
                "content-type": "application/x-www-form-urlencoded",
                "content-length": String(Buffer.byteLength(body)),
              }),
          ...options.headers,
        },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => {
          text += chunk;
        });
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** A plain http GET to HAProxy's port 80. */
function sendPlain(pathname: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port: httpPort, path: pathname, agent: false }, (response) => {
        let text = "";
        response.on("data", (chunk) => {
          text += chunk;
        });
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
        );
      })
      .on("error", reject);
  });
}

/** A POST with a form from a loopback address of ours (127.0.0.x), through the proxy. */
async function postFrom(
  localAddress: string,
  pathname: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ status: number; servedBy: string }> {
  const answer = await send(pathname, { form, headers, localAddress });
  return { status: answer.status, servedBy: String(answer.headers["x-served-by"]) };
}

/** The SHA-256 fingerprint of the certificate HAProxy's TLS port presents now. */
function servedCertificate(): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect(
      { host: "127.0.0.1", port: tlsPort, servername: "localhost", rejectUnauthorized: false },
      () => {
        resolve(socket.getPeerCertificate().fingerprint256);
        socket.end();
      },
    );
    socket.on("error", reject);
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

  // The certificate HAProxy starts with (docs/deploy.md's placeholder): one PEM, chain and key.
  const placeholder = await selfSignedPem(path.join(work, "placeholder"));
  certPem = placeholder.cert;
  certFile = path.join(work, "ailabs.pem");
  writeFileSync(certFile, placeholder.cert + placeholder.key);

  // certbot's standalone server, as HAProxy's acme backend reaches it: answers a challenge.
  acme = http.createServer((req, res) => {
    const token = req.url?.match(/^\/\.well-known\/acme-challenge\/([\w-]+)$/)?.[1];
    res.writeHead(token ? 200 : 404, { "content-type": "text/plain" });
    res.end(token ? `${token}.key-authorization` : "not a challenge");
  });
  const acmePort = await freePort();
  await new Promise<void>((resolve) => acme.listen(acmePort, "127.0.0.1", resolve));

  const [proxyPort, plainPort, port1, port2] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  tlsPort = proxyPort;
  httpPort = plainPort;
  origin = `https://localhost:${tlsPort}`;
  serverEnv = {
    HOST: "127.0.0.1",
    PUBLIC_ORIGIN: origin,
    DATABASE_URL: databaseUrl,
    BETTER_AUTH_SECRET: secret,
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: redisPrefix,
    // HAProxy connects to the servers from 127.0.0.1.
    TRUSTED_PROXIES: "127.0.0.1",
    // Longer than HAProxy's `inter` x `fall` here (300 ms x 2), as 5 s is for 2 s x 2.
    SHUTDOWN_DELAY_SECONDS: "1",
    RATE_LIMIT_LOGIN_PER_ADDRESS_AND_EMAIL: "3",
    LOG_LEVEL: "warn",
  };
  // The first applies the migrations; the second then finds them done.
  apps.push(await startApp({ name: "app1", port: port1 }));
  apps.push(await startApp({ name: "app2", port: port2 }));

  const configFile = path.join(work, "haproxy.cfg");
  writeFileSync(configFile, testConfig(acmePort));
  // Master-worker mode, as Debian's unit runs it: SIGUSR2 reloads (the certificate too).
  proxy = spawn(haproxyBin, ["-W", "-db", "-f", configFile], {
    stdio: ["ignore", "pipe", "pipe"],
  });
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
  acme?.close();
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

/** Every answer of 400 or more the page gets, as "STATUS METHOD PATH". */
function failedAnswers(page: Page): string[] {
  const failed: string[] = [];
  page.on("response", (r) => {
    if (r.status() >= 400) {
      failed.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
    }
  });
  return failed;
}

test("a purchase through https: sign-up on one server, which is then killed; payment, dashboard, two-factor, an admin action, logout, sign-in and a password reset", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const failed = failedAnswers(page);
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
  await expect(page.getByRole("heading", { name: "Choose Your Access Plan" })).toBeVisible();
  // Over https the session cookie is __Secure- and every cookie is Secure.
  const cookies = await page.context().cookies();
  expect(cookies.map((c) => c.name)).toContain("__Secure-better-auth.session_token");
  expect(cookies.filter((c) => !c.secure)).toEqual([]);
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
  // (/success leads on to the first upsell; the header's link goes home.)
  await page.getByRole("link", { name: "Dashboard", exact: true }).first().click();
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

  // The member becomes an admin; on an https site an admin turns two-factor on first.
  expect(await cli("admin", "grant", account.email)).toContain(account.email);
  await page.goto(`${origin}/account`);
  await hydrated(page.getByRole("button", { name: "Set up two-factor authentication" }));
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  const totpSecret = (await page.getByTestId("totp-secret").textContent())?.trim() ?? "";
  expect(totpSecret).toMatch(/^[A-Z2-7]{32,}$/);
  await page.getByLabel("Authentication code").fill(totpCode(totpSecret));
  await page.getByRole("button", { name: "Confirm and turn on" }).click();
  const recoveryCodes = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(recoveryCodes).toHaveCount(10);
  const recoveryCode = ((await recoveryCodes.first().textContent()) ?? "").trim();
  await page.getByRole("link", { name: "I have saved them" }).click();
  await expect(page.getByText("Status: On")).toBeVisible();

  // An admin action: the offer settings' coupon code.
  await page.goto(`${origin}/admin/settings`);
  await page.getByLabel("Coupon code").fill("PROXY");
  await page.getByRole("button", { name: "Save settings" }).click();
  // The save answers once the server has rendered its public pages again, after any render
  // already under way (offer-settings.server.ts: refreshes run one after another); app1,
  // just restarted, may still be rendering and compressing its own at start, and the suite's
  // other worker loads the machine meanwhile: on a slow machine that took over 40 s.
  await expect(page.getByRole("status").filter({ hasText: "Saved" }))
    .toContainText("Saved", { timeout: 90_000 })
    .catch((error: Error) => {
      throw new Error(`${error.message}\nAnswers of 400 or more so far: ${failed.join(", ")}`);
    });
  await page.reload();
  await expect(page.getByLabel("Coupon code")).toHaveValue("PROXY");

  await page.goto(`${origin}/account`);
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("button", { name: "Logout" })
    .click();
  await expect(page).toHaveURL(`${origin}/`);
  expect(await page.context().cookies()).toEqual([]);

  // Signing in again takes the password, then the second factor (a recovery code here).
  await page.goto(`${origin}/login`);
  await page.getByLabel("Email address").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/login\/two-factor$/);
  await page.getByRole("link", { name: "Use a recovery code" }).click();
  await page.getByLabel("Recovery code").fill(recoveryCode);
  await page.getByLabel("Recovery code").press("Enter");
  await expect(page).toHaveURL(/\/(dashboard|payment-options)$/);
  await page.context().clearCookies();

  // Forgot password: the link in the e-mail (the outbox's copy) sets a new one.
  await page.goto(`${origin}/forgot-password`);
  await page.getByLabel("Email address").fill(account.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("status")).toContainText("valid for 1 hour");
  const resetLink = async () => {
    const [mail] = await query<{ text: string }>(
      `select text from email_outbox where "to" = $1 order by created_at desc limit 1`,
      [account.email],
    );
    return mail?.text.match(/https:\/\/\S+\/reset-password\?token=[^\s"<>]+/)?.[0] ?? "";
  };
  await expect.poll(resetLink).not.toBe("");
  const link = await resetLink();
  expect(link.startsWith(`${origin}/reset-password?token=`)).toBe(true);
  const newPassword = `new-${crypto.randomUUID()}`;
  await page.goto(link);
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("Confirm new password").fill(newPassword);
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page).toHaveURL(/\/login\?reset=1$/);
  await page.getByLabel("Email address").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(newPassword);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/login\/two-factor$/);

  expect(failed).toEqual([]);
  // The reset link's token is in no line of the proxy's log.
  const token = new URL(link).searchParams.get("token") ?? "";
  expect(token).not.toBe("");
  expect(proxyOutput).toContain("/reset-password HTTP/");
  expect(proxyOutput).not.toContain(token);
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

test("the proxy names each request with a random id a client cannot choose, and logs it with the path but not the query", async () => {
  const ids: string[] = [];
  for (let i = 0; i < 2; i++) {
    const answer = await send(`/reset-password?token=log-secret-${i}`, {
      headers: { "x-request-id": "chosen-by-me" },
    });
    expect(answer.status).toBe(200);
    ids.push(String(answer.headers["x-request-id"]));
  }
  // A UUID: random, nothing of the client's address or port in it.
  for (const id of ids) {
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  }
  expect(new Set(ids).size).toBe(2);
  for (const id of ids) {
    await expect.poll(() => proxyOutput).toContain(`id=${id}`);
    const line = proxyOutput.split("\n").find((l) => l.includes(`id=${id}`)) ?? "";
    expect(line).toContain('"GET /reset-password HTTP/1.1"');
    expect(line).not.toContain("log-secret");
    expect(line).not.toContain("?");
  }
});

test("HAProxy runs as its own user in a chroot", async () => {
  const config = readFileSync(path.join(root, "deploy/haproxy.cfg"), "utf8");
  expect(config).toMatch(/^ {4}chroot \/var\/lib\/haproxy\n {4}user haproxy\n {4}group haproxy$/m);
  // Started as root (as systemd does), its worker switched to them.
  if (!asRoot) return;
  const { stdout } = await promisify(execFile)("ps", [
    ...["-o", "pid=,user=", "--ppid", String(proxy.pid)],
  ]);
  const [workerPid, user] = stdout.trim().split(/\s+/);
  expect(user).toBe("haproxy");
  const { stdout: rootDir } = await promisify(execFile)("readlink", [`/proc/${workerPid}/root`]);
  expect(rootDir.trim()).toBe("/var/lib/haproxy");
});

test("port 80 redirects to https except the ACME challenge, which reaches the ACME client", async () => {
  const challenge = await sendPlain("/.well-known/acme-challenge/abc-123");
  expect(challenge.status).toBe(200);
  expect(challenge.body).toBe("abc-123.key-authorization");
  const page = await sendPlain("/login?next=x");
  expect(page.status).toBe(301);
  expect(page.headers.location).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/login\?next=x$/);
});

test("each server's /metrics gives the version running and whether the database answers; the proxy does not serve it", async () => {
  const version = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).version;
  for (const app of apps) {
    const text = await (await fetch(`http://127.0.0.1:${app.port}/metrics`)).text();
    expect(text, app.name).toContain(`ailabs_build_info{version="${version}"} 1`);
    expect(text, app.name).toMatch(/^ailabs_database_up 1$/m);
  }
  expect((await send("/metrics")).status).toBe(403);
});

test("a rolling restart of both servers with SIGTERM under load answers no GET or POST with a 5xx", async ({
  request,
}) => {
  test.setTimeout(300_000);
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
  const sent = { GET: 0, POST: 0 };
  const postTimes: number[] = [];
  let loading = true;
  const gets = ["/", "/payment-options", "/login?reset=1", "/account"];
  const posts: [string, Record<string, string>][] = [
    ["/cookie-consent", { consent: "essential", returnTo: "/" }],
    ["/payment-options", { productId: "lifetime-access" }],
  ];
  // Each loop keeps its connection alive, as browsers do: HAProxy then reuses its own
  // connections to the servers, which a stopping server must not close under a request.
  const loop = async (n: number, method: "GET" | "POST") => {
    const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = n; loading; i++) {
      const [pathname, form] =
        method === "GET"
          ? [gets[i % gets.length] as string, undefined]
          : (posts[i % posts.length] as [string, Record<string, string>]);
      sent[method] += 1;
      const sentAt = Date.now();
      if (method === "POST") postTimes.push(sentAt);
      try {
        const answer = await send(pathname, { form, headers: { cookie }, agent });
        const key = `${answer.status} ${answer.headers["x-served-by"]}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        if (answer.status >= 500) failures.push(`${method} ${pathname}: ${answer.status}`);
      } catch (error) {
        // When it was sent, to find it (or its absence) in HAProxy's log, which the
        // failed test attaches: [%tr] is when HAProxy received the request.
        failures.push(
          `${method} ${pathname}: ${(error as Error).message} (sent ${new Date(sentAt).toISOString()})`,
        );
      }
    }
    agent.destroy();
  };
  const load = Promise.all([
    ...[0, 1, 2].map((n) => loop(n, "GET")),
    ...[0, 1, 2].map((n) => loop(n, "POST")),
  ]);

  const signalled: number[] = [];
  for (const index of [0, 1]) {
    const app = apps[index] as App;
    await new Promise((resolve) => setTimeout(resolve, 500));
    signalled.push(Date.now());
    expect(await stopApp(app), `${app.name} exits cleanly`).toBe(0);
    apps[index] = await startApp(app);
    await proxySendsTo(app.name);
  }
  loading = false;
  await load;

  const nearSignal = postTimes.filter((t) => signalled.some((s) => t >= s && t - s <= 200)).length;
  console.log(
    `rolling restart: ${sent.GET} GETs and ${sent.POST} POSTs sent (${nearSignal} POSTs within 0.2 s after a SIGTERM), ${failures.length} failed`,
  );
  expect(failures).toEqual([]);
  expect(sent.POST).toBeGreaterThan(100);
  expect(nearSignal).toBeGreaterThan(0);
  expect([...statuses.keys()].filter((key) => !/^(200|302|303) app[12]$/.test(key))).toEqual([]);
});

test("a renewed certificate is installed by the certbot hook and served after HAProxy reloads", async () => {
  const before = await servedCertificate();
  expect(before).toBe(new X509Certificate(certPem).fingerprint256);
  // certbot's live directory for the domain, with the renewed certificate.
  const lineage = path.join(work, "live");
  const renewed = await selfSignedPem(lineage);
  const expected = new X509Certificate(renewed.cert).fingerprint256;
  expect(expected).not.toBe(before);
  await promisify(execFile)(path.join(root, "deploy/haproxy-certificate-hook"), [], {
    env: {
      PATH: process.env.PATH ?? "",
      RENEWED_LINEAGE: lineage,
      HAPROXY_CERT: certFile,
      HAPROXY_RELOAD: `kill -USR2 ${proxy.pid}`,
    },
  });
  await expect.poll(() => servedCertificate().catch(() => ""), { timeout: 15_000 }).toBe(expected);
  certPem = renewed.cert;
  expect((await send("/login")).status).toBe(200);
});
