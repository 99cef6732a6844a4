import cluster, { type Worker } from "node:cluster";
import { AggregatorRegistry, Counter, Gauge, Registry } from "prom-client";
import { EnvError, getEnv } from "../env.server";
import { logger } from "../logger.server";
import { localMetrics, metricsRegistry } from "../metrics/metrics.server";
import { answerPrimary, answerServerProcess, clusterMetrics } from "../process-messages.server";

/**
 * Runs the server as WEB_CONCURRENCY processes sharing one port (node:cluster,
 * decision 015). With one (the default on the embedded database), `start`
 * runs in this process and nothing else happens: no primary, no IPC.
 *
 * With more, this process is the primary: it serves no request. It starts the
 * server processes (each runs `start` with SERVER_PROCESS_INDEX set; index 0
 * runs the background work), hands them connections in turn, starts a new
 * one in the place of one that dies, keeps the rate-limit counters they share
 * when there is no Redis, and adds up their metrics for /metrics. On SIGTERM
 * or SIGINT it passes the signal on, waits for every process to drain and
 * stop, and exits 0 when they all stopped cleanly.
 *
 * Node passes this process's flags (bin/serve's --max-semi-space-size) and
 * environment (MALLOC_ARENA_MAX) to every process it starts.
 */
export async function runServerProcesses(start: () => Promise<void>): Promise<void> {
  if (cluster.isWorker) {
    // Answer the primary's requests for this process's metrics with its registry.
    AggregatorRegistry.setRegistries(metricsRegistry);
    new AggregatorRegistry();
    answerPrimary();
    return start();
  }
  let processes: number;
  let shutdownDelayMs: number;
  try {
    ({ webConcurrency: processes, shutdownDelayMs } = getEnv());
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  if (processes <= 1) return start();
  runPrimary(processes, shutdownDelayMs);
}

/** A process that dies this soon after it started waits longer before its replacement. */
const quickDeathMs = 10_000;
const maxRestartDelayMs = 30_000;
/**
 * How long the primary waits for its processes to drain after SIGTERM, past their
 * SHUTDOWN_DELAY_SECONDS (theirs is 10 s).
 */
const stopTimeoutMs = 15_000;

function runPrimary(processes: number, shutdownDelayMs: number): void {
  const slots = new Map<number, { worker: Worker; startedAt: number; quickDeaths: number }>();
  let stopping = false;
  let failedStop = false;

  // Metrics of the primary itself, added to the processes' own on /metrics.
  const primaryRegistry = new Registry();
  new Gauge({
    name: "server_processes",
    help: "Server processes running (WEB_CONCURRENCY when all are up).",
    registers: [primaryRegistry],
    collect() {
      this.set([...slots.values()].filter((s) => s.worker.isConnected()).length);
    },
  });
  const restarts = new Counter({
    name: "server_process_restarts_total",
    help: "Server processes started again after one died.",
    registers: [primaryRegistry],
  });
  // The processes' registries answer the primary's requests (prom-client's cluster support).
  AggregatorRegistry.setRegistries(metricsRegistry);
  const aggregator = new AggregatorRegistry();

  // Every message a server process sends, and its handler: process-messages.server.ts.
  const primary = {
    workers: () => [...slots.values()].map((s) => s.worker),
    metrics: async () => `${await aggregator.clusterMetrics()}\n${await primaryRegistry.metrics()}`,
  };

  const fork = (index: number, quickDeaths: number) => {
    const worker = cluster.fork({ SERVER_PROCESS_INDEX: String(index) });
    slots.set(index, { worker, startedAt: Date.now(), quickDeaths });
    answerServerProcess(worker, primary);
    worker.on("exit", (code, signal) => {
      const slot = slots.get(index);
      if (slot?.worker !== worker) return;
      if (stopping) {
        if (code !== 0) failedStop = true;
        slots.delete(index);
        if (slots.size === 0) finish();
        return;
      }
      const quick = Date.now() - slot.startedAt < quickDeathMs;
      const deaths = quick ? slot.quickDeaths + 1 : 0;
      const delay = quick ? Math.min(maxRestartDelayMs, 500 * 2 ** (deaths - 1)) : 0;
      logger.error(
        { process: index, pid: worker.process.pid, code, signal, restartInMs: delay },
        "server process died; starting another",
      );
      restarts.inc();
      // Not unref'd: with every process dead (one that cannot start: the database does not
      // answer) the primary would otherwise exit 0 and systemd would not restart it.
      setTimeout(() => {
        if (!stopping) fork(index, deaths);
      }, delay);
    });
  };

  const finish = () => {
    logger.info({ clean: !failedStop }, "server processes stopped");
    process.exit(failedStop ? 1 : 0);
  };

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, processes: slots.size }, "stopping server processes");
    for (const [index, { worker }] of slots) {
      // One that died and waits for its replacement has nothing left to stop.
      if (worker.isDead()) slots.delete(index);
      else worker.process.kill(signal);
    }
    if (slots.size === 0) finish();
    setTimeout(() => {
      logger.warn("server processes still running after 15 s; killing them");
      for (const { worker } of slots.values()) worker.process.kill("SIGKILL");
      process.exit(1);
    }, shutdownDelayMs + stopTimeoutMs).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));

  logger.info({ processes }, "starting server processes");
  for (let index = 0; index < processes; index++) fork(index, 0);
}

/**
 * The metrics /metrics answers: every process's, added up by the primary,
 * when several serve; this process's otherwise.
 */
export async function serverMetrics(): Promise<string> {
  if (!cluster.isWorker) return localMetrics();
  return clusterMetrics();
}
