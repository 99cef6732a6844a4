// The owner's console, learning: for each course, who started it and who
// finished it; for each chapter, how many opened it and how many marked it
// done, so the owner sees where students stop. Counted by PostgreSQL with
// group by over chapter_view (first openings, recorded by readCourse) and
// chapter_progress (chapters marked done): three queries, whatever the
// number of members.
//
// A member has opened a chapter when it has a chapter_view row or a
// chapter_progress row (done implies opened, also for chapters marked done
// before openings were recorded); started a course when they opened any of
// its chapters; finished it when every chapter it has now is marked done.

import { sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { chapter, chapterProgress, chapterView, course } from "../db/schema";

export type ChapterFigures = {
  id: string;
  title: string;
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

async function rowsOf(db: Db, query: ReturnType<typeof sql>) {
  return ((await db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
}

/** Every course, oldest first, with its chapters in reading order and their figures. */
export async function learningReport(db: Db): Promise<CourseFigures[]> {
  const [chapters, courses] = await Promise.all([
    rowsOf(
      db,
      sql`
        with opened as (
          select chapter_id, count(*) as opened from (
            select user_id, chapter_id from ${chapterView}
            union
            select user_id, chapter_id from ${chapterProgress}
          ) o group by chapter_id
        ),
        done as (
          select chapter_id, count(*) as done from ${chapterProgress} group by chapter_id
        )
        select c.id, c.course_id, c.title, coalesce(opened.opened, 0) as opened,
          coalesce(done.done, 0) as done
        from ${chapter} c
          left join opened on opened.chapter_id = c.id
          left join done on done.chapter_id = c.id
        order by c.course_id, c.sort_order`,
    ),
    rowsOf(
      db,
      sql`
        with started as (
          select course_id, count(*) as started from (
            select user_id, course_id from ${chapterView}
            union
            select user_id, course_id from ${chapterProgress}
          ) s group by course_id
        ),
        chapters as (
          select course_id, count(*) as chapters from ${chapter} group by course_id
        ),
        finished as (
          select p.course_id, count(*) as finished
          from (
            select user_id, course_id, count(*) as done from ${chapterProgress}
            group by user_id, course_id
          ) p join chapters on chapters.course_id = p.course_id
          where p.done >= chapters.chapters
          group by p.course_id
        )
        select k.id, k.title, coalesce(started.started, 0) as started,
          coalesce(finished.finished, 0) as finished
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
