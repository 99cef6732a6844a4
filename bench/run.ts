/**
 * Load test of the production build, beside a bare node:http server that
 * answers the same bytes. Run with `npm run bench` (builds first). Every
 * request goes over HTTP to build/server/index.js started as a child process
 * (NODE_ENV=production, a free port, a fresh DATA_DIR, TRUSTED_PROXIES=127.0.0.1).
 *
 * Set-up, through the app's own forms: a paid member (sign-up, plan, test
 * checkout), a course of 20 chapters written in the admin panel by an admin
 * made with the operator CLI, and BENCH_WRITERS more paid members who write.
 * Chromium (/usr/bin/chromium, never a downloaded one) then opens the course
 * page as one of them, clicks "Mark as complete" and its undo, and records
 * what the hydrated page sends (browser-capture.ts): that is what each write
 * below replays.
 *
 * Modes (autocannon, BENCH_CONNECTIONS connections, warm-up then measured run):
 * 1. public: each of publicPagePaths (app/route-policies.ts), /login,
 *    /signup and /forgot-password without a cookie, and the bare server
 *    answering the bytes the app sent; target: every page >= 0.7x bare.
 * 2. idle: the dashboard and the course page (20 chapters) as the member,
 *    nobody writing; target >= 2,000 req/s and p99 < 100 ms each.
 * 3. writers: the same while the writers click "Mark as complete" / undo
 *    BENCH_WRITE_RATE times a second in all (open loop: pacer.ts, its own
 *    process), each on another chapter, so every write changes a row;
 *    target >= 2,000 req/s and p99 < 100 ms, every write succeeds and at
 *    least 95% of the planned rate is achieved.
 * 4. signups: the same while BENCH_SIGNUP_RATE accounts a second are offered
 *    (POST /signup, fresh e-mail, own X-Forwarded-For address in
 *    198.18.0.0/15), more than the hashing capacity (decision 026); target
 *    >= 1,000 req/s and p99 < 250 ms, every sign-up answers 302 to
 *    /payment-options or 503 busy with Retry-After, p99 < 1.5 s (max
 *    printed), >= 1.5 signed up a second.
 * 4a. costs: one writing member, one request at a time, BENCH_COSTS_LOOPS
 *    (300) loops of "Mark as complete" (or its undo), their chapter and
 *    dashboard (both rendered: the mark changed them) and the chapter again
 *    (kept): each kind's CPU on the server's main thread, from
 *    /proc/<pid>/task/<pid>/schedstat, and on PostgreSQL the transactions a
 *    loop (bench/costs.ts). No target: it says where mode 4b's CPU goes.
 * 4b. class: BENCH_CLASS_MEMBERS (300) distinct paying members made through
 *    the forms, each looping dashboard, a chapter, "Mark as complete" (or its
 *    undo) with a random pause of mean BENCH_CLASS_PAUSE ms between steps,
 *    for BENCH_CLASS_DURATION s (bench/class.ts); target: >= 93% of
 *    N / pause req/s served, p99 < 200 ms over the whole run, none turned
 *    away, failed or lost. Printed: p99 after the first quarter, server CPU
 *    per request.
 * 4c. overload: the same with BENCH_OVERLOAD_MEMBERS (1000), beyond the
 *    server's capacity; target: no request waits over 2 s (the rest are
 *    answered 503 with Retry-After), none failed, every write answered 2xx
 *    stored. The memory reading (5) comes after it.
 * 5. memory: the server's VmRSS right after start and after all the load
 *    (after BENCH_SETTLE seconds); target <= 300 MB on PGlite, <= 200 MB on
 *    PostgreSQL.
 * 6. admin: the owner's console with 20,000 members and 50,000 purchases
 *    (bench/admin.ts), after the memory reading; target p95 < 150 ms a page,
 *    the CSV downloads streamed, a member's p99 < 250 ms while heavy reports
 *    run, a broadcast to every member queued in < 5 s and a member's p99 <
 *    250 ms while it sends.
 * 7. cores (PostgreSQL only): the dashboard and the course page as in mode 2,
 *    on a server of 1 process and then on one of 2 (WEB_CONCURRENCY), each
 *    started afresh on the same database after the other modes' server has
 *    stopped; target: 2 processes >= 1.6x the req/s of 1, on each page.
 *    Load from wrk (bench/wrk.ts) when installed. Reported beside it: the same
 *    with each server process held to BENCH_CORE_SHARE of a core
 *    (bench/cpu-quota.ts, root only), and bare Node with 1 and 2 processes.
 *    Every other mode runs one server process (WEB_CONCURRENCY=1).
 *
 * PGlite always runs (DATABASE_URL="" for its server, and for the build that
 * `npm run bench` makes first: prerendering needs no server). When DATABASE_URL is
 * set in the bench's environment, modes 2 to 5 run again on a second server
 * whose DATABASE_URL is a fresh database bench_<random> created in that
 * cluster (dropped with (force) at the end, also on failure), with a
 * generated BETTER_AUTH_SECRET.
 *
 * Prints one table and one PASS/FAIL list, and writes bench/results/latest.json.
 * Targets are reported, not enforced: the exit code is 0 unless the bench
 * itself broke.
 *
 * `npm run bench -- --profile` instead runs only the dashboard (nobody
 * writing) against a PGlite server started with `node --cpu-prof` and prints
 * where its CPU time went; `--profile=writers` does so while the writers
 * write; `--profile=class` while mode 4b's members work, with the CPU split
 * into rendering, the database and the rest. The profile is kept in
 * bench/results/. With BENCH_DATABASES=postgres (and DATABASE_URL) the
 * profiled server is on PostgreSQL.
 *
 * Environment (seconds unless said):
 *   BENCH_DURATION (10) and BENCH_WARMUP (2): member pages, each run.
 *   BENCH_PUBLIC_DURATION (3) and BENCH_PUBLIC_WARMUP (1): each public page, app and bare,
 *   in BENCH_PUBLIC_ROUNDS (2) alternating rounds; each side's best round counts.
 *   BENCH_CONNECTIONS (100).
 *   BENCH_ACCEPT_ENCODING ("gzip, deflate, br", as a browser sends; empty for none).
 *   BENCH_WRITERS (10) members writing, BENCH_WRITE_RATE (50) writes a second in all.
 *   BENCH_SIGNUP_RATE (10) sign-ups a second.
 *   BENCH_SETTLE (5): wait before the last memory reading.
 *   BENCH_MODES (public,idle,writers,signups,costs,class,overload,admin,cores): the modes to run (memory is always read).
 *   BENCH_COSTS_LOOPS (300): mode 4a.
 *   BENCH_CLASS_MEMBERS (300), BENCH_OVERLOAD_MEMBERS (1000), BENCH_CLASS_PAUSE (1000 ms),
 *   BENCH_CLASS_DURATION (40): modes 4b and 4c.
 *   BENCH_DEMO_MEMBERS (20000), BENCH_DEMO_PURCHASES (50000), BENCH_ADMIN_REQUESTS (40),
 *   BENCH_BROADCAST_SECONDS (30: a member reads while a broadcast to every member sends): mode 6.
 *   BENCH_CHROMIUM (/usr/bin/chromium).
 *   BENCH_CORE_SHARE (0.5): mode 7's held runs. BENCH_CORES_LOADGEN (wrk when installed, else
 *   autocannon), BENCH_WRK (wrk): mode 7's load generator.
 *   DATABASE_URL: also run on PostgreSQL (see above).
 *   BENCH_DATABASES ("all"): "postgres" runs the PostgreSQL server alone, PGlite's left out
 *   (with DATABASE_URL; mode 2's comparison with bare Node is PGlite's, so it has none then).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { publicPagePaths } from "../app/route-policies";
import { adminConfig, adminMode, adminTargets } from "./admin";
import {
  type AppServer,
  type BareServer,
  createCourse,
  createPaidMember,
  createThrowawayDatabase,
  type Database,
  rootDir,
  startAppServer,
  startBareServer,
} from "./app-server";
import { type Capture, ChromiumUnavailable, captureWriteTemplate } from "./browser-capture";
import { type ClassJob, createMembers, describeClass, runClass } from "./class";
import { costKinds, describeCosts, runCosts } from "./costs";
import { holdToCoreShare } from "./cpu-quota";
import { capture, decodedText, type Reply, replyInfo, replyText, send } from "./http";
import { load, type Measurement, waitUntilIdle } from "./load";
import { startPaced } from "./paced";
import type { PacedJob, PacedStats } from "./pacer";
import { profile, summariseProfile } from "./profile";
import { type Check, loadRow, pacedRow, printChecks, printTable, type Row } from "./report";
import {
  BenchError,
  childPids,
  cleanUp,
  exited,
  installExitHandlers,
  memoryMb,
  numberFromEnv,
  outputs,
  sleep,
  stop,
} from "./support";
import { builtInTemplate, describeTemplate, type WriteTemplate } from "./write-request";
import { wrkAvailable, wrkLoad } from "./wrk";

const benchDir = path.join(rootDir, "bench");
const resultsDir = path.join(benchDir, "results");

const allModes = [
  "public",
  "idle",
  "writers",
  "signups",
  "costs",
  "class",
  "overload",
  "admin",
  "cores",
] as const;
type Mode = (typeof allModes)[number];

const config = {
  connections: numberFromEnv("BENCH_CONNECTIONS", 100),
  durationSeconds: numberFromEnv("BENCH_DURATION", 10),
  warmupSeconds: numberFromEnv("BENCH_WARMUP", 2),
  publicDurationSeconds: numberFromEnv("BENCH_PUBLIC_DURATION", 3),
  publicRounds: numberFromEnv("BENCH_PUBLIC_ROUNDS", 2),
  publicWarmupSeconds: numberFromEnv("BENCH_PUBLIC_WARMUP", 1),
  acceptEncoding: process.env.BENCH_ACCEPT_ENCODING ?? "gzip, deflate, br",
  writers: numberFromEnv("BENCH_WRITERS", 10),
  writesPerSecond: numberFromEnv("BENCH_WRITE_RATE", 50),
  signupsPerSecond: numberFromEnv("BENCH_SIGNUP_RATE", 10),
  classMembers: numberFromEnv("BENCH_CLASS_MEMBERS", 300),
  costsLoops: numberFromEnv("BENCH_COSTS_LOOPS", 300),
  /** BENCH_DATABASES=postgres: only the PostgreSQL run (DATABASE_URL), PGlite's left out. */
  postgresOnly: process.env.BENCH_DATABASES === "postgres",
  overloadMembers: numberFromEnv("BENCH_OVERLOAD_MEMBERS", 1000),
  classPauseMs: numberFromEnv("BENCH_CLASS_PAUSE", 1000),
  classSeconds: numberFromEnv("BENCH_CLASS_DURATION", 40),
  settleSeconds: numberFromEnv("BENCH_SETTLE", 5),
  modes: (process.env.BENCH_MODES || allModes.join(","))
    .split(",")
    .map((m) => m.trim())
    .filter(Boolean) as Mode[],
  postgres: Boolean(process.env.DATABASE_URL),
  /** Mode 7: the share of a core each server process is held to in the held runs. */
  coreShare: numberFromEnv("BENCH_CORE_SHARE", 0.5),
};

