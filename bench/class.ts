/**
 * A class in session: N distinct paying members, each made through the app's
 * own forms, each looping on its own connection pool as a browser would:
 * the dashboard, a chapter of the course, "Mark as complete" (or its undo,
 * replaying the requests Chromium sent for the click, write-request.ts),
 * with a random pause between steps (exponential, mean `pauseMs`).
 *
 * Closed loop: a member sends its next request only once the last one was
 * answered, as people do; what is offered is what N members at that pace
 * send, about N / pause requests a second when answers are quick.
 *
 * Every answer counts: 2xx served; 503 with Retry-After turned away (the
 * member waits the Retry-After, as the page asks); anything else, a
 * connection error or no answer in 30 s failed. At the end every write
 * answered 2xx must be what the member's course shows.
 */
import { Agent } from "node:http";
import { createPaidMember } from "./app-server";
import { decodeSingleFetch, replyText, send } from "./http";
import { BenchError, cpuMs, databaseCpuMs, monotonicMs, percentile, sleep } from "./support";
import {
  courseChapters,
  fillRequest,
  isActionSuccess,
  readTemplate,
  type WriteTemplate,
} from "./write-request";

export type ClassJob = {
  origin: string;
  serverPid: number | undefined;
  courseId: string;
  /** Any chapter of the course: each member's state is read through it. */
  chapterId: string;
  template: WriteTemplate;
  /** One Cookie header per member. */
  cookies: string[];
  pauseMs: number;
  durationSeconds: number;
  /** A request not answered in this time failed. */
  timeoutMs?: number;
  headers: Record<string, string>;
};

type Sample = {
  /** Sent, ms on the monotonic clock. */
  at: number;
  ms: number;
  kind: "page" | "write";
  outcome: "served" | "busy" | "failed";
};

export type ClassStats = {
  members: number;
  pauseMs: number;
  seconds: number;
  /** Requests sent a second (what the members offered at the pace they could keep). */
  offeredPerSecond: number;
  /** What N members at the nominal pace would send if every answer were instant. */
  nominalPerSecond: number;
  servedPerSecond: number;
  served: number;
  turnedAway: number;
  failed: number;
  failures: string[];
  whole: { p50Ms: number; p99Ms: number; maxMs: number };
  afterFirstQuarter: { p50Ms: number; p99Ms: number; maxMs: number };
  writes: { served: number; p99Ms: number };
  /** Writes answered 2xx whose chapter the course then showed in another state. */
  lostWrites: number;
  /** Server process CPU per request answered (ms), from /proc. */
  serverCpuMsPerRequest: number | undefined;
  /**
   * The CPU the rest of the machine spent per request (ms): the members' own
   * process (this one), and PostgreSQL's processes (0 on the embedded database,
   * which runs in the server's). With the server's, what one request costs the
   * machine's cores.
   */
  generatorCpuMsPerRequest: number;
  databaseCpuMsPerRequest: number;
  /** The run on the monotonic clock, µs (a CPU profile's clock). */
  window: { fromUs: number; toUs: number };
};

type Member = {
  cookie: string;
  agent: Agent;
  chapters: { id: string; done: boolean }[];
  /** Chapters whose last write was not answered 2xx: their state is not known. */
  unknown: Set<string>;
  next: number;
};

const pause = (meanMs: number) => sleep(-Math.log(1 - Math.random()) * meanMs);

/**
 * Makes `count` paying members through the forms (sign-up, plan, test
 * checkout), two at a time: one hashing, one waiting its turn (decision 026).
 */
export async function createMembers(origin: string, count: number): Promise<string[]> {
  const cookies: string[] = [];
  let made = 0;
  const worker = async () => {
    while (made < count) {
      made += 1;
      for (let attempt = 1; ; attempt++) {
        try {
          cookies.push(await createPaidMember(origin, `Class Member ${made}`));
          break;
        } catch (error) {
          // Turned away busy: wait as the page asks, then again.
          if (attempt < 10 && String(error).includes("got 503:")) await sleep(5000);
          else throw error;
        }
      }
    }
  };
  await Promise.all([worker(), worker()]);
  return cookies;
}

