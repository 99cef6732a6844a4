/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`): the functions with
 * the most self time, the most inclusive time, and self time by package.
 *
 *   tsx bench/profile-summary.ts FILE.cpuprofile [TOP]
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type CpuProfile = {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
};

export type Row = { name: string; where: string; ms: number; percent: number };
export type ProfileSummary = {
  totalMs: number;
  /** Time not spent idle: what the percentages in `busy*` are relative to. */
  busyMs: number;
  self: Row[];
  inclusive: Row[];
  packages: Row[];
  /** Self time in three layers: rendering (React, React Router), the database (PGlite's WebAssembly, the drivers, Drizzle), the rest. */
  layers: { render: number; database: number; rest: number };
};

const renderPackages = new Set([
  "react",
  "react-dom",
  "react-router",
  "@react-router/node",
  "turbo-stream",
]);
const databasePackages = new Set([
  "@electric-sql/pglite",
  "drizzle-orm",
  "pg",
  "pg-pool",
  "pg-protocol",
  "postgres",
]);

function layerOf(pkg: string): "render" | "database" | "rest" {
  if (renderPackages.has(pkg)) return "render";
  // WebAssembly in the server is PGlite's PostgreSQL (the embedded database).
  if (pkg.startsWith("wasm://")) return "database";
  return databasePackages.has(pkg) ? "database" : "rest";
}

const meta = new Set(["(root)", "(program)", "(idle)", "(garbage collector)"]);

function shortUrl(url: string): string {
  if (!url) return "";
  const clean = url.replace(/^file:\/\//, "");
  const nm = clean.lastIndexOf("/node_modules/");
  if (nm >= 0) return clean.slice(nm + "/node_modules/".length);
  const build = clean.indexOf("/build/");
  if (build >= 0) return clean.slice(build + 1);
  return clean;
}

function packageOf(frame: CallFrame): string {
  if (meta.has(frame.functionName)) return frame.functionName;
  const url = frame.url;
  if (!url) return "(native / V8 builtins)";
  if (url.startsWith("node:")) return "node: internals";
  const nm = url.lastIndexOf("/node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "/node_modules/".length).split("/");
    return rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.includes("/build/server/")) return "app (build/server)";
  return shortUrl(url);
}

function frameKey(frame: CallFrame): string {
  return `${frame.functionName || "(anonymous)"}\u0000${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
}

/**
 * Microseconds on the monotonic clock V8 stamps profiles with; on Linux the
 * same clock as process.hrtime, so a caller can pass the window of a load run.
 */
export type Window = { fromUs: number; toUs: number };

export function summarizeProfile(profile: CpuProfile, top = 20, window?: Window): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  // Time per sample: the delta to the next sample (the last one gets the mean).
  const selfUs = new Map<number, number>();
  const n = profile.samples.length;
  const mean = n > 0 ? (profile.endTime - profile.startTime) / n : 0;
  let at = profile.startTime;
  for (let i = 0; i < n; i++) {
    at += profile.timeDeltas[i] as number;
    if (window && (at < window.fromUs || at > window.toUs)) continue;
    const id = profile.samples[i] as number;
    const dt = i + 1 < n ? (profile.timeDeltas[i + 1] as number) : mean;
    selfUs.set(id, (selfUs.get(id) ?? 0) + dt);
  }

  const selfByKey = new Map<string, number>();
  const inclusiveByKey = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let totalUs = 0;
  let idleUs = 0;

  // Depth-first from the root; a function counts once per stack even when recursive.
  const active = new Map<string, number>();
  const walk = (id: number): number => {
    const node = byId.get(id);
    if (!node) return 0;
    const key = frameKey(node.callFrame);
    active.set(key, (active.get(key) ?? 0) + 1);
    const own = selfUs.get(id) ?? 0;
    let subtree = own;
    for (const child of node.children ?? []) subtree += walk(child);
    const depth = active.get(key) ?? 1;
    if (depth === 1) inclusiveByKey.set(key, (inclusiveByKey.get(key) ?? 0) + subtree);
    active.set(key, depth - 1);
    if (own > 0) {
      selfByKey.set(key, (selfByKey.get(key) ?? 0) + own);
      const pkg = packageOf(node.callFrame);
      byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + own);
      totalUs += own;
      if (node.callFrame.functionName === "(idle)") idleUs += own;
    }
    return subtree;
  };
  const root = profile.nodes.find((node) => node.callFrame.functionName === "(root)");
  if (root) walk(root.id);

  const busyUs = totalUs - idleUs;
  const rows = (map: Map<string, number>, skipMeta: boolean): Row[] =>
    [...map]
      .map(([key, us]) => {
        const [name = "", where = ""] = key.split("\u0000");
        return { name, where, ms: us / 1000, percent: busyUs > 0 ? (100 * us) / busyUs : 0 };
      })
      .filter((r) => !(skipMeta && meta.has(r.name)) && r.name !== "(idle)")
      .sort((a, b) => b.ms - a.ms)
      .slice(0, top);

  return {
    totalMs: totalUs / 1000,
    busyMs: busyUs / 1000,
    self: rows(selfByKey, false),
    inclusive: rows(inclusiveByKey, true),
    packages: [...byPackage]
      .filter(([name]) => name !== "(idle)")
      .map(([name, us]) => ({ name, where: "", ms: us / 1000, percent: (100 * us) / busyUs }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, top),
    layers: layerSplit(byPackage),
  };
}

function layerSplit(byPackage: Map<string, number>): ProfileSummary["layers"] {
  const layers = { render: 0, database: 0, rest: 0 };
  for (const [pkg, us] of byPackage) {
    if (pkg === "(idle)") continue;
    layers[layerOf(pkg)] += us / 1000;
  }
  return layers;
}

export function formatSummary(summary: ProfileSummary): string {
  const lines: string[] = [];
  const table = (title: string, rows: Row[]) => {
    lines.push("", title);
    for (const r of rows) {
      const where = r.where ? `  ${r.where}` : "";
      lines.push(
        `  ${r.ms.toFixed(0).padStart(7)} ms ${r.percent.toFixed(1).padStart(5)}%  ${r.name}${where}`,
      );
    }
  };
  lines.push(
    `Profile: ${summary.totalMs.toFixed(0)} ms sampled, ${summary.busyMs.toFixed(0)} ms not idle (percentages are of the latter).`,
  );
  const { render, database, rest } = summary.layers;
  const share = (ms: number) =>
    `${ms.toFixed(0)} ms (${((100 * ms) / (summary.busyMs || 1)).toFixed(0)}%)`;
  lines.push(
    `By layer: render ${share(render)}, database ${share(database)}, the rest ${share(rest)}.`,
  );
  table("Self time by function:", summary.self);
  table("Self time by package:", summary.packages);
  table("Inclusive time by function:", summary.inclusive);
  return lines.join("\n");
}

export function summarizeFile(file: string, top = 20, window?: Window): ProfileSummary {
  return summarizeProfile(JSON.parse(readFileSync(file, "utf8")) as CpuProfile, top, window);
}

/** The profile's first and last sample times, to check a window against. */
export function profileSpan(file: string): Window {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  return { fromUs: profile.startTime, toUs: profile.endTime };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    console.error("usage: tsx bench/profile-summary.ts FILE.cpuprofile [TOP]");
    process.exit(2);
  }
  console.log(formatSummary(summarizeFile(file, top ? Number(top) : 20)));
}
