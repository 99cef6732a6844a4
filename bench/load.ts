/**
 * Closed-loop load with autocannon: one run of warm-up + measured time on the
 * same connections (a separate warm-up run would leave its last requests to
 * the server, still to be answered as the measured run starts). Figures are
 * taken from the responses that complete inside the measured window; the
 * server's CPU time is read at its start and end.
 */
import type { ChildProcess } from "node:child_process";
import autocannon from "autocannon";
import { send } from "./http";
import { databaseCpuMs, percentile, sleep, treeCpuMs } from "./support";

export type Measurement = {
  url: string;
  /** Responses completed in the measured window, per second. */
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  /** Responses completed in the measured window. */
  requests: number;
  /** Over the whole run, warm-up included: answers other than 2xx, and errors (timeouts among them). */
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** Server CPU time (its processes together) per request completed in the window (ms), from /proc. */
  serverCpuMsPerRequest: number | undefined;
  /** Server CPU time / wall time in the window: 1 = one core fully used. */
  serverCpuCores: number | undefined;
  /** The load generator's CPU time per request (ms): wrk's (bench/wrk.ts), or the bench process's with autocannon. */
  generatorCpuMsPerRequest?: number;
  /** CPU time of the PostgreSQL processes on this machine per request (ms). */
  databaseCpuMsPerRequest?: number;
};

export type LoadOptions = {
  url: string;
  headers: Record<string, string>;
  /** The process whose CPU time is counted, with the processes it started. */
  server: ChildProcess;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** Called as the measured window begins (after the warm-up). */
  onMeasure?: () => void;
};

export async function load(options: LoadOptions): Promise<Measurement> {
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;
  let measuring = false;
  let cpuBefore: number | undefined;
  let generatorBefore: NodeJS.CpuUsage | undefined;
  let databaseBefore = 0;
  let windowStart = 0;
  let windowEnd = Number.POSITIVE_INFINITY;

  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    headers: options.headers,
    timeout: 10,
    duration: options.warmupSeconds + options.durationSeconds,
  });
  instance.on("response", (_client, statusCode, _bytes, responseTimeMs) => {
    statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
    if (statusCode < 200 || statusCode >= 300) non2xx++;
    if (measuring && performance.now() < windowEnd) latencies.push(responseTimeMs);
  });
  instance.on("reqError", (error) => {
    errors++;
    if (/timed out/.test(error.message)) timeouts++;
  });
  const mark = setTimeout(() => {
    measuring = true;
    windowStart = performance.now();
    windowEnd = windowStart + options.durationSeconds * 1000;
    cpuBefore = treeCpuMs(options.server.pid);
    generatorBefore = process.cpuUsage();
    databaseBefore = databaseCpuMs();
    options.onMeasure?.();
  }, options.warmupSeconds * 1000);
  let generatorMs: number | undefined;
  let databaseMs = 0;
  const end = new Promise<number | undefined>((resolve) => {
    setTimeout(
      () => {
        const used = generatorBefore && process.cpuUsage(generatorBefore);
        generatorMs = used && (used.user + used.system) / 1000;
        databaseMs = databaseCpuMs() - databaseBefore;
        resolve(treeCpuMs(options.server.pid));
      },
      (options.warmupSeconds + options.durationSeconds) * 1000,
    );
  });
  await instance;
  clearTimeout(mark);
  const cpuAfter = await end;
  const seconds = (Math.min(performance.now(), windowEnd) - windowStart) / 1000;
  const cpu = cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined;
  const requests = latencies.length;
  return {
    url: options.url,
    requestsPerSecond: seconds > 0 ? requests / seconds : 0,
    latencyP50Ms: percentile(latencies, 50),
    latencyP99Ms: percentile(latencies, 99),
    latencyMaxMs: requests > 0 ? latencies.reduce((a, b) => Math.max(a, b)) : 0,
    requests,
    non2xx,
    errors,
    timeouts,
    statusCodes,
    serverCpuMsPerRequest: cpu !== undefined && requests > 0 ? cpu / requests : undefined,
    serverCpuCores: cpu !== undefined && seconds > 0 ? cpu / (seconds * 1000) : undefined,
    generatorCpuMsPerRequest:
      generatorMs !== undefined && requests > 0 ? generatorMs / requests : undefined,
    databaseCpuMsPerRequest: requests > 0 ? databaseMs / requests : undefined,
  };
}

/** Waits (up to 30 s) until /healthz answers within 50 ms: the app has drained earlier load. */
export async function waitUntilIdle(origin: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const t = performance.now();
    const reply = await send(`${origin}/healthz`).catch(() => undefined);
    if (reply?.status === 200 && performance.now() - t < 50) return;
    await sleep(200);
  }
}
