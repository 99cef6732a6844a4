/**
 * Open-loop background load, in a process of its own so that autocannon's
 * busy event loop neither delays its timer nor inflates its latencies.
 * Started by paced.ts (`node --import tsx bench/pacer.ts`, IPC):
 *
 * - writes: members clicking "Mark as complete" / its undo. Write k goes to
 *   member k mod n; each member walks its own chapters from its own offset
 *   and flips the next one with no write of theirs in flight (done if it is
 *   not, undone if it is), so every write changes a row. Each write replays
 *   the requests Chromium sent for the click (write-request.ts): the action
 *   must succeed, and the course its answer (or a read after it) shows must
 *   have the chapter in its new state.
 * - signups: POST /signup with a fresh e-mail and its own X-Forwarded-For
 *   address (198.18.0.0/15); must answer 302 to /payment-options with a
 *   session cookie, or, past the hashing capacity, 503 with Retry-After
 *   (turned away, decision 026).
 *
 * Work starts on a fixed timetable (ratePerSecond), whether or not earlier
 * work has finished; latency is measured from the planned start, so a queue
 * anywhere (server, client sockets, this timer) counts.
 *
 * Messages in: start {job}, mark {at} (the measured window begins), stop {at};
 * `at` is monotonicMs() in the parent.
 * Messages out: ready (work has begun), result {stats}, error {message}.
 */
import { randomUUID } from "node:crypto";
import { Agent } from "node:http";
import { decodeSingleFetch, replyText, send } from "./http";
import { monotonicMs, percentile } from "./support";
import {
  courseChapters,
  fillRequest,
  isActionSuccess,
  readTemplate,
  type WriteTemplate,
  type WriteVars,
} from "./write-request";

export type WritesJob = {
  kind: "writes";
  origin: string;
  courseId: string;
  /** Any chapter of the course: the state of every member is read through it first. */
  chapterId: string;
  /** One Cookie header per writing member. */
  cookies: string[];
  template: WriteTemplate;
  ratePerSecond: number;
  timeoutMs: number;
};

export type SignupsJob = {
  kind: "signups";
  origin: string;
  /** Sign-up k uses address number firstAddress + k in 198.18.0.0/15. */
  firstAddress: number;
  ratePerSecond: number;
  timeoutMs: number;
};

export type PacedJob = WritesJob | SignupsJob;

export type PacedStats = {
  kind: PacedJob["kind"];
  targetPerSecond: number;
  /** Over the whole run (warm-up included). */
  issued: number;
  failed: number;
  /** The first few failures, for the report. */
  failures: string[];
  /** The latest this process started planned work (its own lateness). */
  maxLagMs: number;
  /** Work planned inside the measured window. */
  window: {
    seconds: number;
    issued: number;
    succeeded: number;
    failed: number;
    /** Sign-ups answered "busy" (503 with Retry-After): not failures, not successes. */
    turnedAway: number;
    /** Work that succeeded and finished inside the window, per second. */
    perSecond: number;
    p50Ms: number;
    p99Ms: number;
    maxMs: number;
    /** writes: until the action answered, without the revalidation. */
    firstRequestP99Ms?: number;
  };
};

type Op = { planned: number; end?: number; firstEnd?: number; ok?: boolean; busy?: boolean };

type Member = {
  cookie: string;
  agent: Agent;
  /** The state each chapter has once the writes sent so far are applied. */
  chapters: { id: string; done: boolean }[];
  /** Chapters with a write in flight. */
  busy: Set<string>;
  /** Chapters whose last write failed: not written again until a revalidation shows their state. */
  unknown: Set<string>;
  next: number;
};

const nextAddress = (n: number) => `198.${18 + ((n >> 16) & 1)}.${(n >> 8) & 255}.${n & 255}`;

function post(message: unknown) {
  process.send?.(message);
}

