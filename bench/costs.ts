/**
 * What each of a class member's requests costs the server, one at a time:
 * one paying member loops "Mark as complete" (or its undo, replayed as
 * Chromium sent it, write-request.ts), their chapter, their dashboard and
 * the chapter again, with nothing else running. After the mark the chapter
 * and the dashboard are rendered (the mark changed what they show); the
 * chapter asked again is answered from the page cache.
 *
 * Each request is charged the server's main-thread CPU time from just before
 * it was sent until just before the next one (so work it left running is
 * its own), read from /proc/<pid>/task/<pid>/schedstat in nanoseconds. On
 * PostgreSQL the database's transactions a loop are counted from
 * pg_stat_database.
 */

import { readFileSync } from "node:fs";
import { Agent } from "node:http";
import pg from "pg";
import { replyText, send } from "./http";
import { BenchError, cpuMs, percentile, sleep } from "./support";
import { fillRequest, type WriteTemplate } from "./write-request";

export type CostsJob = {
  origin: string;
  serverPid: number;
  courseId: string;
  chapterId: string;
  template: WriteTemplate;
  cookie: string;
  headers: Record<string, string>;
  loops: number;
  /** The bench's database on PostgreSQL (its cluster's URL and its name); none on PGlite. */
  postgres?: { url: string; name: string };
};

export const costKinds = [
  "mark",
  "chapter rendered",
  "dashboard rendered",
  "chapter kept",
] as const;
export type CostKind = (typeof costKinds)[number];

export type Costs = {
  loops: number;
  /** Main-thread CPU per request of each kind (ms). */
  kinds: Record<CostKind, { meanMs: number; p50Ms: number; p99Ms: number }>;
  /** The server's CPU a loop, every thread (ms), from /proc/<pid>/stat. */
  processMsPerLoop: number | undefined;
  /** PostgreSQL transactions a loop; undefined on PGlite. */
  transactionsPerLoop: number | undefined;
};

/** The main thread's time on the CPU so far (ms). */
function mainThreadMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ");
  return Number(fields[0]) / 1e6;
}

/** Transactions the database has ended, once its backends have reported them (about a second). */
async function transactions(postgres: CostsJob["postgres"]): Promise<number | undefined> {
  if (!postgres) return undefined;
  await sleep(1500);
  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  try {
    const { rows } = await client.query(
      "select xact_commit + xact_rollback as n from pg_stat_database where datname = $1",
      [postgres.name],
    );
    return Number(rows[0]?.n);
  } finally {
    await client.end();
  }
}

export async function runCosts(job: CostsJob): Promise<Costs> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const headers = { ...job.headers, cookie: job.cookie };
  const chapterUrl = `${job.origin}/course/${job.courseId}?chapter=${job.chapterId}`;
  const get = async (url: string) => {
    const reply = await send(url, { headers, agent });
    if (reply.status !== 200) throw new BenchError(`costs: GET ${url}: ${replyText(reply)}`);
  };
  const mark = async (done: boolean) => {
    for (const template of job.template.requests) {
      const request = fillRequest(template, {
        origin: job.origin,
        course: job.courseId,
        chapter: job.chapterId,
        done: done ? "true" : "false",
        cookie: job.cookie,
      });
      const reply = await send(request.url, { ...request, agent });
      if (reply.status !== 200) throw new BenchError(`costs: mark: ${replyText(reply)}`);
    }
  };
  const steps: [CostKind, (i: number) => Promise<void>][] = [
    ["mark", (i) => mark(i % 2 === 0)],
    ["chapter rendered", () => get(chapterUrl)],
    ["dashboard rendered", () => get(`${job.origin}/dashboard`)],
    ["chapter kept", () => get(chapterUrl)],
  ];
  const samples = new Map<CostKind, number[]>(costKinds.map((k) => [k, []]));
  const loop = async (i: number, record: boolean) => {
    for (const [kind, step] of steps) {
      const before = mainThreadMs(job.serverPid);
      await step(i);
      // Charged until the next request goes: what the server still did for this one.
      await sleep(1);
      if (record) samples.get(kind)?.push(mainThreadMs(job.serverPid) - before);
    }
  };
  try {
    // Warm-up: the first renders compile what the rest reuse.
    for (let i = 0; i < 50; i++) await loop(i, false);
    const transactionsBefore = await transactions(job.postgres);
    const cpuBefore = cpuMs(job.serverPid);
    for (let i = 0; i < job.loops; i++) await loop(i, true);
    const cpuAfter = cpuMs(job.serverPid);
    const transactionsAfter = await transactions(job.postgres);
    const kinds = Object.fromEntries(
      costKinds.map((kind) => {
        const ms = samples.get(kind) ?? [];
        const meanMs = ms.reduce((a, b) => a + b, 0) / Math.max(1, ms.length);
        return [kind, { meanMs, p50Ms: percentile(ms, 50), p99Ms: percentile(ms, 99) }];
      }),
    ) as Costs["kinds"];
    return {
      loops: job.loops,
      kinds,
      processMsPerLoop:
        cpuBefore !== undefined && cpuAfter !== undefined
          ? (cpuAfter - cpuBefore) / job.loops
          : undefined,
      transactionsPerLoop:
        transactionsBefore !== undefined && transactionsAfter !== undefined
          ? (transactionsAfter - transactionsBefore) / job.loops
          : undefined,
    };
  } finally {
    agent.destroy();
  }
}

/** One line of figures for the log. */
export function describeCosts(costs: Costs): string {
  const kinds = costKinds
    .map(
      (k) => `${k} ${costs.kinds[k].meanMs.toFixed(2)} ms (p50 ${costs.kinds[k].p50Ms.toFixed(2)})`,
    )
    .join(", ");
  return (
    `${costs.loops} loops; main-thread CPU a request: ${kinds}; ` +
    `server CPU a loop ${costs.processMsPerLoop?.toFixed(1) ?? "?"} ms (every thread)` +
    (costs.transactionsPerLoop !== undefined
      ? `; ${costs.transactionsPerLoop.toFixed(1)} PostgreSQL transactions a loop`
      : "")
  );
}