const targets = {
  publicRatio: 0.7,
  idle: { requestsPerSecond: 2000, p99Ms: 100 },
  writers: { requestsPerSecond: 2000, p99Ms: 100 },
  // Decision 026: sign-ups past the hashing capacity are turned away "busy" at once.
  signups: { requestsPerSecond: 1000, p99Ms: 250, signupP99Ms: 1500, signedUpPerSecond: 1.5 },
  /** Paced work must reach this share of its planned rate. */
  pacedShare: 0.95,
  rssMb: { PGlite: 300, PostgreSQL: 200 } as Record<Database["kind"], number>,
  admin: adminTargets,
  /** Mode 7: member pages' req/s with 2 server processes over 1. */
  coresRatio: 1.6,
  /** Mode 4b: every offered request served (>= 93% of N per pause), p99 over the whole run. */
  class: { servedShare: 0.93, p99Ms: 200 },
  /** Mode 4c: nobody waits longer than this; the rest are turned away 503 with Retry-After. */
  overload: { maxMs: 2000 },
};

/** Mode 7's load generator: wrk when installed (BENCH_CORES_LOADGEN=autocannon to compare). */
const coresGenerator: "wrk" | "autocannon" =
  process.env.BENCH_CORES_LOADGEN === "autocannon" || !wrkAvailable() ? "autocannon" : "wrk";