async function prepareMembers(job: WritesJob): Promise<Member[]> {
  const read = readTemplate(job.template);
  return Promise.all(
    job.cookies.map(async (cookie, index) => {
      // A member's browser keeps its connections, six at most per site (as Chromium).
      const agent = new Agent({ keepAlive: true, maxSockets: 6 });
      const vars: WriteVars = {
        origin: job.origin,
        course: job.courseId,
        chapter: job.chapterId,
        done: "false",
        cookie,
      };
      const request = fillRequest(read, vars);
      const reply = await send(request.url, { ...request, agent, timeoutMs: job.timeoutMs });
      const chapters = reply.status === 200 ? courseChapters(await decodeSingleFetch(reply)) : [];
      if (!chapters || chapters.length === 0) {
        throw new Error(`member ${index}: ${request.url}: ${replyText(reply)}`);
      }
      return {
        cookie,
        agent,
        chapters,
        busy: new Set<string>(),
        unknown: new Set<string>(),
        next: (index * 2) % chapters.length,
      };
    }),
  );
}

/** The member's next chapter in turn with no write in flight and a known state (the next in turn if none). */
function nextChapter(member: Member): Member["chapters"][0] {
  const count = member.chapters.length;
  let chosen = member.chapters[member.next % count] as Member["chapters"][0];
  for (let i = 0; i < count; i++) {
    const candidate = member.chapters[(member.next + i) % count] as Member["chapters"][0];
    if (!member.busy.has(candidate.id) && !member.unknown.has(candidate.id)) {
      chosen = candidate;
      member.next += i;
      break;
    }
  }
  member.next++;
  return chosen;
}

async function write(job: WritesJob, member: Member, op: Op): Promise<void> {
  const chapter = nextChapter(member);
  member.busy.add(chapter.id);
  try {
    await writeChapter(job, member, chapter, op);
  } catch (error) {
    member.unknown.add(chapter.id);
    throw error;
  } finally {
    member.busy.delete(chapter.id);
  }
}

async function writeChapter(
  job: WritesJob,
  member: Member,
  chapter: Member["chapters"][0],
  op: Op,
): Promise<void> {
  const done = !chapter.done;
  chapter.done = done;
  const vars: WriteVars = {
    origin: job.origin,
    course: job.courseId,
    chapter: chapter.id,
    done: done ? "true" : "false",
    cookie: member.cookie,
  };
  let shown = false;
  for (const template of job.template.requests) {
    const request = fillRequest(template, vars);
    const reply = await send(request.url, {
      ...request,
      agent: member.agent,
      timeoutMs: job.timeoutMs,
    });
    const where = `${request.method} ${request.url.slice(job.origin.length)} (done=${done})`;
    if (reply.status !== 200) throw new Error(`${where}: ${replyText(reply)}`);
    if (template.method !== "GET" || request.url.includes(".data")) {
      const answer = await decodeSingleFetch(reply);
      if (template.method !== "GET") {
        if (!isActionSuccess(answer)) {
          throw new Error(`${where}: the action did not succeed: ${replyText(reply)}`);
        }
        op.firstEnd = monotonicMs();
      }
      // The course as the page then shows it: the action's answer (decision 051) or a read after it.
      const chapters = courseChapters(answer);
      if (!chapters) continue;
      shown = true;
      const seen = chapters.find((c) => c.id === chapter.id);
      if (seen?.done !== done) {
        throw new Error(`${where}: the page then shows the chapter done=${seen?.done}`);
      }
      // After a failed write the expectation would be a guess: take the state the server shows.
      for (const c of chapters) {
        const mine = member.chapters.find((m) => m.id === c.id);
        if (!mine || !member.unknown.has(c.id) || member.busy.has(c.id)) continue;
        mine.done = c.done;
        member.unknown.delete(c.id);
      }
    }
  }
  if (!shown) throw new Error(`mark done=${done}: no answer showed the course after it`);
}

/** One sign-up: "busy" when the server turned it away with 503 and Retry-After. */
async function signup(job: SignupsJob, k: number): Promise<"done" | "busy"> {
  const reply = await send(`${job.origin}/signup`, {
    method: "POST",
    headers: {
      origin: job.origin,
      accept: "text/html,application/xhtml+xml,*/*",
      "content-type": "application/x-www-form-urlencoded",
      "x-forwarded-for": nextAddress(job.firstAddress + k),
    },
    body: new URLSearchParams({
      name: "Bench Sign-up",
      email: `bench-signup-${randomUUID()}@example.test`,
      password: "correct horse battery staple",
    }).toString(),
    timeoutMs: job.timeoutMs,
  });
  const cookie = (reply.headers["set-cookie"] ?? []).some((c) => c.includes("session_token="));
  if (reply.status === 503 && reply.headers["retry-after"] && !cookie) return "busy";
  if (reply.status !== 302 || reply.headers.location !== "/payment-options" || !cookie) {
    throw new Error(`POST /signup: ${replyText(reply)}${cookie ? "" : " (no session cookie)"}`);
  }
  return "done";
}

