/**
 * Load test: the production server against a bare node:http server that
 * answers the same bytes. Run with `npm run bench` (builds first).
 *
 * 1. Starts build/server/index.js (NODE_ENV=production) on a free port with a
 *    fresh temporary DATA_DIR and waits for /healthz.
 * 2. Creates a paid member through the real flow: POST /signup, POST
 *    /payment-options, POST /checkout/test/{id} with intent=pay.
 * 3. Captures GET / (no cookie) and GET /dashboard (member's cookie), starts
 *    bench/bare-server.ts answering those exact responses, and runs
 *    autocannon (100 connections, 2 s warm-up, 10 s measured) against each.
 * 4. Prints a table and PASS/FAIL per target, writes bench/results/latest.json.
 *
 * Targets are reported, not enforced: the exit code is 0 unless the bench
 * itself broke.
 *
 * `npm run bench -- --profile` instead runs only the dashboard against a
 * server started with `node --cpu-prof` and prints where its CPU time went
 * (the profile is kept in bench/results/).
 *
 * Environment: BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 2),
 * BENCH_CONNECTIONS (default 100), BENCH_ACCEPT_ENCODING (default
 * "gzip, deflate, br", as a browser sends; empty for none).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import autocannon, { type Result } from "autocannon";
import type { CapturedResponse } from "./bare-server";
import { formatSummary, profileSpan, summarizeFile } from "./profile-summary";

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const rootDir = path.dirname(benchDir);
const resultsDir = path.join(benchDir, "results");

const numberFromEnv = (name: string, fallback: number) => {
  const value = process.env[name];
  return value ? Number(value) : fallback;
};
const config = {
  connections: numberFromEnv("BENCH_CONNECTIONS", 100),
  durationSeconds: numberFromEnv("BENCH_DURATION", 10),
  warmupSeconds: numberFromEnv("BENCH_WARMUP", 2),
  acceptEncoding: process.env.BENCH_ACCEPT_ENCODING ?? "gzip, deflate, br",
};
const profileMode = process.argv.includes("--profile");

const targets = {
  publicRatio: 0.7,
  dashboardRps: 2000,
  dashboardP99Ms: 100,
};

class BenchError extends Error {}

// ---------------------------------------------------------------- children

const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();

/** The last lines each child printed, for the message when the bench breaks. */
const outputs = new Map<string, string[]>();