const profileArg = process.argv.find((a) => a === "--profile" || a.startsWith("--profile="));
const profileMode = profileArg ? (profileArg.split("=")[1] ?? "idle") : undefined;

const rows: Row[] = [];
const checks: Check[] = [];
const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
const modeLabel: Record<Mode, string> = {
  public: "1 public",
  idle: "2 idle",
  writers: "3 writers",
  signups: "4 sign-ups",
  costs: "4a costs",
  class: "4b class",
  overload: "4c overload",
  admin: "6 admin",
  cores: "7 cores",
};

// ---------------------------------------------------------------- set-up

type Site = {
  app: AppServer;
  /** Headers of the measured member's requests (cookie included). */
  memberHeaders: Record<string, string>;
  courseId: string;
  /** The course page as the member opens it: /course/{id}?chapter={first}. */
  coursePath: string;
  firstChapterId: string;
  /** The course's last chapter: there "Mark as complete" stays on the page (elsewhere it moves on). */
  lastChapterId: string;
  dashboard: Reply;
  coursePage: Reply;
  writerCookies: string[];
  /** The bench admin's Cookie header (it wrote the course). */
  adminCookie: string;
};

const baseHeaders: Record<string, string> = { accept: "text/html,*/*" };
if (config.acceptEncoding) baseHeaders["accept-encoding"] = config.acceptEncoding;

async function setUp(database: Database, options: { profile?: boolean } = {}): Promise<Site> {
  const label = database.kind;
  const app = await startAppServer(database, options);
  console.log(
    `[${label}] server up at ${app.origin}, RSS ${app.startRssMb?.toFixed(0) ?? "?"} MB (${elapsed()})`,
  );
  const cookie = await createPaidMember(app.origin);
  const memberHeaders = { ...baseHeaders, cookie };
  const dashboard = await send(`${app.origin}/dashboard`, { headers: memberHeaders });
  if (dashboard.status !== 200 || !decodedText(dashboard).includes("Training Area")) {
    throw new BenchError(
      `GET /dashboard as the paid member should be 200 with 'Training Area', got ${replyText(dashboard)}`,
    );
  }
  const { courseId, adminCookie } = await createCourse(app, 20);
  // The course page names its chapter in the URL: follow the redirect to the first one.
  const opened = await send(`${app.origin}/course/${courseId}`, { headers: memberHeaders });
  const coursePath =
    opened.status === 302 && opened.headers.location
      ? opened.headers.location
      : `/course/${courseId}`;
  const firstChapterId = new URL(coursePath, app.origin).searchParams.get("chapter") ?? "";
  const coursePage = await send(`${app.origin}${coursePath}`, { headers: memberHeaders });
  if (
    coursePage.status !== 200 ||
    !firstChapterId ||
    !decodedText(coursePage).includes("Chapter 20: from idea to launch")
  ) {
    throw new BenchError(`GET ${coursePath} as the member: ${replyText(coursePage)}`);
  }
  // The chapter list names every chapter in order before any other chapter link.
  const chapterIds = new Set(
    [...decodedText(coursePage).matchAll(/\?chapter=([0-9a-f-]{36})/g)].map((m) => m[1] as string),
  );
  const lastChapterId = [...chapterIds].at(-1) ?? firstChapterId;
  // The writers, or one member to record a write with for the class modes.
  const needWriters = options.profile
    ? profileMode === "writers" || profileMode === "class"
    : needsWriteTemplate();
  const writerCookies: string[] = [];
  for (let i = 0; needWriters && i < config.writers; i++) {
    writerCookies.push(await createPaidMember(app.origin, `Bench Writer ${i + 1}`));
  }
  console.log(
    `[${label}] paid member, course of 20 chapters and ${writerCookies.length} writing members created through the app's forms (${elapsed()})`,
  );
  return {
    app,
    memberHeaders,
    courseId,
    coursePath,
    firstChapterId,
    lastChapterId,
    dashboard,
    coursePage,
    writerCookies,
    adminCookie,
  };
}

/** What a click on "Mark as complete" sends, recorded from Chromium (or the built-in copy if it cannot start). */
async function learnWrite(site: Site): Promise<{ template: WriteTemplate; capture?: Capture }> {
  const cookie = site.writerCookies[0];
  if (!cookie) throw new BenchError("no writing member to capture a write with");
  try {
    const captured = await captureWriteTemplate({
      origin: site.app.origin,
      cookie,
      courseId: site.courseId,
      chapterId: site.lastChapterId,
    });
    console.log(`a click on "Mark as complete" in Chromium sent (${elapsed()}):`);
    for (const line of describeTemplate(captured.template)) console.log(`  ${line}`);
    return { template: captured.template, capture: captured };
  } catch (error) {
    if (!(error instanceof ChromiumUnavailable)) throw error;
    const why = `Chromium could not be started: ${error.message.split("\n")[0]}`;
    console.log(`warning: ${why}; the writers replay the built-in copy of the requests`);
    return { template: builtInTemplate(why) };
  }
}

// ---------------------------------------------------------------- modes

/** A member page: its name in the report, its URL on the app and its path on the bare server. */
type Page = { name: string; url: string; barePath: string };

async function measure(
  label: string,
  url: string,
  headers: Record<string, string>,
  server: AppServer | BareServer,
  origin: string,
  options: {
    public?: boolean;
    onMeasure?: () => void;
    noSettle?: boolean;
    generator?: "autocannon" | "wrk";
  } = {},
): Promise<Measurement> {
  // Requests still queued in the app from the last run must not slow this one down.
  if (!options.noSettle) await waitUntilIdle(origin);
  const warmupSeconds = options.public ? config.publicWarmupSeconds : config.warmupSeconds;
  const durationSeconds = options.public ? config.publicDurationSeconds : config.durationSeconds;
  process.stdout.write(`  ${label}: ${warmupSeconds} + ${durationSeconds} s... `);
  const m = await (options.generator === "wrk" ? wrkLoad : load)({
    url,
    headers,
    server: server.child,
    connections: config.connections,
    warmupSeconds,
    durationSeconds,
    onMeasure: options.onMeasure,
  });
  console.log(
    `${m.requestsPerSecond.toFixed(0)} req/s, p99 ${m.latencyP99Ms.toFixed(0)} ms, ${m.requests} requests${failedText(m)}`,
  );
  return m;
}