async function run(job: PacedJob) {
  const members = job.kind === "writes" ? await prepareMembers(job) : [];
  const ops: Op[] = [];
  const running = new Set<Promise<void>>();
  const failures: string[] = [];
  let failed = 0;
  let maxLagMs = 0;
  let markAt: number | undefined;
  let stopAt: number | undefined;

  const fire = (k: number, planned: number) => {
    const op: Op = { planned };
    ops.push(op);
    maxLagMs = Math.max(maxLagMs, monotonicMs() - planned);
    const work: Promise<"done" | "busy"> =
      job.kind === "writes"
        ? write(job, members[k % members.length] as Member, op).then(() => "done" as const)
        : signup(job, k);
    const settled = work.then(
      (outcome) => {
        op.ok = outcome !== "busy";
        op.busy = outcome === "busy";
      },
      (error: Error) => {
        op.ok = false;
        failed++;
        if (failures.length < 5) failures.push(error.message.slice(0, 400));
      },
    );
    const tracked = settled.finally(() => {
      op.end = monotonicMs();
      running.delete(tracked);
    });
    running.add(tracked);
  };

  // The timetable: work k starts at t0 + k / rate, late work at once (never skipped).
  const interval = 1000 / job.ratePerSecond;
  const t0 = monotonicMs();
  let k = 0;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    const now = monotonicMs();
    while (t0 + k * interval <= now) {
      fire(k, t0 + k * interval);
      k++;
    }
    timer = setTimeout(tick, Math.max(0, t0 + k * interval - monotonicMs()));
  };

  process.on("message", async (message: { type: string; at?: number }) => {
    // The parent's instant (on the shared monotonic clock), not when this busy process got to it.
    if (message.type === "mark") markAt = message.at ?? monotonicMs();
    if (message.type !== "stop" || stopAt !== undefined) return;
    stopAt = message.at ?? monotonicMs();
    clearTimeout(timer);
    // Work in flight is waited for (each request has its own timeout).
    await Promise.all(running);
    for (const member of members) member.agent.destroy();
    const from = markAt ?? t0;
    const inWindow = ops.filter((op) => op.planned >= from && op.planned < (stopAt as number));
    const latencies = inWindow.map((op) => (op.end as number) - op.planned);
    const firsts = inWindow.flatMap((op) => (op.firstEnd ? [op.firstEnd - op.planned] : []));
    const seconds = ((stopAt as number) - from) / 1000;
    // Throughput: work that succeeded, finishing inside the window (whenever it was planned).
    const finished = ops.filter(
      (op) => op.ok && (op.end as number) >= from && (op.end as number) < (stopAt as number),
    ).length;
    const succeeded = inWindow.filter((op) => op.ok).length;
    const turnedAway = inWindow.filter((op) => op.busy).length;
    const stats: PacedStats = {
      kind: job.kind,
      targetPerSecond: job.ratePerSecond,
      issued: ops.length,
      failed,
      failures,
      maxLagMs,
      window: {
        seconds,
        issued: inWindow.length,
        succeeded,
        failed: inWindow.length - succeeded - turnedAway,
        turnedAway,
        perSecond: seconds > 0 ? finished / seconds : 0,
        p50Ms: percentile(latencies, 50),
        p99Ms: percentile(latencies, 99),
        maxMs: latencies.length > 0 ? Math.max(...latencies) : 0,
        firstRequestP99Ms: job.kind === "writes" ? percentile(firsts, 99) : undefined,
      },
    };
    post({ type: "result", stats });
  });

  tick();
  post({ type: "ready", members: members.length });
}

process.once("message", (message: { type: string; job?: PacedJob }) => {
  if (message.type !== "start" || !message.job) return;
  run(message.job).catch((error: Error) => post({ type: "error", message: error.message }));
});
process.on("disconnect", () => process.exit(0));
