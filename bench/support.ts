/**
 * What every part of the bench shares: child processes that must not outlive
 * it, clean-up on the way out, free ports, and CPU and memory figures of a
 * process from /proc.
 */
import { type ChildProcess, execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";

/** The bench itself broke (as opposed to a target being missed). */
export class BenchError extends Error {}

const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();
const cleanUps: (() => Promise<void>)[] = [];

/** The last lines each child printed, for the message when the bench breaks. */
export const outputs = new Map<string, string[]>();

export function track(child: ChildProcess, name: string, output: string[]): ChildProcess {
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

export function removeWhenDone(dir: string) {
  tempDirs.add(dir);
}

/** Runs at clean-up, after the children have stopped (e.g. dropping a throw-away database). */
export function onCleanUp(fn: () => Promise<void>) {
  cleanUps.push(fn);
}

export function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** SIGTERM, then SIGKILL after `graceMs`. */
export async function stop(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (exited(child)) return;
  const done = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await done;
  clearTimeout(timer);
}

export async function cleanUp(): Promise<void> {
  await Promise.all([...children].map((child) => stop(child)));
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
  for (const fn of cleanUps.splice(0).reverse()) {
    await fn().catch((error) => console.error(`clean-up: ${error}`));
  }
}

/** For the main process: no child or temporary folder survives it, even on Ctrl-C. */
export function installExitHandlers() {
  // Last resort when the process goes down without cleanUp().
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
}

export function freePort(): Promise<number> {
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

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Microseconds on the monotonic clock (the one V8 stamps CPU profiles with on Linux). */
export const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/** Milliseconds on the monotonic clock, which (unlike performance.now()) every process shares. */
export const monotonicMs = () => Number(process.hrtime.bigint()) / 1e6;

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
export function cpuMs(pid: number | undefined): number | undefined {
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

/** The processes `pid` started (a cluster's primary: its server processes), from /proc. */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    // No children file (an old kernel): none known.
    return [];
  }
}

/**
 * CPU time of a process and of the processes it started (a cluster's primary
 * and its server processes), in ms; undefined where there is no /proc.
 */
export function treeCpuMs(pid: number | undefined): number | undefined {
  const own = cpuMs(pid);
  if (own === undefined || pid === undefined) return own;
  return childPids(pid).reduce((sum, child) => sum + (cpuMs(child) ?? 0), own);
}

/** Resident memory (VmRSS) and its peak so far (VmHWM) in MB, from /proc/{pid}/status. */
export function memoryMb(
  pid: number | undefined,
): { rssMb: number; peakMb: number | undefined } | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (name: string) => {
      const match = new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status);
      return match?.[1] ? Number(match[1]) / 1024 : undefined;
    };
    const rssMb = kb("VmRSS");
    return rssMb === undefined ? undefined : { rssMb, peakMb: kb("VmHWM") };
  } catch {
    return undefined;
  }
}

export const numberFromEnv = (name: string, fallback: number) => {
  const value = process.env[name];
  if (!value) return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0) {
    throw new BenchError(`${name} must be a number >= 0, got ${JSON.stringify(value)}`);
  }
  return number;
};

/** The p-th percentile (0-100) of unsorted values, nearest rank; 0 when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

/**
 * CPU time (ms) of the PostgreSQL server processes on this machine (every
 * process named postgres), from /proc: 0 when PostgreSQL runs elsewhere.
 */
export function databaseCpuMs(): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/comm`, "utf8").startsWith("postgres")) continue;
    } catch {
      continue; // gone already
    }
    total += cpuMs(Number(entry)) ?? 0;
  }
  return total;
}
