// The owner's console, learning: for each course, who started it and who
// finished it; for each chapter, how many opened it and how many marked it
// done, so the owner sees where students stop. Counted by PostgreSQL with
// group by: two queries, whatever the number of members.
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

import { sql } from "drizzle-orm";
import { type Db, rowsOf } from "../db/client.server";
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

/** Every course, oldest first, with its chapters in reading order and their figures. */
export async function learningReport(db: Db): Promise<CourseFigures[]> {
  const [chapters, courses] = await Promise.all([
    rowsOf(
      db,
      sql`
        select c.id, c.course_id, c.title, c.published, coalesce(opened.n, 0) as opened,
          coalesce(done.n, 0) as done
        from ${chapter} c
          left join (select v.chapter_id, count(*) as n from ${chapterView} v
              join ${user} u on u.id = v.user_id and not u.is_admin
            group by v.chapter_id) opened
            on opened.chapter_id = c.id
          left join (select pr.chapter_id, count(*) as n from ${chapterProgress} pr
              join ${user} u on u.id = pr.user_id and not u.is_admin
            group by pr.chapter_id) done
            on done.chapter_id = c.id
        order by c.course_id, c.sort_order`,
    ),
    rowsOf(
      db,
      sql`
        with started as (
          select course_id, count(*) as n
          from (select distinct v.course_id, v.user_id from ${chapterView} v
            join ${user} u on u.id = v.user_id and not u.is_admin) s
          group by course_id
        ),
        finished as (
          select p.course_id, count(*) as n
          from (
            select pr.user_id, pr.course_id, count(*) as done
            from ${chapterProgress} pr
              join ${chapter} c on c.id = pr.chapter_id and c.published
              join ${user} u on u.id = pr.user_id and not u.is_admin
            group by pr.user_id, pr.course_id
          ) p
          join (
            select course_id, count(*) as chapters from ${chapter} where published group by course_id
          ) k
            on k.course_id = p.course_id
          where p.done >= k.chapters
          group by p.course_id
        )
        select k.id, k.title, coalesce(started.n, 0) as started, coalesce(finished.n, 0) as finished
        from ${course} k
          left join started on started.course_id = k.id
          left join finished on finished.course_id = k.id
        order by k.created_at, k.id`,
    ),
  ]);
  const byCourse = new Map<string, ChapterFigures[]>();
  for (const r of chapters) {
    const list = byCourse.get(String(r.course_id)) ?? [];
    list.push({
      id: String(r.id),
      title: String(r.title),
      published: r.published === true || r.published === "t",
      opened: Number(r.opened),
      done: Number(r.done),
    });
    byCourse.set(String(r.course_id), list);
  }
  return courses.map((r) => {
    const started = Number(r.started);
    const finished = Number(r.finished);
    return {
      id: String(r.id),
      title: String(r.title),
      started,
      finished,
      completionRate: started > 0 ? finished / started : 0,
      chapters: byCourse.get(String(r.id)) ?? [],
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
