// The owner's console, learning: for each course, who started it and who
// finished it; for each chapter, how many opened it and how many marked it
// done, so the owner sees where students stop. Counted by PostgreSQL with
// group by: one query per figure, whatever the number of members.
//
// A member opened a chapter when it has a chapter_view row: readCourse
// records the first time the chapter page shows it, setChapterDone records
// it with the chapter marked done, and migration 0009 copied the chapters
// marked done before openings were recorded. So a chapter_view row exists
// whenever a chapter_progress row does, and "started a course" (any
// chapter_view or chapter_progress row in it) is counted from chapter_view
// alone, on chapter_view_course_user_idx. Finished: every published chapter
// the course has now is marked done (a draft chapter is marked as such and
// counts for nothing). Only members count: an admin's preview of a course is
// not a student's opening.

import { type SQL, sql } from "drizzle-orm";
import { type Db, nextTurn, rowsOf } from "../db/client.server";
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

/** A count per key (`key`, `n`) as a map. */
async function countsOf(db: Db, query: SQL): Promise<Map<string, number>> {
  const rows = await rowsOf(db, query);
  return new Map(rows.map((r) => [String(r.key), Number(r.n)]));
}

/**
 * Every course, oldest first, with its chapters in reading order and their
 * figures. One figure a query, with a turn of the event loop between them
 * (nextTurn): on the embedded database a member's request waits for one of
 * them at most, not the whole count.
 */
export async function learningReport(db: Db): Promise<CourseFigures[]> {
  const members = sql`join ${user} u on u.id = x.user_id and not u.is_admin`;
  const opened = await countsOf(
    db,
    sql`select x.chapter_id as key, count(*) as n from ${chapterView} x ${members} group by x.chapter_id`,
  );
  await nextTurn();
  const done = await countsOf(
    db,
    sql`select x.chapter_id as key, count(*) as n from ${chapterProgress} x ${members} group by x.chapter_id`,
  );
  await nextTurn();
  const started = await countsOf(
    db,
    sql`select s.course_id as key, count(*) as n
      from (select distinct x.course_id, x.user_id from ${chapterView} x ${members}) s
      group by s.course_id`,
  );
  await nextTurn();
  const finished = await countsOf(
    db,
    sql`select p.course_id as key, count(*) as n
      from (
        select x.user_id, x.course_id, count(*) as done
        from ${chapterProgress} x
          join ${chapter} c on c.id = x.chapter_id and c.published
          ${members}
        group by x.user_id, x.course_id
      ) p
      join (
        select course_id, count(*) as chapters from ${chapter} where published group by course_id
      ) k
        on k.course_id = p.course_id
      where p.done >= k.chapters
      group by p.course_id`,
  );
  await nextTurn();
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