function track(child: ChildProcess, name: string, output: string[]): ChildProcess {
  children.add(child);
  outputs.set(name, output);
  const keep = (chunk: Buffer) => {
    output.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    if (output.length > 200) output.splice(0, output.length - 200);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  child.on("exit", () => children.delete(child));
  child.on("error", (error) => output.push(`${name}: ${error.message}`));
  return child;
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** SIGTERM, then SIGKILL after `graceMs`. */
async function stop(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (exited(child)) return;
  const done = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await done;
  clearTimeout(timer);
}

async function cleanUp(): Promise<void> {
  await Promise.all([...children].map((child) => stop(child)));
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

// Last resort when the process goes down without cleanUp(): no child survives us.
process.on("exit", () => {
  for (const child of children) if (!exited(child)) child.kill("SIGKILL");
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping`);
    void cleanUp().finally(() => process.exit(130));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------- HTTP

type Reply = {
  status: number;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
};

/** One request on a fresh connection; redirects are not followed. */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? "GET", headers: options.headers, agent: false, timeout: 30_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            rawHeaders: res.rawHeaders,
            body: Buffer.concat(chunks),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`timeout: ${options.method ?? "GET"} ${url}`)));
    req.on("error", reject);
    req.end(options.body);
  });
}

function decodedText(reply: Reply): string {
  const encoding = reply.headers["content-encoding"];
  const body =
    encoding === "br"
      ? brotliDecompressSync(reply.body)
      : encoding === "gzip"
        ? gunzipSync(reply.body)
        : encoding === "deflate"
          ? inflateSync(reply.body)
          : reply.body;
  return body.toString("utf8");
}

/** A browser-like cookie jar: name=value pairs from Set-Cookie, cleared ones dropped. */
class CookieJar {
  private cookies = new Map<string, string>();
  take(reply: Reply) {
    for (const line of reply.headers["set-cookie"] ?? []) {
      const pair = line.split(";")[0] ?? "";
      const eq = pair.indexOf("=");
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value) this.cookies.set(name, value);
      else this.cookies.delete(name);
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
  has(part: string): boolean {
    return [...this.cookies.keys()].some((name) => name.includes(part));
  }
}

function replyText(reply: Reply): string {
  const location = reply.headers.location ? ` -> ${reply.headers.location}` : "";
  let text = "";
  try {
    text = decodedText(reply);
  } catch {
    text = `<${reply.body.byteLength} undecodable bytes>`;
  }
  return `${reply.status}${location}: ${text.replace(/\s+/g, " ").slice(0, 300)}`;
}

function replyInfo(reply: Reply) {
  return { status: reply.status, bytes: reply.body.byteLength, headers: reply.headers };
}

function expectRedirect(reply: Reply, step: string, pattern: RegExp): string {
  const location = reply.headers.location;
  if (reply.status < 300 || reply.status >= 400 || !location || !pattern.test(location)) {
    throw new BenchError(
      `${step}: expected a redirect matching ${pattern}, got ${replyText(reply)}`,
    );
  }
  return location;
}

// ---------------------------------------------------------------- app server

type AppServer = {
  origin: string;
  child: ChildProcess;
  output: string[];
  dataDir: string;
  profileDir?: string;
};

async function startAppServer(): Promise<AppServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "ailabs-bench-"));
  tempDirs.add(dataDir);
  const profileDir = profileMode ? path.join(dataDir, "profile") : undefined;
  const nodeArgs = profileDir ? ["--cpu-prof", "--cpu-prof-dir", profileDir] : [];
  const output: string[] = [];
  const child = track(
    spawn(process.execPath, [...nodeArgs, "build/server/index.js"], {
      cwd: rootDir,
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: path.join(dataDir, "data"),
        DATABASE_URL: "",
        PUBLIC_ORIGIN: origin,
      },
      stdio: ["ignore", "pipe", "pipe"],
    }),
    "server",
    output,
  );
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited(child)) {
      throw new BenchError(
        `server exited during start-up (code ${child.exitCode}):\n${output.join("\n")}`,
      );
    }
    try {
      const reply = await send(`${origin}/healthz`);
      if (reply.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      throw new BenchError(`server did not answer /healthz within 30 s:\n${output.join("\n")}`);
    }
    await sleep(100);
  }
  return { origin, child, output, dataDir: path.join(dataDir, "data"), profileDir };
}

/** Sign-up, checkout and test payment through the app's own forms. Returns the Cookie header. */
async function createPaidMember(origin: string): Promise<string> {
  const jar = new CookieJar();
  const post = async (pathname: string, form: Record<string, string>) => {
    const reply = await send(`${origin}${pathname}`, {
      method: "POST",
      headers: {
        origin,
        "content-type": "application/x-www-form-urlencoded",
        ...(jar.header() ? { cookie: jar.header() } : {}),
      },
      body: new URLSearchParams(form).toString(),
    });
    jar.take(reply);
    return reply;
  };

  const signup = await post("/signup", {
    name: "Bench Member",
    email: `bench-${randomUUID()}@example.test`,
    password: "correct horse battery staple",
  });
  expectRedirect(signup, "POST /signup", /^\/payment-options$/);
  if (!jar.has("session_token")) {
    throw new BenchError(`POST /signup set no session cookie: ${replyText(signup)}`);
  }

  const checkout = expectRedirect(
    await post("/payment-options", { productId: "lifetime-access" }),
    "POST /payment-options",
    /^(https?:\/\/[^/]+)?\/checkout\/test\/[^/?#]+$/,
  );
  const checkoutPath = new URL(checkout, origin).pathname;
  const page = await send(`${origin}${checkoutPath}`, { headers: { cookie: jar.header() } });
  if (page.status !== 200) throw new BenchError(`GET ${checkoutPath}: ${replyText(page)}`);

  expectRedirect(await post(checkoutPath, { intent: "pay" }), `POST ${checkoutPath}`, /\/success$/);
  return jar.header();
}

/**
 * A course of 20 chapters, written through the admin panel by an admin made
 * with the operator CLI (which reaches the running server's database through
 * its socket). Returns the course id.
 */
async function createCourse(app: AppServer, chapters: number): Promise<string> {
  const jar = new CookieJar();
  const email = `bench-admin-${randomUUID()}@example.test`;
  const post = async (pathname: string, form: Record<string, string>) => {
    const reply = await send(`${app.origin}${pathname}`, {
      method: "POST",
      headers: {
        origin: app.origin,
        "content-type": "application/x-www-form-urlencoded",
        ...(jar.header() ? { cookie: jar.header() } : {}),
      },
      body: new URLSearchParams(form).toString(),
    });
    jar.take(reply);
    return reply;
  };
  expectRedirect(
    await post("/signup", { name: "Bench Admin", email, password: "correct horse battery staple" }),
    "POST /signup (admin)",
    /^\/payment-options$/,
  );
  execFileSync(process.execPath, ["--import", "tsx", "cli.ts", "admin", "grant", email], {
    cwd: rootDir,
    env: { ...process.env, DATA_DIR: app.dataDir, DATABASE_URL: "" },
    stdio: "pipe",
  });
  const created = expectRedirect(
    await post("/admin", {
      intent: "create-course",
      title: "Bench course",
      description: "Twenty chapters of text, a list and a video each.",
    }),
    "POST /admin create-course",
    /^\/admin\?course=[0-9a-f-]{36}$/,
  );
  const courseId = created.slice("/admin?course=".length);
  const paragraph =
    "<p>Write the prompt, build the app, ship it and tell people about it. </p>".repeat(6);
  for (let i = 1; i <= chapters; i++) {
    const reply = await post("/admin", {
      intent: "create-chapter",
      courseId,
      title: `Chapter ${i}: from idea to launch`,
      content: `<h2>Step ${i}</h2>${paragraph}<ul><li>One</li><li>Two</li><li>Three</li></ul><iframe src="https://www.youtube.com/watch?v=dQw4w9WgXcQ"></iframe>`,
    });
    if (reply.status !== 200)
      throw new BenchError(`POST /admin create-chapter: ${replyText(reply)}`);
  }
  return courseId;
}

// ---------------------------------------------------------------- captures

const hopByHop = new Set(["connection", "keep-alive", "date"]);

function capture(pathname: string, reply: Reply): CapturedResponse {
  const headers: [string, string][] = [];
  for (let i = 0; i + 1 < reply.rawHeaders.length; i += 2) {
    const name = reply.rawHeaders[i] as string;
    if (!hopByHop.has(name.toLowerCase())) headers.push([name, reply.rawHeaders[i + 1] as string]);
  }
  return {
    path: pathname,
    status: reply.status,
    headers,
    bodyBase64: reply.body.toString("base64"),
  };
}

async function startBareServer(fixtures: CapturedResponse[], dir: string) {
  const file = path.join(dir, "fixtures.json");
  writeFileSync(file, JSON.stringify(fixtures));
  const output: string[] = [];
  const child = track(
    spawn(process.execPath, ["--import", "tsx", path.join(benchDir, "bare-server.ts"), file], {
      cwd: rootDir,
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    }),
    "bare server",
    output,
  );
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new BenchError("bare server did not start in 15 s")),
      15_000,
    );
    child.once("message", (message: { port: number }) => {
      clearTimeout(timer);
      resolve(message.port);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new BenchError(`bare server exited (code ${code}):\n${output.join("\n")}`));
    });
  });
  return { origin: `http://127.0.0.1:${port}`, child };
}

// ---------------------------------------------------------------- load

type Measurement = {
  target: string;
  url: string;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** Server process CPU time per completed request (ms), from /proc. */
  serverCpuMsPerRequest: number | undefined;
  /** Server CPU time / wall time during the run: 1 = one core fully used. */
  serverCpuCores: number | undefined;
  ratioToBare?: number;
};

/** Waits (up to 30 s) until /healthz answers within 50 ms: the app has drained earlier load. */
async function waitUntilIdle(origin: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const t = performance.now();
    const reply = await send(`${origin}/healthz`).catch(() => undefined);
    if (reply?.status === 200 && performance.now() - t < 50) return;
    await sleep(200);
  }
}

const clockTicks = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * CPU time (user + system, all threads) a process has used, in ms, from
 * /proc; undefined where there is no /proc. Unlike wall-clock figures it
 * does not grow when other processes compete for the CPU.
 */
function cpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 of stat(5), counted from the state field (3).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
  } catch {
    return undefined;
  }
}

async function load(
  target: string,
  url: string,
  headers: Record<string, string>,
  server: ChildProcess,
): Promise<Measurement> {
  const options = { url, connections: config.connections, headers, timeout: 10 };
  process.stdout.write(`  ${target}: warm-up ${config.warmupSeconds} s, `);
  if (config.warmupSeconds > 0) await autocannon({ ...options, duration: config.warmupSeconds });
  process.stdout.write(`measuring ${config.durationSeconds} s... `);
  const cpuBefore = cpuMs(server.pid);
  const wallBefore = performance.now();
  const result: Result = await autocannon({ ...options, duration: config.durationSeconds });
  const cpuAfter = cpuMs(server.pid);
  const wall = performance.now() - wallBefore;
  const cpu = cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined;
  const m: Measurement = {
    target,
    url,
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    latencyMaxMs: result.latency.max,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(
      Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, Number(count)]),
    ),
    serverCpuMsPerRequest:
      cpu !== undefined && result.requests.total > 0 ? cpu / result.requests.total : undefined,
    serverCpuCores: cpu !== undefined ? cpu / wall : undefined,
  };
  console.log(`${m.requestsPerSecond.toFixed(0)} req/s`);
  return m;
}

