/**
 * The product as the bench drives it: the production build started as a
 * child process (on PGlite, or on a throw-away PostgreSQL database), members
 * and a course made through the app's own forms, and the bare node:http
 * server that answers captured bytes.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import type { CapturedResponse } from "./bare-server";
import { CookieJar, expectRedirect, type Reply, replyText, send } from "./http";
import {
  BenchError,
  exited,
  freePort,
  memoryMb,
  onCleanUp,
  removeWhenDone,
  sleep,
  track,
} from "./support";

export const benchDir = path.dirname(fileURLToPath(import.meta.url));
export const rootDir = path.dirname(benchDir);

export type Database =
  | { kind: "PGlite" }
  | { kind: "PostgreSQL"; url: string; authSecret: string; name: string };

export type AppServer = {
  origin: string;
  child: ChildProcess;
  output: string[];
  /** The environment the server runs with; the CLI needs the same database settings. */
  env: NodeJS.ProcessEnv;
  database: Database;
  /** VmRSS right after /readyz first answered (of the primary alone when several processes serve). */
  startRssMb: number | undefined;
  /** Server processes (WEB_CONCURRENCY). */
  processes: number;
  profileDir?: string;
};

/**
 * The production build on a free port. One server process unless `processes`
 * says more (WEB_CONCURRENCY; PostgreSQL only): the modes that compare with
 * bare Node, and the memory reading, measure one process.
 */
export async function startAppServer(
  database: Database,
  options: { profile?: boolean; processes?: number } = {},
): Promise<AppServer> {
  const processes = options.processes ?? 1;
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dir = mkdtempSync(path.join(os.tmpdir(), "ailabs-bench-"));
  removeWhenDone(dir);
  const profileDir = options.profile ? path.join(dir, "profile") : undefined;
  const nodeArgs = profileDir ? ["--cpu-prof", "--cpu-prof-dir", profileDir] : [];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NODE: process.execPath,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: path.join(dir, "data"),
    PUBLIC_ORIGIN: origin,
    // The bench is the proxy: each sign-up names its own client address in X-Forwarded-For.
    TRUSTED_PROXIES: "127.0.0.1",
    // The test checkout makes paid members; no mail leaves the machine.
    TEST_CHECKOUT: "on",
    STRIPE_SECRET_KEY: "",
    STRIPE_PRICE_ID: "",
    STRIPE_WEBHOOK_SECRET: "",
    SMTP_URL: "",
    WEB_CONCURRENCY: String(processes),
    ...(database.kind === "PGlite"
      ? { DATABASE_URL: "", BETTER_AUTH_SECRET: "" }
      : { DATABASE_URL: database.url, BETTER_AUTH_SECRET: database.authSecret }),
  };
  const output: string[] = [];
  const child = track(
    // Started as `npm run serve` starts it (bin/serve execs node: the pid is the server's).
    spawn("sh", ["bin/serve", ...nodeArgs], {
      cwd: rootDir,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    }),
    `server (${database.kind})`,
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
      const reply = await send(`${origin}/readyz`);
      if (reply.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      throw new BenchError(`server was not ready (/readyz) within 30 s:\n${output.join("\n")}`);
    }
    await sleep(100);
  }
  const startRssMb = memoryMb(child.pid)?.rssMb;
  return { origin, child, output, env, database, startRssMb, processes, profileDir };
}

/**
 * A fresh database in the cluster of `url` (connecting to the URL as given),
 * dropped at clean-up, also when the bench fails.
 */
