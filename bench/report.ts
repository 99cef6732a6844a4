/** The bench's final table and its PASS/FAIL list. */
import type { Measurement } from "./load";
import type { PacedStats } from "./pacer";

export type Row = {
  server: string;
  mode: string;
  page: string;
  /** Requests per second; for paced work, the successful ones per second. */
  perSecond: number;
  p99Ms: number;
  bareRequestsPerSecond?: number;
  ratioToBare?: number;
  cpuMsPerRequest?: number;
  /** Non-2xx answers and errors; for paced work, failures over the whole run. */
  failed: number;
  note?: string;
  measurement?: Measurement;
  paced?: PacedStats;
};

export type Check = { target: string; measured: string; pass: boolean };

export function loadRow(
  server: string,
  mode: string,
  page: string,
  m: Measurement,
  bare?: Measurement,
  note?: string,
): Row {
  return {
    server,
    mode,
    page,
    perSecond: m.requestsPerSecond,
    p99Ms: m.latencyP99Ms,
    bareRequestsPerSecond: bare?.requestsPerSecond,
    ratioToBare: bare ? m.requestsPerSecond / bare.requestsPerSecond : undefined,
    cpuMsPerRequest: m.serverCpuMsPerRequest,
    failed: m.non2xx + m.errors,
    note,
    measurement: m,
  };
}

export function pacedRow(server: string, mode: string, page: string, stats: PacedStats): Row {
  const w = stats.window;
  const extra =
    stats.kind === "writes"
      ? `action alone p99 ${w.firstRequestP99Ms?.toFixed(0)} ms`
      : `p50 ${w.p50Ms.toFixed(0)} ms`;
  return {
    server,
    mode,
    page,
    perSecond: w.perSecond,
    p99Ms: w.p99Ms,
    failed: stats.failed,
    note: `planned ${stats.targetPerSecond}/s; ${extra}; max ${w.maxMs.toFixed(0)} ms; pacer lag max ${stats.maxLagMs.toFixed(0)} ms`,
    paced: stats,
  };
}

export function printTable(rows: Row[]) {
  const header = [
    "server",
    "mode",
    "page",
    "req/s",
    "p99 ms",
    "bare req/s",
    "x bare",
    "CPU ms/req",
    "failed",
    "notes",
  ];
  const cells = rows.map((r) => [
    r.server,
    r.mode,
    r.page,
    r.perSecond.toFixed(r.paced ? 1 : 0),
    r.p99Ms.toFixed(0),
    r.bareRequestsPerSecond === undefined ? "" : r.bareRequestsPerSecond.toFixed(0),
    r.ratioToBare === undefined ? "" : `${r.ratioToBare.toFixed(2)}x`,
    r.cpuMsPerRequest === undefined ? "" : r.cpuMsPerRequest.toFixed(3),
    String(r.failed),
    r.note ?? "",
  ]);
  const numeric = new Set([3, 4, 5, 6, 7, 8]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? "").length)));
  const line = (c: string[]) =>
    c
      .map((v, i) => (numeric.has(i) ? v.padStart(widths[i] ?? 0) : v.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  console.log(`\n${line(header)}`);
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const c of cells) console.log(line(c));
}

export function printChecks(checks: Check[]) {
  console.log("");
  for (const c of checks) console.log(`${c.pass ? "PASS" : "FAIL"}  ${c.target} (${c.measured})`);
  const failed = checks.filter((c) => !c.pass).length;
  console.log(`\n${checks.length - failed} of ${checks.length} targets met, ${failed} missed`);
}