function printTable(rows: Measurement[]) {
  const header = [
    "target",
    "req/s (avg)",
    "p99 ms",
    "non-2xx",
    "errors",
    "x bare Node",
    "server CPU ms/req",
    "server cores used",
  ];
  const cells = rows.map((r) => [
    r.target,
    r.requestsPerSecond.toFixed(0),
    r.latencyP99Ms.toFixed(0),
    String(r.non2xx),
    String(r.errors),
    r.ratioToBare === undefined ? "" : `${r.ratioToBare.toFixed(2)}x`,
    r.serverCpuMsPerRequest === undefined ? "?" : r.serverCpuMsPerRequest.toFixed(3),
    r.serverCpuCores === undefined ? "?" : r.serverCpuCores.toFixed(2),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? "").length)));
  const line = (c: string[]) =>
    c.map((v, i) => (i === 0 ? v.padEnd(widths[i] ?? 0) : v.padStart(widths[i] ?? 0))).join("  ");
  console.log(`\n${line(header)}`);
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const c of cells) console.log(line(c));
}

// ---------------------------------------------------------------- main

async function main() {
  const started = Date.now();
  console.log(
    `bench: ${config.connections} connections, ${config.warmupSeconds} s warm-up + ${config.durationSeconds} s per target, ` +
      `Accept-Encoding: ${config.acceptEncoding || "(none)"}; node ${process.version}, ${os.cpus().length} CPUs`,
  );

  const loadBefore = os.loadavg()[0] ?? 0;
  if (loadBefore > os.cpus().length * 0.5) {
    console.log(
      `warning: 1-min load average is ${loadBefore.toFixed(1)} on ${os.cpus().length} CPUs before the bench: ` +
        "other processes compete for the CPU and the figures will be low and noisy",
    );
  }
  const app = await startAppServer();
  console.log(`server up at ${app.origin} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  const cookie = await createPaidMember(app.origin);
  console.log("paid member created through /signup, /payment-options and the test checkout");

  const baseHeaders: Record<string, string> = { accept: "text/html,*/*" };
  if (config.acceptEncoding) baseHeaders["accept-encoding"] = config.acceptEncoding;
  const memberHeaders = { ...baseHeaders, cookie };

  const home = await send(`${app.origin}/`, { headers: baseHeaders });
  if (home.status !== 200) throw new BenchError(`GET /: ${replyText(home)}`);
  const dashboard = await send(`${app.origin}/dashboard`, { headers: memberHeaders });
  if (dashboard.status !== 200 || !decodedText(dashboard).includes("Training Area")) {
    throw new BenchError(
      `GET /dashboard as the paid member should be 200 with 'Training Area', got ${replyText(dashboard)}`,
    );
  }

  const courseId = await createCourse(app, 20);
  // The course page names its chapter in the URL: follow the redirect to the first one.
  const opened = await send(`${app.origin}/course/${courseId}`, { headers: memberHeaders });
  const coursePath =
    opened.status === 302 && opened.headers.location
      ? opened.headers.location
      : `/course/${courseId}`;
  const coursePage = await send(`${app.origin}${coursePath}`, { headers: memberHeaders });
  if (
    coursePage.status !== 200 ||
    !decodedText(coursePage).includes("Chapter 20: from idea to launch")
  ) {
    throw new BenchError(`GET ${coursePath} as the member: ${replyText(coursePage)}`);
  }
  console.log("course of 20 chapters written through the admin panel");

  if (profileMode) return profile(app, memberHeaders);

  const scratch = mkdtempSync(path.join(os.tmpdir(), "ailabs-bench-bare-"));
  tempDirs.add(scratch);
  const bare = await startBareServer(
    [capture("/", home), capture("/dashboard", dashboard), capture("/course", coursePage)],
    scratch,
  );

  console.log("load:");
  // Each bare run goes first and every run waits for the app to be idle, so that
  // requests still queued in the app from one run do not slow down the next.
  const settle = () => waitUntilIdle(app.origin);
  await settle();
  const bareHome = await load(
    "public page / (bare Node)",
    `${bare.origin}/`,
    baseHeaders,
    bare.child,
  );
  await settle();
  const appHome = await load("public page / (app)", `${app.origin}/`, baseHeaders, app.child);
  await settle();
  const bareDashboard = await load(
    "dashboard (bare Node)",
    `${bare.origin}/dashboard`,
    memberHeaders,
    bare.child,
  );
  await settle();
  const appDashboard = await load(
    "dashboard (app)",
    `${app.origin}/dashboard`,
    memberHeaders,
    app.child,
  );
  await settle();
  const bareCourse = await load(
    "course page, 20 chapters (bare Node)",
    `${bare.origin}/course`,
    memberHeaders,
    bare.child,
  );
  await settle();
  const appCourse = await load(
    "course page, 20 chapters (app)",
    `${app.origin}${coursePath}`,
    memberHeaders,
    app.child,
  );
  await settle();
  appCourse.ratioToBare = appCourse.requestsPerSecond / bareCourse.requestsPerSecond;
  appHome.ratioToBare = appHome.requestsPerSecond / bareHome.requestsPerSecond;
  appDashboard.ratioToBare = appDashboard.requestsPerSecond / bareDashboard.requestsPerSecond;

  // The session must have held for the whole run (a redirect would be a non-2xx above too).
  const after = await send(`${app.origin}/dashboard`, { headers: memberHeaders });
  if (after.status !== 200)
    throw new BenchError(`GET /dashboard after the run: ${replyText(after)}`);
  if (exited(app.child)) throw new BenchError(`server died:\n${app.output.join("\n")}`);

  const rows = [appHome, bareHome, appDashboard, bareDashboard, appCourse, bareCourse];
  const loadAfter = os.loadavg()[0] ?? 0;
  printTable(rows);

  const checks = [
    {
      name: `public page >= ${targets.publicRatio}x bare Node`,
      actual: `${(appHome.ratioToBare ?? 0).toFixed(2)}x`,
      pass:
        (appHome.ratioToBare ?? 0) >= targets.publicRatio &&
        appHome.non2xx === 0 &&
        appHome.errors === 0,
    },
    {
      name: `dashboard >= ${targets.dashboardRps} req/s`,
      actual: `${appDashboard.requestsPerSecond.toFixed(0)} req/s`,
      pass:
        appDashboard.requestsPerSecond >= targets.dashboardRps &&
        appDashboard.non2xx === 0 &&
        appDashboard.errors === 0,
    },
    {
      name: `dashboard p99 < ${targets.dashboardP99Ms} ms`,
      actual: `${appDashboard.latencyP99Ms.toFixed(0)} ms`,
      pass: appDashboard.latencyP99Ms < targets.dashboardP99Ms,
    },
  ];
  console.log("");
  for (const c of checks) console.log(`${c.pass ? "PASS" : "FAIL"}  ${c.name} (${c.actual})`);
  console.log(`1-min load average: ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after`);
  if (rows.some((r) => r.non2xx > 0 || r.errors > 0)) {
    console.log("note: some requests failed (non-2xx or errors); see the table");
  }

  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, "latest.json");
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model,
        config,
        loadAverage: { before: loadBefore, after: loadAfter },
        responses: {
          "/": replyInfo(home),
          "/dashboard": replyInfo(dashboard),
          "/course/{id}": replyInfo(coursePage),
        },
        results: rows,
        checks,
        runtimeSeconds: (Date.now() - started) / 1000,
      },
      null,
      2,
    )}\n`,
  );
  console.log(
    `\nresults: ${path.relative(rootDir, file)} (${((Date.now() - started) / 1000).toFixed(0)} s)`,
  );
}

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