const summarize = (samples: Sample[]) => {
  const ms = samples.map((s) => s.ms);
  return {
    p50Ms: percentile(ms, 50),
    p99Ms: percentile(ms, 99),
    maxMs: ms.length > 0 ? Math.max(...ms) : 0,
  };
};

export async function runClass(job: ClassJob): Promise<ClassStats> {
  const timeoutMs = job.timeoutMs ?? 30_000;
  const read = readTemplate(job.template);
  const vars = (member: Member, chapter: string, done: boolean) => ({
    origin: job.origin,
    course: job.courseId,
    chapter,
    done: done ? ("true" as const) : ("false" as const),
    cookie: member.cookie,
  });

  // Each member's own state of the course, read as their browser would.
  const members: Member[] = [];
  for (const [index, cookie] of job.cookies.entries()) {
    const agent = new Agent({ keepAlive: true, maxSockets: 6 });
    const member: Member = { cookie, agent, chapters: [], unknown: new Set(), next: 0 };
    const request = fillRequest(read, vars(member, job.chapterId, false));
    const reply = await send(request.url, { ...request, agent, timeoutMs });
    const chapters = reply.status === 200 ? courseChapters(await decodeSingleFetch(reply)) : [];
    if (!chapters || chapters.length === 0) {
      throw new BenchError(`class member ${index}: ${request.url}: ${replyText(reply)}`);
    }
    member.chapters = chapters;
    member.next = index % chapters.length;
    members.push(member);
  }

  const samples: Sample[] = [];
  const failures: string[] = [];
  let stopping = false;

  const timed = async (
    kind: Sample["kind"],
    go: () => Promise<"served" | "busy">,
    what: string,
  ): Promise<Sample["outcome"]> => {
    const at = monotonicMs();
    let outcome: Sample["outcome"];
    try {
      outcome = await go();
    } catch (error) {
      outcome = "failed";
      if (failures.length < 5) failures.push(`${what}: ${String(error).slice(0, 300)}`);
    }
    samples.push({ at, ms: monotonicMs() - at, kind, outcome });
    if (outcome === "busy") await sleep(5000);
    return outcome;
  };

  const page = (member: Member, url: string) =>
    timed(
      "page",
      async () => {
        const reply = await send(url, {
          headers: { ...job.headers, cookie: member.cookie },
          agent: member.agent,
          timeoutMs,
        });
        if (reply.status === 503 && reply.headers["retry-after"]) return "busy";
        if (reply.status !== 200) throw new Error(replyText(reply));
        return "served";
      },
      `GET ${url.slice(job.origin.length)}`,
    );

  const write = async (member: Member, chapter: Member["chapters"][0]) => {
    const done = !chapter.done;
    /** The mark itself (the POST) was answered 2xx: stored, whatever the page's read after it. */
    let stored = false;
    const outcome = await timed(
      "write",
      async () => {
        for (const template of job.template.requests) {
          const request = fillRequest(template, vars(member, chapter.id, done));
          const reply = await send(request.url, { ...request, agent: member.agent, timeoutMs });
          if (reply.status === 503 && reply.headers["retry-after"]) return "busy";
          if (reply.status !== 200) throw new Error(replyText(reply));
          if (template.method !== "GET") {
            if (!isActionSuccess(await decodeSingleFetch(reply))) {
              throw new Error(`the action did not succeed: ${replyText(reply)}`);
            }
            stored = true;
          }
        }
        return "served";
      },
      `mark chapter done=${done}`,
    );
    // Only an answered mark has a known outcome; one turned away busy wrote nothing.
    if (stored) {
      chapter.done = done;
      member.unknown.delete(chapter.id);
    } else if (outcome === "failed") member.unknown.add(chapter.id);
  };

  const loop = async (member: Member) => {
    // Members arrive spread over one pause, not all in the same millisecond.
    await sleep(Math.random() * job.pauseMs);
    while (!stopping) {
      await page(member, `${job.origin}/dashboard`);
      if (stopping) break;
      await pause(job.pauseMs);
      const chapter = member.chapters[
        member.next % member.chapters.length
      ] as Member["chapters"][0];
      member.next += 1;
      await page(member, `${job.origin}/course/${job.courseId}?chapter=${chapter.id}`);
      if (stopping) break;
      await pause(job.pauseMs);
      await write(member, chapter);
      await pause(job.pauseMs);
    }
  };

  const cpuBefore = cpuMs(job.serverPid);
  const generatorBefore = process.cpuUsage();
  const databaseBefore = databaseCpuMs();
  const started = monotonicMs();
  const loops = members.map(loop);
  await sleep(job.durationSeconds * 1000);
  stopping = true;
  const ended = monotonicMs();
  await Promise.all(loops);
  const cpuAfter = cpuMs(job.serverPid);
  const generatorUsed = process.cpuUsage(generatorBefore);
  const databaseMs = databaseCpuMs() - databaseBefore;

  // Every write answered 2xx is stored: the course shows each member's last answered state.
  let lostWrites = 0;
  for (const member of members) {
    const request = fillRequest(read, vars(member, job.chapterId, false));
    const reply = await send(request.url, { ...request, agent: member.agent, timeoutMs });
    const shown = reply.status === 200 ? courseChapters(await decodeSingleFetch(reply)) : undefined;
    if (!shown)
      throw new BenchError(`reading a member's course after the run: ${replyText(reply)}`);
    for (const chapter of member.chapters) {
      if (member.unknown.has(chapter.id)) continue;
      if (shown.find((c) => c.id === chapter.id)?.done !== chapter.done) lostWrites += 1;
    }
    member.agent.destroy();
  }

  const seconds = (ended - started) / 1000;
  const inRun = samples.filter((s) => s.at < ended);
  const served = inRun.filter((s) => s.outcome === "served");
  const quarter = started + (ended - started) / 4;
  const writes = served.filter((s) => s.kind === "write");
  const cpu = cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined;
  return {
    members: members.length,
    pauseMs: job.pauseMs,
    seconds,
    offeredPerSecond: inRun.length / seconds,
    nominalPerSecond: (members.length * 1000) / job.pauseMs,
    servedPerSecond: served.length / seconds,
    served: served.length,
    turnedAway: inRun.filter((s) => s.outcome === "busy").length,
    failed: samples.filter((s) => s.outcome === "failed").length,
    failures,
    whole: summarize(inRun),
    afterFirstQuarter: summarize(inRun.filter((s) => s.at >= quarter)),
    writes: {
      served: writes.length,
      p99Ms: percentile(
        writes.map((s) => s.ms),
        99,
      ),
    },
    lostWrites,
    serverCpuMsPerRequest:
      cpu !== undefined && samples.length > 0 ? cpu / samples.length : undefined,
    generatorCpuMsPerRequest:
      samples.length > 0 ? (generatorUsed.user + generatorUsed.system) / 1000 / samples.length : 0,
    databaseCpuMsPerRequest: samples.length > 0 ? databaseMs / samples.length : 0,
    window: { fromUs: started * 1000, toUs: ended * 1000 },
  };
}

