/**
 * Closed-loop load with wrk (Debian's package), for mode 7: a C load
 * generator spends about a third of the CPU per request that autocannon
 * does, which matters when the load generator shares the machine's cores
 * with the servers it measures. A warm-up run, then the measured run on new
 * connections; wrk's own CPU time is read by the shell that runs it.
 */
import { execFileSync, spawn } from "node:child_process";
import path from "node:path";
import { benchDir } from "./app-server";
import type { LoadOptions, Measurement } from "./load";
import { BenchError, databaseCpuMs, treeCpuMs } from "./support";

const wrkCommand = process.env.BENCH_WRK || "wrk";

/** Whether wrk runs here (`apt-get install wrk`). */
export function wrkAvailable(): boolean {
  try {
    execFileSync(wrkCommand, ["--version"], { stdio: "ignore" });
    return true;
  } catch (error) {
    // wrk --version exits 1 after printing its version.
    return (error as { status?: number }).status === 1;
  }
}

type WrkReport = {
  requests: number;
  durationUs: number;
  connect: number;
  read: number;
  write: number;
  status: number;
  timeout: number;
  p50: number;
  p99: number;
  max: number;
};

async function runWrk(
  options: LoadOptions,
  seconds: number,
): Promise<{ report: WrkReport; cpuMs: number }> {
  const args = [
    "-t1",
    `-c${options.connections}`,
    `-d${seconds}s`,
    "--timeout",
    "10s",
    "-s",
    path.join(benchDir, "wrk-report.lua"),
    ...Object.entries(options.headers).flatMap(([name, value]) => ["-H", `${name}: ${value}`]),
    options.url,
  ];
  // bash's `time` reports the child's user and system CPU seconds on stderr.
  const child = spawn("bash", ["-c", 'TIMEFORMAT="%3U %3S"; time "$0" "$@"', wrkCommand, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  const json = stdout.split("\n").find((line) => line.startsWith("{"));
  const times = /([\d.]+) ([\d.]+)\s*$/.exec(stderr);
  if (code !== 0 || !json || !times) {
    throw new BenchError(`wrk ${args.join(" ")} failed (code ${code}):\n${stdout}${stderr}`);
  }
  return {
    report: JSON.parse(json) as WrkReport,
    cpuMs: (Number(times[1]) + Number(times[2])) * 1000,
  };
}

export async function wrkLoad(options: LoadOptions): Promise<Measurement> {
  if (options.warmupSeconds > 0) await runWrk(options, options.warmupSeconds);
  options.onMeasure?.();
  const serverBefore = treeCpuMs(options.server.pid);
  const databaseBefore = databaseCpuMs();
  const { report, cpuMs } = await runWrk(options, options.durationSeconds);
  const serverAfter = treeCpuMs(options.server.pid);
  const databaseCpu = databaseCpuMs() - databaseBefore;
  const seconds = report.durationUs / 1e6;
  const requests = report.requests;
  const serverCpu =
    serverBefore !== undefined && serverAfter !== undefined
      ? serverAfter - serverBefore
      : undefined;
  const perRequest = (ms: number | undefined) =>
    ms !== undefined && requests > 0 ? ms / requests : undefined;
  const errors = report.connect + report.read + report.write + report.timeout;
  return {
    url: options.url,
    requestsPerSecond: seconds > 0 ? requests / seconds : 0,
    latencyP50Ms: report.p50 / 1000,
    latencyP99Ms: report.p99 / 1000,
    latencyMaxMs: report.max / 1000,
    requests,
    // wrk counts answers of status 400 and above; redirects would pass unseen, so the
    // bench checks each page's answer before it loads it.
    non2xx: report.status,
    errors,
    timeouts: report.timeout,
    statusCodes: {},
    serverCpuMsPerRequest: perRequest(serverCpu),
    serverCpuCores:
      serverCpu !== undefined && seconds > 0 ? serverCpu / (seconds * 1000) : undefined,
    generatorCpuMsPerRequest: perRequest(cpuMs),
    databaseCpuMsPerRequest: perRequest(databaseCpu),
  };
}