export async function createThrowawayDatabase(url: string): Promise<Database> {
  const name = `bench_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  onCleanUp(async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`drop database if exists ${name} with (force)`);
    } finally {
      await client.end();
    }
  });
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    kind: "PostgreSQL",
    url: target.toString(),
    authSecret: randomBytes(32).toString("base64url"),
    name,
  };
}

/** A form POST as a page's <form> sends it without JavaScript: same origin, no redirects followed. */
async function postForm(
  origin: string,
  jar: CookieJar,
  pathname: string,
  form: Record<string, string>,
  clientAddress?: string,
): Promise<Reply> {
  const reply = await send(`${origin}${pathname}`, {
    method: "POST",
    headers: {
      origin,
      "content-type": "application/x-www-form-urlencoded",
      ...(jar.header() ? { cookie: jar.header() } : {}),
      ...(clientAddress ? { "x-forwarded-for": clientAddress } : {}),
    },
    body: new URLSearchParams(form).toString(),
  });
  jar.take(reply);
  return reply;
}

/**
 * Sign-up, checkout and test payment through the app's own forms. Returns the
 * Cookie header. Each member signs up from an address of its own in
 * 198.19.0.0/16 (the bench is the trusted proxy), as a class of people does,
 * so the per-address sign-up limit counts each of them once.
 */
export async function createPaidMember(origin: string, name = "Bench Member"): Promise<string> {
  const jar = new CookieJar();
  const address = `198.19.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
  const signup = await postForm(
    origin,
    jar,
    "/signup",
    { name, email: `bench-${randomUUID()}@example.test`, password: "correct horse battery staple" },
    address,
  );
  expectRedirect(signup, "POST /signup", /^\/payment-options$/);
  if (!jar.has("session_token")) {
    throw new BenchError(`POST /signup set no session cookie: ${replyText(signup)}`);
  }

  const checkout = expectRedirect(
    await postForm(origin, jar, "/payment-options", { productId: "lifetime-access" }),
    "POST /payment-options",
    /^(https?:\/\/[^/]+)?\/checkout\/test\/[^/?#]+$/,
  );
  const checkoutPath = new URL(checkout, origin).pathname;
  const page = await send(`${origin}${checkoutPath}`, { headers: { cookie: jar.header() } });
  if (page.status !== 200) throw new BenchError(`GET ${checkoutPath}: ${replyText(page)}`);

  expectRedirect(
    await postForm(origin, jar, checkoutPath, { intent: "pay" }),
    `POST ${checkoutPath}`,
    /\/success$/,
  );
  return jar.header();
}

/**
 * A course of `chapters` chapters, written through the admin panel by an
 * admin made with the operator CLI (which reaches the running server's
 * database: PGlite through its socket, PostgreSQL directly). Returns the
 * course id.
 */
export async function createCourse(
  app: AppServer,
  chapters: number,
): Promise<{ courseId: string; adminCookie: string }> {
  const jar = new CookieJar();
  const email = `bench-admin-${randomUUID()}@example.test`;
  const post = (pathname: string, form: Record<string, string>) =>
    postForm(app.origin, jar, pathname, form);
  expectRedirect(
    await post("/signup", { name: "Bench Admin", email, password: "correct horse battery staple" }),
    "POST /signup (admin)",
    /^\/payment-options$/,
  );
  runCli(app, "admin", "grant", email);
  const created = expectRedirect(
    await post("/admin/courses", {
      intent: "create-course",
      title: "Bench course",
      description: "Twenty chapters of text, a list and a video each.",
    }),
    "POST /admin/courses create-course",
    /^\/admin\/courses\?course=[0-9a-f-]{36}$/,
  );
  const courseId = created.slice("/admin/courses?course=".length);
  const paragraph =
    "<p>Write the prompt, build the app, ship it and tell people about it. </p>".repeat(6);
  for (let i = 1; i <= chapters; i++) {
    const reply = await post("/admin/courses", {
      intent: "create-chapter",
      courseId,
      title: `Chapter ${i}: from idea to launch`,
      content: `<h2>Step ${i}</h2>${paragraph}<ul><li>One</li><li>Two</li><li>Three</li></ul><iframe src="https://www.youtube.com/watch?v=dQw4w9WgXcQ"></iframe>`,
    });
    // The admin panel answers a saved chapter with a redirect back to the course.
    expectRedirect(reply, "POST /admin/courses create-chapter", /^\/admin\/courses\?/);
  }
  return { courseId, adminCookie: jar.header() };
}

/** `npm run cli -- ARGS` against the running server's database; its standard output. */
export function runCli(app: AppServer, ...args: string[]): string {
  try {
    return execFileSync(process.execPath, ["--import", "tsx", "cli.ts", ...args], {
      cwd: rootDir,
      env: { ...app.env, LOG_LEVEL: "warn" },
      stdio: "pipe",
      timeout: 600_000,
    }).toString();
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? "";
    throw new BenchError(`cli ${args.join(" ")} failed: ${stderr || error}`);
  }
}

export type BareServer = { origin: string; child: ChildProcess };

/**
 * bench/bare-server.ts answering `fixtures` (each at its `path`), in a child
 * process; `processes` of them sharing the port (mode 7).
 */
export async function startBareServer(
  fixtures: CapturedResponse[],
  processes = 1,
): Promise<BareServer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ailabs-bench-bare-"));
  removeWhenDone(dir);
  const file = path.join(dir, "fixtures.json");
  writeFileSync(file, JSON.stringify(fixtures));
  const output: string[] = [];
  const child = track(
    spawn(process.execPath, ["--import", "tsx", path.join(benchDir, "bare-server.ts"), file], {
      cwd: rootDir,
      env: { ...process.env, BARE_PROCESSES: String(processes) },
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
