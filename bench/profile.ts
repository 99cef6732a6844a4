/**
 * `npm run bench -- --profile[=writers]`: the dashboard against a server
 * started with `node --cpu-prof` (nobody writing, or while the writers
 * write), and where the server's CPU time went in the measured window.
 */
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type AppServer, rootDir } from "./app-server";
import { load } from "./load";
import type { Paced } from "./paced";
import { formatSummary, profileSpan, summarizeFile } from "./profile-summary";
import { BenchError, nowUs, stop } from "./support";

export async function profile(options: {
  app: AppServer;
  memberHeaders: Record<string, string>;
  config: { connections: number; warmupSeconds: number; durationSeconds: number };
  resultsDir: string;
  /** Starts the writers (--profile=writers). */
  writers?: () => Promise<Paced>;
}) {
  const { app, config, resultsDir } = options;
  const name = options.writers ? "dashboard-writers" : "dashboard";
  console.log(
    `profile: dashboard${options.writers ? " while the writers write" : ""} on a server started with --cpu-prof`,
  );
  const writers = await options.writers?.();
  let fromUs = 0;
  const result = await load({
    url: `${app.origin}/dashboard`,
    headers: options.memberHeaders,
    server: app.child,
    connections: config.connections,
    warmupSeconds: config.warmupSeconds,
    durationSeconds: config.durationSeconds,
    onMeasure: () => {
      fromUs = nowUs();
      writers?.mark();
    },
  });
  const toUs = nowUs();
  const stats = await writers?.stop();
  console.log(
    `  ${result.requestsPerSecond.toFixed(0)} req/s, p99 ${result.latencyP99Ms.toFixed(0)} ms, ` +
      `${result.requests} requests, non-2xx ${result.non2xx}, errors ${result.errors}, ` +
      `server CPU ${result.serverCpuMsPerRequest?.toFixed(2) ?? "?"} ms/request (profiler overhead included)`,
  );
  if (stats) {
    console.log(
      `  writes: ${stats.window.perSecond.toFixed(1)}/s achieved of ${stats.targetPerSecond} planned, ` +
        `p99 ${stats.window.p99Ms.toFixed(0)} ms, ${stats.failed} of ${stats.issued} failed` +
        `${stats.failures[0] ? ` (first: ${stats.failures[0]})` : ""}`,
    );
  }
  await summariseProfile({
    app,
    name,
    resultsDir,
    window: { fromUs, toUs },
    requests: result.requests,
    headline: (perRequest) =>
      `Measured ${config.durationSeconds} s window only: ${result.requests} requests, ` +
      `${perRequest.toFixed(2)} ms of non-idle main-thread time per request ` +
      `(${result.serverCpuMsPerRequest?.toFixed(2) ?? "?"} ms of process CPU time from /proc)` +
      `${stats ? `; the writers' ${stats.window.succeeded} writes are in these figures` : ""}.`,
  });
}

/**
 * Stops the profiled server (a clean exit writes the profile), keeps the
 * profile in resultsDir and prints where the CPU went in `window` only:
 * start-up (migrations, precompression) and warm-up are left out.
 */
export async function summariseProfile(options: {
  app: AppServer;
  name: string;
  resultsDir: string;
  window: { fromUs: number; toUs: number };
  requests: number;
  headline: (msPerRequest: number) => string;
}) {
  const { app, name, resultsDir, window, requests } = options;
  await stop(app.child, 15_000);
  const dir = app.profileDir ?? "";
  const written = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"));
  if (!written[0]) throw new BenchError(`no .cpuprofile written:\n${app.output.join("\n")}`);
  mkdirSync(resultsDir, { recursive: true });
  const kept = path.join(resultsDir, `${name}.cpuprofile`);
  copyFileSync(path.join(dir, written[0]), kept);
  const span = profileSpan(kept);
  const inSpan = window.fromUs >= span.fromUs && window.toUs <= span.toUs;
  const summary = summarizeFile(kept, 25, inSpan ? window : undefined);
  const perRequest = inSpan && requests > 0 ? summary.busyMs / requests : 0;
  const text = [
    inSpan
      ? options.headline(perRequest)
      : "Whole profile (the run's window did not fall inside it).",
    formatSummary(summary),
  ].join("\n");
  writeFileSync(path.join(resultsDir, `${name}-profile.txt`), `${text}\n`);
  console.log(`\n${text}\n\nprofile: ${path.relative(rootDir, kept)} (open in Chrome DevTools)`);
}
