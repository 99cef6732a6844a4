// The owner's console, learning: for each course, who started it and who
// finished it; for each chapter, how many opened it and how many marked it
// done, so the owner sees where students stop. Counted by PostgreSQL with
// group by, a thousand accounts a statement (learningReport).
//
// A member opened a chapter when it has a chapter_view row: readCourse
// records the first time the chapter page shows it, setChapterDone records
// it with the chapter marked done, and migration 0009 copied the chapters
// marked done before openings were recorded. So a chapter_view row exists
// whenever a chapter_progress row does, and "started a course" (any
// chapter_view or chapter_progress row in it) is counted from chapter_view
// alone. Finished: every published chapter
// the course has now is marked done (a draft chapter is marked as such and
// counts for nothing). Only members count: an admin's preview of a course is
// not a student's opening.

import { sql } from "drizzle-orm";
import { type Db, nextTurn, rowsOf } from "../db/client.server";
import { planEachCall } from "../db/pglite-statements.server";
import { chapter, chapterProgress, chapterView, course, user } from "../db/schema";

export type ChapterFigures = {
  id: string;
  title: string;
  /** False for a draft: members do not see it, and finishing the course does not need it. */
  published: boolean;
  opened: number;
  done: number;
};

export type CourseFigures = {
  id: string;
  title: string;
  started: number;
  finished: number;
  /** finished / started, 0 when nobody started. */
  completionRate: number;
  chapters: ChapterFigures[];
};

/** How many accounts one statement of the count reads for (about 7,000 rows each at 20,000 members). */
export const learningChunkAccounts = 1000;

type Counts = Record<"opened" | "done" | "started" | "finished", Map<string, number>>;

/**
 * The four figures for the members whose ids are in [from, to) (to null: no
 * end), added into `counts`: one statement, each table read on its primary
 * key's range of user ids.
 */
async function countChunk(db: Db, from: string, to: string | null, counts: Counts) {
  const inChunk = (column: string) =>
    to === null
      ? sql`${sql.raw(column)} >= ${from}`
      : sql`${sql.raw(column)} >= ${from} and ${sql.raw(column)} < ${to}`;
  // The range on both sides of the join: each is read on its primary key.
  const members = (x: string) =>
    sql`join ${user} u on u.id = ${sql.raw(x)}.user_id and not u.is_admin and ${inChunk("u.id")}
      where ${inChunk(`${x}.user_id`)}`;
  // Planned for its own range at each call: with the plan PostgreSQL keeps for any range,
  // the whole count took twice as long on the embedded database (decision 049).
  const rows = await rowsOf(
    db,
    sql`${sql.raw(planEachCall)}
      select 'opened' as figure, x.chapter_id as key, count(*) as n
        from ${chapterView} x ${members("x")} group by x.chapter_id
      union all
      select 'done', x.chapter_id, count(*) from ${chapterProgress} x ${members("x")} group by x.chapter_id
      union all
      select 'started', x.course_id, count(distinct x.user_id)
        from ${chapterView} x ${members("x")} group by x.course_id
      union all
      select 'finished', p.course_id, count(*)
      from (
        select x.user_id, x.course_id, count(*) as done
        from ${chapterProgress} x join ${chapter} c on c.id = x.chapter_id and c.published ${members("x")}
        group by x.user_id, x.course_id
      ) p
      join (
        select course_id, count(*) as chapters from ${chapter} where published group by course_id
      ) k on k.course_id = p.course_id
      where p.done >= k.chapters
      group by p.course_id`,
  );
  for (const r of rows) {
    const figure = counts[String(r.figure) as keyof Counts];
    const key = String(r.key);
    figure.set(key, (figure.get(key) ?? 0) + Number(r.n));
  }
}

/**
 * Every course, oldest first, with its chapters in reading order and their
 * figures. Counted for learningChunkAccounts accounts at a time (every figure
 * is a sum over members, and each member is in one chunk), with a turn of the
 * event loop between statements (nextTurn): on the embedded database a
 * member's request waits for one chunk at most, not the whole count.
 */
export async function learningReport(
  db: Db,
  { chunkAccounts = learningChunkAccounts }: { chunkAccounts?: number } = {},
): Promise<CourseFigures[]> {
  const counts: Counts = {
    opened: new Map(),
    done: new Map(),
    started: new Map(),
    finished: new Map(),
  };
  const starts = (
    await rowsOf(
      db,
      sql`select id from (select u.id, row_number() over (order by u.id) as n from ${user} u) t
        where (n - 1) % ${chunkAccounts} = 0 order by id`,
    )
  ).map((r) => String(r.id));
  for (const [i, from] of starts.entries()) {
    await nextTurn();
    await countChunk(db, from, starts[i + 1] ?? null, counts);
  }
  await nextTurn();
  const { opened, done, started, finished } = counts;
  const [chapters, courses] = await Promise.all([
    rowsOf(
      db,
      sql`select c.id, c.course_id, c.title, c.published from ${chapter} c
        order by c.course_id, c.sort_order`,
    ),
    rowsOf(db, sql`select k.id, k.title from ${course} k order by k.created_at, k.id`),
  ]);
  const byCourse = new Map<string, ChapterFigures[]>();
  for (const r of chapters) {
    const id = String(r.id);
    const list = byCourse.get(String(r.course_id)) ?? [];
    list.push({
      id,
      title: String(r.title),
      published: r.published === true || r.published === "t",
      opened: opened.get(id) ?? 0,
      done: done.get(id) ?? 0,
    });
    byCourse.set(String(r.course_id), list);
  }
  return courses.map((r) => {
    const id = String(r.id);
    const startedN = started.get(id) ?? 0;
    const finishedN = finished.get(id) ?? 0;
    return {
      id,
      title: String(r.title),
      started: startedN,
      finished: finishedN,
      completionRate: startedN > 0 ? finishedN / startedN : 0,
      chapters: byCourse.get(id) ?? [],
    };
  });
}

/** How long the learning figures are kept before they are counted again. */
export const learningReportMaxAgeMs = 60_000;

let kept: { at: number; report: Promise<CourseFigures[]> } | null = null;

/**
 * learningReport, counted at most once a minute per process: with 20,000
 * members the counting reads every opening and every chapter marked done,
 * and the owner needs where students stop, not the last second (`fresh` counts
 * again now). `at` is when the figures were counted.
 */
export async function recentLearningReport(
  db: Db,
  { fresh = false, now = Date.now() }: { fresh?: boolean; now?: number } = {},
): Promise<{ at: number; courses: CourseFigures[] }> {
  if (fresh || !kept || now - kept.at >= learningReportMaxAgeMs) {
    const report = learningReport(db);
    kept = { at: now, report };
    report.catch(() => {
      if (kept?.report === report) kept = null;
    });
  }
  return { at: kept.at, courses: await kept.report };
}