const publicPages = [...publicPagePaths, "/login", "/signup", "/forgot-password"];

/** Every answer 2xx, no error or timeout, and at least one request completed in the window. */
const loadPasses = (m: Measurement) => m.non2xx === 0 && m.errors === 0 && m.requests > 0;
const failedText = (m: Measurement) =>
  m.requests === 0
    ? ", no request completed"
    : loadPasses(m)
      ? ""
      : `, ${m.non2xx} non-2xx (${statusText(m)}), ${m.errors} errors (${m.timeouts} timeouts)`;
/** The answers that were not 2xx, by status: "503 x31, 500 x2". */
const statusText = (m: Measurement) =>
  Object.entries(m.statusCodes)
    .filter(([status]) => !status.startsWith("2"))
    .map(([status, count]) => `${status} x${count}`)
    .join(", ") || "none";

async function publicMode(site: Site) {
  console.log(`[PGlite] ${modeLabel.public}: ${publicPages.length} pages, app and bare Node`);
  const replies = new Map<string, Reply>();
  for (const pathname of publicPages) {
    const reply = await send(`${site.app.origin}${pathname}`, { headers: baseHeaders });
    if (reply.status !== 200) throw new BenchError(`GET ${pathname}: ${replyText(reply)}`);
    replies.set(pathname, reply);
  }
  const bare = await startBareServer([...replies].map(([p, reply]) => capture(p, reply)));
  // Short runs on a shared machine are noisy: bare and app take turns, and each keeps its best.
  const best = (runs: Measurement[]) =>
    runs.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
  for (const pathname of publicPages) {
    const bareRuns: Measurement[] = [];
    const appRuns: Measurement[] = [];
    for (let round = 1; round <= config.publicRounds; round++) {
      bareRuns.push(
        await measure(
          `${pathname} (bare Node, round ${round})`,
          `${bare.origin}${pathname}`,
          baseHeaders,
          bare,
          site.app.origin,
          { public: true },
        ),
      );
      appRuns.push(
        await measure(
          `${pathname} (app, round ${round})`,
          `${site.app.origin}${pathname}`,
          baseHeaders,
          site.app,
          site.app.origin,
          { public: true },
        ),
      );
    }
    const bareRun = best(bareRuns);
    // Every round of the app must have answered cleanly (a failed one is reported); else its best.
    const appRun = appRuns.find((m) => !loadPasses(m)) ?? best(appRuns);
    const row = loadRow("PGlite", modeLabel.public, pathname, appRun, bareRun);
    rows.push(row);
    checks.push({
      target: `[PGlite] ${modeLabel.public}: ${pathname} >= ${targets.publicRatio}x bare Node`,
      measured: `${row.ratioToBare?.toFixed(2)}x: ${appRun.requestsPerSecond.toFixed(0)} vs ${bareRun.requestsPerSecond.toFixed(0)} req/s${failedText(appRun)}`,
      pass: (row.ratioToBare ?? 0) >= targets.publicRatio && loadPasses(appRun),
    });
  }
  await stop(bare.child);
  return Object.fromEntries([...replies].map(([p, reply]) => [p, replyInfo(reply)]));
}

function memberPages(site: Site): Page[] {
  return [
    { name: "/dashboard", url: `${site.app.origin}/dashboard`, barePath: "/dashboard" },
    {
      name: "course page (20 chapters)",
      url: `${site.app.origin}${site.coursePath}`,
      barePath: "/course",
    },
  ];
}

/** Bare Node's req/s for the member pages, measured in mode 2, shown beside modes 3 and 4 too. */
const bareMember = new Map<string, Measurement>();

async function idleMode(site: Site) {
  const label = site.app.database.kind;
  console.log(`[${label}] ${modeLabel.idle}: member pages, nobody writing`);
  const bare =
    label === "PGlite"
      ? await startBareServer([
          capture("/dashboard", site.dashboard),
          capture("/course", site.coursePage),
        ])
      : undefined;
  for (const page of memberPages(site)) {
    if (bare) {
      bareMember.set(
        page.name,
        await measure(
          `${page.name} (bare Node)`,
          `${bare.origin}${page.barePath}`,
          site.memberHeaders,
          bare,
          site.app.origin,
        ),
      );
    }
    const m = await measure(page.name, page.url, site.memberHeaders, site.app, site.app.origin);
    rows.push(loadRow(label, modeLabel.idle, page.name, m, bareMember.get(page.name)));
    pageChecks(label, modeLabel.idle, page.name, m, targets.idle, "", { ok: true, text: "" });
  }
  if (bare) await stop(bare.child);
}

/** Two checks for a member page: req/s and p99; both also need the background work's verdict. */
function pageChecks(
  label: string,
  mode: string,
  page: string,
  m: Measurement,
  target: { requestsPerSecond: number; p99Ms: number },
  condition: string,
  background: { ok: boolean; text: string },
) {
  const { ok, text } = background;
  checks.push(
    {
      target: `[${label}] ${mode}: ${page} >= ${target.requestsPerSecond} req/s${condition}`,
      measured: `${m.requestsPerSecond.toFixed(0)} req/s${failedText(m)}${text}`,
      pass: m.requestsPerSecond >= target.requestsPerSecond && loadPasses(m) && ok,
    },
    {
      target: `[${label}] ${mode}: ${page} p99 < ${target.p99Ms} ms at ${config.connections} connections${condition}`,
      measured: `${m.latencyP99Ms.toFixed(0)} ms${failedText(m)}${text}`,
      pass: m.latencyP99Ms < target.p99Ms && loadPasses(m) && ok,
    },
  );
}

