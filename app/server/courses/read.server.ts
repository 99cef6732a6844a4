// A course as members read it: the course list with their progress, a course
// with its chapters, the resume point and chapters marked done. Authoring is
// in authoring.server.ts.
import { and, asc, countDistinct, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client.server";
import { chapter, chapterProgress, chapterView, course, courseVisit } from "../db/schema";
import { logger } from "../logger.server";
import { withRetries } from "../retry.server";

export type CourseCard = {
  id: string;
  title: string;
  description: string;
  /** An /uploads/ address and its text alternative, or null. */
  coverImageUrl: string | null;
  coverAlt: string;
  totalChapters: number;
  doneChapters: number;
  /** The course's first chapter, for "Start course" and "Review". */
  firstChapterId: string | null;
  /** The member has opened the course before (course_visit). */
  visited: boolean;
  /** The chapter the member last opened, to continue there. */
  lastChapterId: string | null;
};

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The order members see courses in: the admin's, then oldest first. */
export const courseOrder = [asc(course.sortOrder), asc(course.createdAt), asc(course.id)];

export function isUuid(value: string | null | undefined): value is string {
  return typeof value === "string" && uuidPattern.test(value);
}

/**
 * Every published course in the admin's order, with this member's progress
 * (of published chapters), first chapter and resume point: one query,
 * whatever the number of courses.
 */
export async function listCourses(db: Db, userId: string): Promise<CourseCard[]> {
  const rows = await db
    .select({
      id: course.id,
      title: course.title,
      description: course.description,
      coverImageUrl: course.coverImageUrl,
      coverAlt: course.coverAlt,
      totalChapters: countDistinct(chapter.id),
      doneChapters: countDistinct(chapterProgress.chapterId),
      firstChapterId: sql<
        string | null
      >`(array_agg(${chapter.id} order by ${chapter.sortOrder}))[1]`,
      visited: sql<boolean>`${courseVisit.userId} is not null`,
      // Where the member was, unless that chapter has become a draft since.
      lastChapterId: sql<
        string | null
      >`case when bool_or(${chapter.id} = ${courseVisit.chapterId}) then ${courseVisit.chapterId} end`,
    })
    .from(course)
    // Drafts are never listed, nor counted: a member sees published courses and chapters only.
    .leftJoin(chapter, and(eq(chapter.courseId, course.id), eq(chapter.published, true)))
    .leftJoin(
      chapterProgress,
      and(eq(chapterProgress.chapterId, chapter.id), eq(chapterProgress.userId, userId)),
    )
    // At most one row per course: course_visit's key is (user_id, course_id).
    .leftJoin(courseVisit, and(eq(courseVisit.courseId, course.id), eq(courseVisit.userId, userId)))
    .where(eq(course.published, true))
    .groupBy(course.id, courseVisit.userId, courseVisit.chapterId)
    .orderBy(...courseOrder);
  return rows.map((r) => ({
    ...r,
    totalChapters: Number(r.totalChapters),
    doneChapters: Number(r.doneChapters),
    firstChapterId: r.firstChapterId ?? null,
    visited: Boolean(r.visited),
  }));
}

/**
 * The dashboard's courses: listCourses, tried three times (two retries:
 * docs/product.md, Training area). `failed` when every try failed; the error
 * is logged, not shown.
 */
export async function dashboardCourses(
  db: Db,
  userId: string,
): Promise<{ courses: CourseCard[]; failed: boolean }> {
  try {
    return {
      courses: await withRetries(() => listCourses(db, userId), 2, "course list"),
      failed: false,
    };
  } catch (error) {
    logger.error({ err: error }, "course list failed after retries");
    return { courses: [], failed: true };
  }
}

export type MemberCourse = {
  id: string;
  title: string;
  description: string;
  /** False only in an admin's preview of a draft course. */
  published: boolean;
  chapters: { id: string; title: string; done: boolean }[];
  /** `published` is false only in an admin's preview of a draft chapter. */
  selected: { id: string; title: string; contentHtml: string; published: boolean } | null;
};

/** Which course, and chapter, a member (or an admin previewing) asks for. */
export type CourseRequest = {
  userId: string;
  courseId: string;
  /** The chapter asked for (?chapter=), if any. */
  chapterId?: string | null;
  /** True for an admin: drafts are shown as members will see them once published. */
  drafts?: boolean;
};

/**
 * A course as a member reads it: the chapter list with their progress and
 * the selected chapter (the one asked for, else the one last opened, else the
 * first). Undefined for an unknown or malformed id, and for a draft course.
 * Draft chapters are left out as if they did not exist, unless `drafts` (an
 * admin's preview). Reads only: three or four queries, whatever the number of
 * chapters. openCourse also remembers the chapter as the one last opened.
 */
export async function readCourse(
  db: Db,
  request: CourseRequest,
): Promise<MemberCourse | undefined> {
  return (await findCourse(db, request))?.course;
}

/** readCourse's course, and the chapter the member opened last (null: none yet). */
async function findCourse(
  db: Db,
  { userId, courseId, chapterId = null, drafts = false }: CourseRequest,
): Promise<{ course: MemberCourse; lastChapterId: string | null } | undefined> {
  if (!isUuid(courseId)) return undefined;
  const [found] = await db
    .select({
      id: course.id,
      title: course.title,
      description: course.description,
      published: course.published,
      lastChapterId: courseVisit.chapterId,
    })
    .from(course)
    .leftJoin(courseVisit, and(eq(courseVisit.courseId, course.id), eq(courseVisit.userId, userId)))
    .where(
      drafts ? eq(course.id, courseId) : and(eq(course.id, courseId), eq(course.published, true)),
    )
    .limit(1);
  if (!found) return undefined;
  const list = await db
    .select({
      id: chapter.id,
      title: chapter.title,
      done: sql<boolean>`${chapterProgress.chapterId} is not null`,
    })
    .from(chapter)
    .leftJoin(
      chapterProgress,
      and(eq(chapterProgress.chapterId, chapter.id), eq(chapterProgress.userId, userId)),
    )
    .where(
      drafts
        ? eq(chapter.courseId, courseId)
        : and(eq(chapter.courseId, courseId), eq(chapter.published, true)),
    )
    .orderBy(asc(chapter.sortOrder));
  const ids = new Set(list.map((c) => c.id));
  const selectedId =
    (chapterId && ids.has(chapterId) ? chapterId : null) ??
    (found.lastChapterId && ids.has(found.lastChapterId) ? found.lastChapterId : null) ??
    list[0]?.id ??
    null;
  let selected: MemberCourse["selected"] = null;
  if (selectedId) {
    const [row] = await db
      .select({
        id: chapter.id,
        title: chapter.title,
        contentHtml: chapter.contentHtml,
        published: chapter.published,
      })
      .from(chapter)
      .where(eq(chapter.id, selectedId))
      .limit(1);
    selected = row ?? null;
  }
  const read: MemberCourse = {
    id: found.id,
    title: found.title,
    description: found.description,
    published: found.published,
    chapters: list.map((c) => ({ ...c, done: Boolean(c.done) })),
    selected,
  };
  return { course: read, lastChapterId: found.lastChapterId };
}

/**
 * A member's visit to a course (not a prefetch): readCourse, and the chapter
 * shown remembered as the one last opened (recordVisit). Only a move writes,
 * so a visit to the same chapter leaves the database as it was
 * (page-cache.server.ts).
 */
export async function openCourse(
  db: Db,
  request: CourseRequest,
): Promise<MemberCourse | undefined> {
  const found = await findCourse(db, request);
  if (!found) return undefined;
  const { course, lastChapterId } = found;
  if (course.selected && course.selected.id !== lastChapterId) {
    await recordVisit(db, request.userId, course.id, course.selected.id);
  }
  return course;
}

/**
 * Remembers the chapter a member opened last in a course, and when it moved
 * there (an idempotent upsert), and the first time they opened that chapter
 * for /admin/learning (chapter_view, kept if already there): one statement.
 * chapter_view is shown on no member page, so it bumps no page version.
 */
export async function recordVisit(
  db: Db | Tx,
  userId: string,
  courseId: string,
  chapterId: string,
) {
  await db.execute(sql`
    with visit as (
      insert into ${courseVisit} (user_id, course_id, chapter_id)
      values (${userId}, ${courseId}, ${chapterId})
      on conflict (user_id, course_id)
      do update set chapter_id = excluded.chapter_id, visited_at = now()
    )
    insert into ${chapterView} (user_id, chapter_id, course_id)
    values (${userId}, ${chapterId}, ${courseId})
    on conflict do nothing`);
}

/**
 * Marks a chapter done or not done for a member. Idempotent; false for an
 * unknown chapter, and for a draft one (or one of a draft course) unless
 * `drafts` (an admin).
 */
export async function setChapterDone(
  db: Db,
  userId: string,
  chapterId: string,
  done: boolean,
  drafts = false,
): Promise<boolean> {
  if (!isUuid(chapterId)) return false;
  const visible = drafts
    ? sql`true`
    : sql`${chapter.published} and exists (select 1 from ${course} where ${course.id} = ${chapter.courseId} and ${course.published})`;
  if (!done) {
    await db
      .delete(chapterProgress)
      .where(and(eq(chapterProgress.userId, userId), eq(chapterProgress.chapterId, chapterId)));
    return true;
  }
  // A chapter marked done was opened: its chapter_view row is written with it, in the
  // same statement, if the opening was not recorded already (/admin/learning).
  const inserted = await db.execute(sql`
    with opened as (
      insert into ${chapterView} (user_id, chapter_id, course_id)
      select ${userId}, ${chapter.id}, ${chapter.courseId} from ${chapter} where ${chapter.id} = ${chapterId} and ${visible}
      on conflict do nothing
    )
    insert into ${chapterProgress} (user_id, chapter_id, course_id)
    select ${userId}, ${chapter.id}, ${chapter.courseId} from ${chapter} where ${chapter.id} = ${chapterId} and ${visible}
    on conflict do nothing
    returning 1`);
  if (rowCount(inserted) > 0) return true;
  const [exists] = await db
    .select({ id: chapter.id })
    .from(chapter)
    .where(and(eq(chapter.id, chapterId), visible));
  return Boolean(exists);
}

function rowCount(result: unknown): number {
  const r = result as { rows?: unknown[]; rowCount?: number | null; affectedRows?: number };
  return r.rows?.length ?? r.rowCount ?? r.affectedRows ?? 0;
}
