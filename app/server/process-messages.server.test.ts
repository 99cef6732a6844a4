import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { linkedChannels } from "~/test/linked-channels";
import { pageViews, utcDay } from "./analytics/page-views.server";
import { ask } from "./cluster-ipc.server";
import { getDb } from "./db/db.server";
import { pageView } from "./db/schema";
import {
  answerCommands,
  answerServerProcess,
  flushPageViews,
  serveProcessCommands,
} from "./process-messages.server";

/** A primary with `count` server processes, and the channel one of them asks it on. */
function primaryWith(count: number) {
  const workers = Array.from({ length: count }, () => {
    const [primaryEnd, processEnd] = linkedChannels();
    answerCommands(processEnd);
    return primaryEnd;
  });
  const [primaryEnd, askerEnd] = linkedChannels();
  answerServerProcess(primaryEnd, { workers: () => workers, metrics: async () => "all metrics" });
  return askerEnd;
}

async function viewsOf(path: string): Promise<number | undefined> {
  const [row] = await (await getDb())
    .select({ views: pageView.views })
    .from(pageView)
    .where(and(eq(pageView.path, path), eq(pageView.day, utcDay())));
  return row?.views;
}

describe("messages between the server's processes", () => {
  it("a process still starting answers a command at once, without carrying it out", async () => {
    const path = `/starting-${randomUUID()}`;
    pageViews().count(path);
    await ask(primaryWith(2), { kind: "every-process", command: "flush-page-views" }, 5000);
    expect(await viewsOf(path)).toBeUndefined();
    await flushPageViews(await getDb());
    expect(await viewsOf(path)).toBe(1);
  });

  it("the funnel page has every process write its page views before reading", async () => {
    const db = await getDb();
    serveProcessCommands(db);
    const path = `/funnel-${randomUUID()}`;
    pageViews().count(path, utcDay(), 3);
    await ask(primaryWith(2), { kind: "every-process", command: "flush-page-views" }, 5000);
    expect(await viewsOf(path)).toBe(3);
  });

  it("the primary keeps one rate-limit count for every process, and adds up the metrics", async () => {
    const a = primaryWith(0);
    const b = primaryWith(0);
    const hit = (end: typeof a) =>
      ask<boolean>(
        end,
        {
          kind: "rate",
          op: "hit",
          name: `t-${randomUUID()}`,
          key: "k",
          limit: 1,
          windowMs: 60_000,
        },
        1000,
      );
    const name = `shared-${randomUUID()}`;
    const hitShared = (end: typeof a) =>
      ask<boolean>(
        end,
        { kind: "rate", op: "hit", name, key: "k", limit: 2, windowMs: 60_000 },
        1000,
      );
    expect(await hitShared(a)).toBe(true);
    expect(await hitShared(b)).toBe(true);
    expect(await hitShared(a)).toBe(false);
    expect(await hit(a)).toBe(true);
    expect(await ask(b, { kind: "metrics" }, 1000)).toBe("all metrics");
  });
});