/** The member pages under paced background work (writers or sign-ups), one pacer per page. */
async function pacedMode(site: Site, mode: "writers" | "signups", job: () => PacedJob) {
  const label = site.app.database.kind;
  const what =
    mode === "writers"
      ? `${config.writesPerSecond} writes/s by ${config.writers} other members`
      : `${config.signupsPerSecond} sign-ups/s`;
  console.log(`[${label}] ${modeLabel[mode]}: member pages while ${what}`);
  const target = mode === "writers" ? targets.writers : targets.signups;
  for (const page of memberPages(site)) {
    await waitUntilIdle(site.app.origin);
    const paced = await startPaced(job());
    const m = await measure(page.name, page.url, site.memberHeaders, site.app, site.app.origin, {
      onMeasure: () => paced.mark(),
      noSettle: true,
    });
    const stats = await paced.stop();
    const w = stats.window;
    const workName = mode === "writers" ? "writes" : "sign-ups";
    console.log(
      `    ${workName}: ${w.perSecond.toFixed(1)}/s achieved of ${stats.targetPerSecond} planned, ` +
        `p50 ${w.p50Ms.toFixed(0)} ms, p99 ${w.p99Ms.toFixed(0)} ms, max ${w.maxMs.toFixed(0)} ms, ` +
        `${w.turnedAway} turned away busy, ` +
        `${stats.failed} of ${stats.issued} failed${stats.failures[0] ? ` (first: ${stats.failures[0]})` : ""}`,
    );
    rows.push(
      loadRow(
        label,
        modeLabel[mode],
        page.name,
        m,
        bareMember.get(page.name),
        "CPU includes the background work",
      ),
    );
    rows.push(pacedRow(label, modeLabel[mode], `  ${workName} during ${page.name}`, stats));
    const condition =
      mode === "writers"
        ? ` while ${config.writesPerSecond} writes/s`
        : ` while ${config.signupsPerSecond} sign-ups/s`;
    pageChecks(label, modeLabel[mode], page.name, m, target, condition, pacedVerdict(stats));
    checks.push({
      target: `[${label}] ${modeLabel[mode]}: ${workName} during ${page.name}: none fails, >= ${enoughPerSecond(stats).toFixed(1)}/s achieved`,
      measured: `${stats.failed} of ${stats.issued} failed, ${w.perSecond.toFixed(1)}/s, ${w.turnedAway} turned away busy, p99 ${w.p99Ms.toFixed(0)} ms`,
      pass: stats.failed === 0 && w.perSecond >= enoughPerSecond(stats),
    });
    if (mode === "signups") {
      checks.push({
        target: `[${label}] ${modeLabel[mode]}: every sign-up answered (302, or 503 busy) with p99 < ${targets.signups.signupP99Ms} ms during ${page.name}`,
        measured: `p50 ${w.p50Ms.toFixed(0)} ms, p99 ${w.p99Ms.toFixed(0)} ms, max ${w.maxMs.toFixed(0)} ms`,
        pass: w.p99Ms < targets.signups.signupP99Ms && stats.failed === 0,
      });
    }
  }
}

/**
 * How much background work must get done: nearly all the writes planned;
 * the sign-ups the hashing capacity allows (decision 026: more are offered).
 */
function enoughPerSecond(stats: PacedStats): number {
  return stats.kind === "writes"
    ? targets.pacedShare * stats.targetPerSecond
    : Math.min(targets.signups.signedUpPerSecond, targets.pacedShare * stats.targetPerSecond);
}

/** A page's row fails with its background work: any failure, or too little of it done. */
function pacedVerdict(stats: PacedStats): { ok: boolean; text: string } {
  const w = stats.window;
  const ok = stats.failed === 0 && w.perSecond >= enoughPerSecond(stats);
  const name = stats.kind === "writes" ? "writes" : "sign-ups";
  return {
    ok,
    text: `; ${name} ${w.perSecond.toFixed(1)}/s, ${stats.failed} failed`,
  };
}

/** `--profile=class`: mode 4b on a server started with --cpu-prof, and where its CPU went. */
async function profileClass(site: Site, template: WriteTemplate) {
  const cookies = await classMembers(site, config.classMembers);
  await waitUntilIdle(site.app.origin);
  console.log(`profile: ${cookies.length} members for ${config.classSeconds} s (--cpu-prof)`);
  const stats = await runClass(classJob(site, template, cookies));
  console.log(`  ${describeClass(stats)} (profiler overhead included)`);
  const requests = stats.served + stats.turnedAway + stats.failed;
  await summariseProfile({
    app: site.app,
    name: "class",
    resultsDir,
    window: stats.window,
    requests,
    headline: (perRequest) =>
      `Measured ${stats.seconds.toFixed(0)} s of ${stats.members} members only: ${requests} requests ` +
      `(a third of them writes), ${perRequest.toFixed(2)} ms of non-idle main-thread time per request ` +
      `(${stats.serverCpuMsPerRequest?.toFixed(2) ?? "?"} ms of process CPU time from /proc).`,
  });
}

/** Whether a mode replays "Mark as complete" (and so needs it recorded from Chromium). */
function needsWriteTemplate(): boolean {
  return ["writers", "costs", "class", "overload"].some((m) => config.modes.includes(m as Mode));
}

/** The members of the class modes, made through the forms once per server and shared. */
const classCookies = new Map<Site, string[]>();

async function classMembers(site: Site, count: number): Promise<string[]> {
  const have = classCookies.get(site) ?? [];
  if (have.length < count) {
    const from = Date.now();
    have.push(...(await createMembers(site.app.origin, count - have.length)));
    console.log(
      `[${site.app.database.kind}] ${have.length} class members made through the forms in ${((Date.now() - from) / 1000).toFixed(0)} s`,
    );
  }
  classCookies.set(site, have);
  return have.slice(0, count);
}

function classJob(site: Site, template: WriteTemplate, cookies: string[]): ClassJob {
  return {
    origin: site.app.origin,
    serverPid: site.app.child.pid,
    courseId: site.courseId,
    chapterId: site.firstChapterId,
    template,
    cookies,
    pauseMs: config.classPauseMs,
    durationSeconds: config.classSeconds,
    headers: baseHeaders,
  };
}

/**
 * Modes 4b and 4c: N distinct members, each looping dashboard, chapter,
 * "Mark as complete" with a random pause (bench/class.ts).
 */