/** One line of figures for the log. */
export function describeClass(stats: ClassStats): string {
  const f = (n: number) => n.toFixed(0);
  return (
    `${stats.members} members, pause ${stats.pauseMs} ms: offered ${f(stats.offeredPerSecond)} req/s ` +
    `(nominal ${f(stats.nominalPerSecond)}), served ${f(stats.servedPerSecond)} req/s; ` +
    `p50 ${f(stats.whole.p50Ms)} ms, p99 ${f(stats.whole.p99Ms)} ms, max ${f(stats.whole.maxMs)} ms ` +
    `(after the first quarter p99 ${f(stats.afterFirstQuarter.p99Ms)} ms); ` +
    `${stats.turnedAway} turned away busy, ${stats.failed} failed, ${stats.lostWrites} answered writes lost; ` +
    `writes p99 ${f(stats.writes.p99Ms)} ms; server CPU ${stats.serverCpuMsPerRequest?.toFixed(2) ?? "?"} ms/request` +
    ` (members ${stats.generatorCpuMsPerRequest.toFixed(2)}` +
    `${stats.databaseCpuMsPerRequest > 0 ? `, PostgreSQL ${stats.databaseCpuMsPerRequest.toFixed(2)}` : ""})` +
    `${stats.failures[0] ? ` (first failure: ${stats.failures[0]})` : ""}`
  );
}