async function profile(app: AppServer, memberHeaders: Record<string, string>) {
  console.log("profile: dashboard on a server started with --cpu-prof");
  const options = {
    url: `${app.origin}/dashboard`,
    connections: config.connections,
    headers: memberHeaders,
  };
  if (config.warmupSeconds > 0) await autocannon({ ...options, duration: config.warmupSeconds });
  const cpuBefore = cpuMs(app.child.pid);
  const fromUs = nowUs();
  const result = await autocannon({ ...options, duration: config.durationSeconds });
  const toUs = nowUs();
  const cpuAfter = cpuMs(app.child.pid);
  const cpuPerRequest =
    cpuBefore !== undefined && cpuAfter !== undefined && result.requests.total > 0
      ? (cpuAfter - cpuBefore) / result.requests.total
      : undefined;
  console.log(
    `  ${result.requests.average.toFixed(0)} req/s, p99 ${result.latency.p99} ms, ` +
      `${result.requests.total} requests, non-2xx ${result.non2xx}, errors ${result.errors}, ` +
      `server CPU ${cpuPerRequest?.toFixed(2) ?? "?"} ms/request (profiler overhead included)`,
  );
  await stop(app.child, 15_000); // a clean exit writes the profile
  const dir = app.profileDir ?? "";
  const written = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"));
  if (!written[0]) throw new BenchError(`no .cpuprofile written:\n${app.output.join("\n")}`);
  mkdirSync(resultsDir, { recursive: true });
  const kept = path.join(resultsDir, "dashboard.cpuprofile");
  copyFileSync(path.join(dir, written[0]), kept);

  // Only the measured run: start-up (migrations, precompression) and warm-up are left out.
  const span = profileSpan(kept);
  const inSpan = fromUs >= span.fromUs && toUs <= span.toUs;
  const summary = summarizeFile(kept, 25, inSpan ? { fromUs, toUs } : undefined);
  const perRequest =
    inSpan && result.requests.total > 0 ? summary.busyMs / result.requests.total : 0;
  const text = [
    inSpan
      ? `Measured ${config.durationSeconds} s window only: ${result.requests.total} requests, ` +
        `${perRequest.toFixed(2)} ms of non-idle main-thread time per request ` +
        `(${cpuPerRequest?.toFixed(2) ?? "?"} ms of process CPU time from /proc).`
      : "Whole profile (the run's window did not fall inside it).",
    formatSummary(summary),
  ].join("\n");
  writeFileSync(path.join(resultsDir, "dashboard-profile.txt"), `${text}\n`);
  console.log(`\n${text}\n\nprofile: ${path.relative(rootDir, kept)} (open in Chrome DevTools)`);
}

try {
  await main();
  await cleanUp();
} catch (error) {
  console.error(`\nbench failed: ${error instanceof BenchError ? error.message : error}`);
  if (!(error instanceof BenchError) && error instanceof Error) console.error(error.stack);
  for (const [name, output] of outputs) {
    if (output.length > 0)
      console.error(`\nlast output of ${name}:\n${output.slice(-20).join("\n")}`);
  }
  await cleanUp();
  process.exit(1);
}