async function classMode(site: Site, template: WriteTemplate, mode: "class" | "overload") {
  const label = site.app.database.kind;
  const count = mode === "class" ? config.classMembers : config.overloadMembers;
  const cookies = await classMembers(site, count);
  await waitUntilIdle(site.app.origin);
  console.log(`[${label}] ${modeLabel[mode]}: ${count} members for ${config.classSeconds} s...`);
  const stats = await runClass(classJob(site, template, cookies));
  console.log(`    ${describeClass(stats)}`);
  const name = `${count} members, pause ${config.classPauseMs} ms`;
  rows.push({
    server: label,
    mode: modeLabel[mode],
    page: name,
    perSecond: stats.servedPerSecond,
    p99Ms: stats.whole.p99Ms,
    failed: stats.failed,
    cpuMsPerRequest: stats.serverCpuMsPerRequest,
    note: `offered ${stats.offeredPerSecond.toFixed(0)}/s; p99 after the first quarter ${stats.afterFirstQuarter.p99Ms.toFixed(0)} ms; max ${stats.whole.maxMs.toFixed(0)} ms; ${stats.turnedAway} busy`,
  });
  const kept = `${stats.failed} failed, ${stats.lostWrites} answered writes lost`;
  if (mode === "class") {
    const wanted = targets.class.servedShare * stats.nominalPerSecond;
    checks.push(
      {
        target: `[${label}] ${modeLabel[mode]}: ${name}: >= ${wanted.toFixed(0)} req/s served, none failed or lost`,
        measured: `${stats.servedPerSecond.toFixed(0)} req/s of ${stats.offeredPerSecond.toFixed(0)} offered; ${stats.turnedAway} turned away busy; ${kept}`,
        pass:
          stats.servedPerSecond >= wanted &&
          stats.failed === 0 &&
          stats.turnedAway === 0 &&
          stats.lostWrites === 0,
      },
      {
        target: `[${label}] ${modeLabel[mode]}: ${name}: p99 < ${targets.class.p99Ms} ms over the whole run`,
        measured: `p50 ${stats.whole.p50Ms.toFixed(0)} ms, p99 ${stats.whole.p99Ms.toFixed(0)} ms (after the first quarter ${stats.afterFirstQuarter.p99Ms.toFixed(0)} ms)`,
        pass: stats.whole.p99Ms < targets.class.p99Ms,
      },
    );
  } else {
    checks.push({
      target: `[${label}] ${modeLabel[mode]}: ${name}: nobody waits over ${targets.overload.maxMs} ms (the rest 503 with Retry-After), none failed or lost`,
      measured: `max ${stats.whole.maxMs.toFixed(0)} ms, p99 ${stats.whole.p99Ms.toFixed(0)} ms; ${stats.servedPerSecond.toFixed(0)} req/s served of ${stats.offeredPerSecond.toFixed(0)} offered; ${stats.turnedAway} turned away busy; ${kept}`,
      pass:
        stats.whole.maxMs <= targets.overload.maxMs && stats.failed === 0 && stats.lostWrites === 0,
    });
  }
}

/**
 * Mode 4a: what each of a class member's requests costs the server's main
 * thread, one request at a time (bench/costs.ts). Reported, with no target:
 * it says where mode 4b's CPU goes.
 */
async function costsMode(site: Site, template: WriteTemplate) {
  const label = site.app.database.kind;
  const database = site.app.database;
  const cookie = site.writerCookies[0];
  const pid = site.app.child.pid;
  if (!cookie || pid === undefined) throw new BenchError("costs: no writing member or server pid");
  await waitUntilIdle(site.app.origin);
  console.log(`[${label}] ${modeLabel.costs}: ${config.costsLoops} loops of one member...`);
  const costs = await runCosts({
    origin: site.app.origin,
    serverPid: pid,
    courseId: site.courseId,
    chapterId: site.lastChapterId,
    template,
    cookie,
    headers: baseHeaders,
    loops: config.costsLoops,
    postgres:
      database.kind === "PostgreSQL" ? { url: database.url, name: database.name } : undefined,
  });
  console.log(`    ${describeCosts(costs)}`);
  for (const kind of costKinds) {
    rows.push({
      server: label,
      mode: modeLabel.costs,
      page: kind,
      // What one main thread could answer of this kind alone, at this CPU a request.
      perSecond: 1000 / costs.kinds[kind].meanMs,
      p99Ms: costs.kinds[kind].p99Ms,
      cpuMsPerRequest: costs.kinds[kind].meanMs,
      failed: 0,
      note: `one at a time; req/s and ms: the main thread's CPU (p50 ${costs.kinds[kind].p50Ms.toFixed(2)} ms)${kind === "mark" && costs.transactionsPerLoop !== undefined ? `; ${costs.transactionsPerLoop.toFixed(1)} PostgreSQL transactions a loop of all four` : ""}`,
    });
  }
}

/** The processes that answer requests: the server itself, or a cluster primary's workers. */
function servingPids(child: { pid?: number }, processes: number): number[] {
  if (child.pid === undefined) return [];
  return processes === 1 ? [child.pid] : childPids(child.pid);
}

type CoresRun = "app" | "held" | "bare";
const coresRunLabel: Record<CoresRun, string> = {
  app: "",
  held: `, each held to ${config.coreShare} of a core`,
  bare: " (bare Node)",
};

/** Where each request's CPU went (µs): the server (and the cores it kept busy), the load generator, PostgreSQL. */
function cpuSplit(m: Measurement): string {
  const us = (ms: number | undefined) => (ms === undefined ? "?" : (ms * 1000).toFixed(0));
  const cores = m.serverCpuCores === undefined ? "" : ` on ${m.serverCpuCores.toFixed(2)} cores`;
  return `CPU µs/req: server ${us(m.serverCpuMsPerRequest)}${cores}, ${coresGenerator} ${us(m.generatorCpuMsPerRequest)}, PostgreSQL ${us(m.databaseCpuMsPerRequest)}`;
}

/**
 * Mode 7: the member pages on a server of 1 process, then of 2, each started
 * afresh on the site's database (the same member and course), one at a time;
 * then the same with each server process held to a share of a core, so that
 * the load generator and PostgreSQL have CPU of their own as they would on
 * other machines; then bare Node answering the same bytes with 1 and 2
 * processes: how far this machine lets any server scale.
 */
async function coresMode(site: Site) {
  const label = site.app.database.kind;
  console.log(
    `[${label}] ${modeLabel.cores}: member pages with 1 and with 2 server processes (load from ${coresGenerator})`,
  );
  const measured = new Map<string, Map<string, Measurement>>();
  const keep = (run: CoresRun, processes: number, page: string, m: Measurement) => {
    if (!measured.has(page)) measured.set(page, new Map());
    measured.get(page)?.set(`${run} ${processes}`, m);
  };
  const plural = (n: number) => `${n} process${n > 1 ? "es" : ""}`;
  const skipped: Partial<Record<CoresRun, string>> = {};

  for (const run of ["app", "held"] as const) {
    for (const processes of [1, 2]) {
      if (skipped[run]) continue;
      const app = await startAppServer(site.app.database, { processes });
      let release: (() => void) | undefined;
      try {
        if (run === "held") {
          const held = holdToCoreShare(servingPids(app.child, processes), config.coreShare);
          if (typeof held === "string") {
            skipped.held = held;
            console.log(`  held to ${config.coreShare} of a core: not run (${held})`);
            continue;
          }
          release = held;
        }
        console.log(`  ${plural(processes)}${coresRunLabel[run]} at ${app.origin} (${elapsed()})`);
        for (const page of memberPages(site)) {
          const url = `${app.origin}${new URL(page.url).pathname}${new URL(page.url).search}`;
          const check = await send(url, { headers: site.memberHeaders });
          if (check.status !== 200) throw new BenchError(`GET ${url}: ${replyText(check)}`);
          const m = await measure(
            `${page.name}, ${plural(processes)}`,
            url,
            site.memberHeaders,
            app,
            app.origin,
            { generator: coresGenerator },
          );
          keep(run, processes, page.name, m);
        }
        if (exited(app.child)) throw new BenchError(`server died:\n${app.output.join("\n")}`);
      } finally {
        await stop(app.child, 15_000);
        release?.();
      }
    }
  }

  for (const processes of [1, 2]) {
    const bare = await startBareServer(
      [capture("/dashboard", site.dashboard), capture("/course", site.coursePage)],
      processes,
    );
    try {
      console.log(`  ${plural(processes)} (bare Node) at ${bare.origin} (${elapsed()})`);
      for (const page of memberPages(site)) {
        const m = await measure(
          `${page.name} (bare Node), ${plural(processes)}`,
          `${bare.origin}${page.barePath}`,
          site.memberHeaders,
          bare,
          bare.origin,
          { generator: coresGenerator },
        );
        keep("bare", processes, page.name, m);
      }
    } finally {
      await stop(bare.child, 15_000);
    }
  }

  const ratioOf = (two: Measurement | undefined, one: Measurement | undefined) =>
    one && two && one.requestsPerSecond > 0 ? two.requestsPerSecond / one.requestsPerSecond : 0;
  for (const [page, runs] of measured) {
    const bareRatio = ratioOf(runs.get("bare 2"), runs.get("bare 1"));
    for (const run of ["app", "held", "bare"] as const) {
      const one = runs.get(`${run} 1`);
      const two = runs.get(`${run} 2`);
      if (!one || !two) continue;
      const ratio = ratioOf(two, one);
      rows.push(
        loadRow(
          label,
          modeLabel.cores,
          `${page}, 1 process${coresRunLabel[run]}`,
          one,
          undefined,
          cpuSplit(one),
        ),
      );
      rows.push(
        loadRow(
          label,
          modeLabel.cores,
          `${page}, 2 processes${coresRunLabel[run]}`,
          two,
          undefined,
          `${ratio.toFixed(2)}x 1 process; ${cpuSplit(two)}`,
        ),
      );
      // The target is the app as deployed; the held and bare runs say why it is what it is.
      if (run !== "app") continue;
      const machine = bareRatio > 0 ? `; bare Node on this machine: ${bareRatio.toFixed(2)}x` : "";
      const held = ratioOf(runs.get("held 2"), runs.get("held 1"));
      const heldText =
        held > 0 ? `; each held to ${config.coreShare} of a core: ${held.toFixed(2)}x` : "";
      checks.push({
        target: `[${label}] ${modeLabel.cores}: ${page} with 2 processes >= ${targets.coresRatio}x 1 process`,
        measured: `${ratio.toFixed(2)}x: ${two.requestsPerSecond.toFixed(0)} vs ${one.requestsPerSecond.toFixed(0)} req/s${machine}${heldText}${failedText(two)}${failedText(one)}`,
        pass: ratio >= targets.coresRatio && loadPasses(one) && loadPasses(two),
      });
    }
  }
  if (skipped.held) console.log(`  (runs held to a share of a core not made: ${skipped.held})`);
}

let nextAddress = 1;

async function benchSite(site: Site, template: WriteTemplate | undefined) {
  const label = site.app.database.kind;
  const result: Record<string, unknown> = { database: label, startRssMb: site.app.startRssMb };
  if (label === "PGlite" && config.modes.includes("public")) {
    result.publicResponses = await publicMode(site);
  }
  if (config.modes.includes("idle")) await idleMode(site);
  if (config.modes.includes("writers") && template) {
    await pacedMode(site, "writers", () => writersJob(site, template));
  }
  if (config.modes.includes("signups")) {
    await pacedMode(site, "signups", () => {
      const job: PacedJob = {
        kind: "signups",
        origin: site.app.origin,
        firstAddress: nextAddress,
        ratePerSecond: config.signupsPerSecond,
        timeoutMs: 10_000,
      };
      // Room for every sign-up of this run, so that no address is used twice.
      nextAddress +=
        Math.ceil(config.signupsPerSecond * (config.warmupSeconds + config.durationSeconds + 60)) +
        1;
      return job;
    });
  }

  if (template && config.modes.includes("costs")) await costsMode(site, template);
  if (template && config.modes.includes("class")) await classMode(site, template, "class");
  if (template && config.modes.includes("overload")) await classMode(site, template, "overload");

  // The member's session must have held for the whole run (a redirect would be a non-2xx above too).
  const after = await send(`${site.app.origin}/dashboard`, { headers: site.memberHeaders });
  if (after.status !== 200)
    throw new BenchError(`GET /dashboard after the run: ${replyText(after)}`);
  if (exited(site.app.child)) throw new BenchError(`server died:\n${site.app.output.join("\n")}`);

  await sleep(config.settleSeconds * 1000);
  await waitUntilIdle(site.app.origin);
  const end = memoryMb(site.app.child.pid);
  const limit = targets.rssMb[label];
  console.log(
    `[${label}] memory: VmRSS ${site.app.startRssMb?.toFixed(0)} MB after start, ` +
      `${end?.rssMb.toFixed(0)} MB after the load (peak ${end?.peakMb?.toFixed(0)} MB) (${elapsed()})`,
  );
  checks.push(
    {
      target: `[${label}] 5 memory: RSS right after start <= ${limit} MB`,
      measured: `${site.app.startRssMb?.toFixed(0) ?? "?"} MB`,
      pass: site.app.startRssMb !== undefined && site.app.startRssMb <= limit,
    },
    {
      target: `[${label}] 5 memory: RSS after all the load (${config.settleSeconds} s settle) <= ${limit} MB`,
      measured: `${end?.rssMb.toFixed(0) ?? "?"} MB; peak during the run ${end?.peakMb?.toFixed(0) ?? "?"} MB`,
      pass: end !== undefined && end.rssMb <= limit,
    },
  );
  // After the memory reading: 20,000 demo members are not what the member pages are measured with.
  if (config.modes.includes("admin"))
    await adminMode(site.app, site.adminCookie, site.coursePath, { rows, checks });
  await stop(site.app.child, 15_000);
  // Several processes share a database only on PostgreSQL; nothing else runs meanwhile.
  if (config.modes.includes("cores")) {
    if (label === "PostgreSQL") await coresMode(site);
    else if (!config.postgres) {
      console.log(`[${label}] ${modeLabel.cores}: PostgreSQL only (DATABASE_URL unset), not run`);
    }
  }
  return { ...result, endRssMb: end?.rssMb, peakRssMb: end?.peakMb };
}

function writersJob(site: Site, template: WriteTemplate): PacedJob {
  return {
    kind: "writes",
    origin: site.app.origin,
    courseId: site.courseId,
    chapterId: site.firstChapterId,
    cookies: site.writerCookies,
    template,
    ratePerSecond: config.writesPerSecond,
    timeoutMs: 10_000,
  };
}

// ---------------------------------------------------------------- main

async function main() {
  const unknown = config.modes.filter((m) => !allModes.includes(m));
  if (unknown.length > 0) throw new BenchError(`BENCH_MODES: unknown ${unknown.join(", ")}`);
  if (config.writers < 1 || config.writesPerSecond <= 0 || config.signupsPerSecond <= 0) {
    throw new BenchError("BENCH_WRITERS must be at least 1 and the BENCH_*_RATE above 0");
  }
  console.log(
    profileMode
      ? `bench --profile=${profileMode}: ${config.connections} connections, ${config.warmupSeconds} s warm-up + ${config.durationSeconds} s; node ${process.version}, ${os.cpus().length} CPUs`
      : `bench: ${config.connections} connections; member pages ${config.warmupSeconds} s warm-up + ${config.durationSeconds} s, ` +
          `public pages ${config.publicWarmupSeconds} + ${config.publicDurationSeconds} s; ` +
          `Accept-Encoding: ${config.acceptEncoding || "(none)"}; modes ${config.modes.join(", ")} on PGlite` +
          `${config.postgres ? " and PostgreSQL (DATABASE_URL)" : " (DATABASE_URL unset: no PostgreSQL run)"}; ` +
          `node ${process.version}, ${os.cpus().length} CPUs`,
  );
  const loadBefore = os.loadavg()[0] ?? 0;
  if (loadBefore > os.cpus().length * 0.5) {
    console.log(
      `warning: 1-min load average is ${loadBefore.toFixed(1)} on ${os.cpus().length} CPUs before the bench: ` +
        "other processes compete for the CPU and the figures will be low and noisy",
    );
  }

  if (profileMode) {
    if (profileMode !== "idle" && profileMode !== "writers" && profileMode !== "class") {
      throw new BenchError(
        `--profile=${profileMode}: use --profile, --profile=writers or --profile=class`,
      );
    }
    // On PostgreSQL with BENCH_DATABASES=postgres (the database's own CPU is then outside the profile).
    const database = config.postgresOnly
      ? await createThrowawayDatabase(process.env.DATABASE_URL as string)
      : ({ kind: "PGlite" } as const);
    const site = await setUp(database, { profile: true });
    if (profileMode === "class") return profileClass(site, (await learnWrite(site)).template);
    const template = profileMode === "writers" ? (await learnWrite(site)).template : undefined;
    await waitUntilIdle(site.app.origin);
    return profile({
      app: site.app,
      memberHeaders: site.memberHeaders,
      config,
      resultsDir,
      writers: template ? () => startPaced(writersJob(site, template)) : undefined,
    });
  }

  const servers: unknown[] = [];
  let learned: Awaited<ReturnType<typeof learnWrite>> | undefined;
  if (!config.postgresOnly) {
    const pglite = await setUp({ kind: "PGlite" });
    learned = needsWriteTemplate() ? await learnWrite(pglite) : undefined;
    servers.push({
      ...(await benchSite(pglite, learned?.template)),
      responses: {
        "/dashboard": replyInfo(pglite.dashboard),
        "/course/{id}": replyInfo(pglite.coursePage),
      },
    });
  }

  if (config.postgres) {
    const database = await createThrowawayDatabase(process.env.DATABASE_URL as string);
    console.log(
      `[PostgreSQL] database ${database.kind === "PostgreSQL" ? database.name : ""} created`,
    );
    const site = await setUp(database);
    if (!learned && needsWriteTemplate()) learned = await learnWrite(site);
    servers.push(await benchSite(site, learned?.template));
  }

  const loadAfter = os.loadavg()[0] ?? 0;
  printTable(rows);
  console.log(
    "x bare: the app's req/s over bare Node's answering the same bytes (member pages: the bare runs of mode 2 on PGlite)." +
      "\nCPU ms/req: the server's CPU time (all threads, /proc) over the requests completed; in modes 3 and 4 it includes the background work." +
      `\nwrite rows: "${learned?.template.source}" requests per write, latency from the planned start to the revalidation's end.`,
  );
  printChecks(checks);
  console.log(`1-min load average: ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after`);

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
        config: { ...config, admin: adminConfig },
        targets,
        loadAverage: { before: loadBefore, after: loadAfter },
        writeRequest: learned
          ? { template: learned.template, recorded: learned.capture?.recorded }
          : undefined,
        servers,
        rows,
        checks,
        runtimeSeconds: (Date.now() - started) / 1000,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nresults: ${path.relative(rootDir, file)} (${elapsed()})`);
}

installExitHandlers();
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
