// A course as members read it: the course list with their progress, a course
// with its chapters, the resume point and chapters marked done. Authoring is
// in authoring.server.ts.
import { and, asc, eq, sql } from "drizzle-orm";
import { type CourseUnlock, unlockOf } from "~/config/site";
import {
  type Holdings,
  holdingsOf,
  holdingsSql,
  opensCourse,
  userOpensCourseSql,
} from "../access.server";
import { type Db, rowsOf, type Tx } from "../db/client.server";
import { chapter, chapterProgress, chapterView, course, courseVisit } from "../db/schema";
import { logger } from "../logger.server";
import { withRetries } from "../retry.server";
import { productName } from "../settings/offer-settings.server";
import { type CatalogueCourse, catalogueAt, jsonList, sharedVersionSql } from "./catalogue.server";

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
  /**
   * Null when the member opens the course; else a locked card, naming the
   * product that opens it (null: no product does, for admins only).
   */
  locked: { unlock: CourseUnlock | null } | null;
};

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The order members see courses in: the admin's, then oldest first. */
export const courseOrder = [asc(course.sortOrder), asc(course.createdAt), asc(course.id)];

export function isUuid(value: string | null | undefined): value is string {
  return typeof value === "string" && uuidPattern.test(value);
}

/**
 * Every published course in the admin's order, with this member's progress
 * (of published chapters), first chapter and resume point: one statement for
 * what is the member's own, the courses from the catalogue (catalogue.server.ts).
 */
export async function listCourses(db: Db, userId: string): Promise<CourseCard[]> {
  return (await memberCourses(db, userId)).courses;
}

/** listCourses, and what the member holds (read in the same statement). */
async function memberCourses(
  db: Db,
  userId: string,
): Promise<{ courses: CourseCard[]; held: Holdings }> {
  const [row] = await rowsOf<{
    version: string | number;
    held: unknown;
    done: unknown;
    visits: unknown;
  }>(
    db,
    sql`select ${sharedVersionSql} as version, ${holdingsSql(userId)} as held,
      coalesce((select json_agg(chapter_id) from ${chapterProgress}
        where user_id = ${userId}), '[]') as done,
      coalesce((select json_agg(json_build_array(course_id, chapter_id)) from ${courseVisit}
        where user_id = ${userId}), '[]') as visits`,
  );
  const catalogue = await catalogueAt(db, Number(row?.version ?? 0));
  const held = holdingsOf(row?.held);
  const done = new Set(jsonList(row?.done).map(String));
  const visits = new Map<string, string | null>();
  for (const visit of jsonList(row?.visits)) {
    const [courseId, chapterId] = visit as [string, string | null];
    visits.set(String(courseId), chapterId == null ? null : String(chapterId));
  }
  // Drafts are never listed, nor counted: a member sees published courses and chapters only.
  const courses = catalogue.courses
    .filter((c) => c.published)
    .map((c) => {
      const chapters = c.publishedChapters;
      const last = visits.get(c.id);
      return {
        id: c.id,
        title: c.title,
        description: c.description,
        coverImageUrl: c.coverImageUrl,
        coverAlt: c.coverAlt,
        totalChapters: chapters.length,
        doneChapters: chapters.filter((ch) => done.has(ch.id)).length,
        firstChapterId: chapters[0]?.id ?? null,
        visited: visits.has(c.id),
        // Where the member was, unless that chapter has become a draft since.
        lastChapterId: last && chapters.some((ch) => ch.id === last) ? last : null,
        locked: opensCourse(held, c.products)
          ? null
          : { unlock: unlockOf(c.products, productName) },
      };
    });
  return { courses, held };
}

/**
 * The dashboard's courses: listCourses, tried three times (two retries:
 * docs/product.md, Training area). `failed` when every try failed; the error
 * is logged, not shown.
 */
export async function dashboardCourses(
  db: Db,
  userId: string,
): Promise<{ courses: CourseCard[]; failed: boolean; products: readonly string[] }> {
  try {
    const { courses, held } = await withRetries(() => memberCourses(db, userId), 2, "course list");
    return { courses, failed: false, products: held.products };
  } catch (error) {
    logger.error({ err: error }, "course list failed after retries");
    return { courses: [], failed: true, products: [] };
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
  /** Set when the member does not open the course (then no chapter is listed or shown). */
  locked: { unlock: CourseUnlock | null } | null;
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
 * admin's preview). Reads only: one statement for what is the member's own,
 * the course itself from the catalogue (catalogue.server.ts). openCourse also
 * remembers the chapter as the one last opened.
 */
export async function readCourse(
  db: Db,
  request: CourseRequest,
): Promise<MemberCourse | undefined> {
  if (!isUuid(request.courseId)) return undefined;
  return (await findCourse(db, request, false))?.course;
}

/**
 * readCourse's course, and the chapter the member had opened last before
 * (null: none yet). With `remember`, the chapter asked for (when it is one
 * the member may see) is remembered as the one last opened, in the same
 * statement that reads the member's progress (recordVisit's writes).
 */
async function findCourse(
  db: Db,
  { userId, courseId, chapterId = null, drafts = false }: CourseRequest,
  remember: boolean,
): Promise<{ course: MemberCourse; lastChapterId: string | null } | undefined> {
  const asked = remember && isUuid(chapterId) ? chapterId : null;
  // A visit is remembered only to a chapter the member may see, of a course they open.
  const visible = sql`${drafts ? sql`true` : sql`${chapter.published} and exists (select 1 from ${course} where ${course.id} = ${courseId} and ${course.published})`}
    and ${userOpensCourseSql(userId, chapter.courseId)}`;
  const [row] = await rowsOf<{
    version: string | number;
    held: unknown;
    last: string | null;
    done: unknown;
  }>(
    db,
    asked
      ? sql`with prev as (
          select chapter_id from ${courseVisit} where user_id = ${userId} and course_id = ${courseId}
        ), target as (
          select ${chapter.id} as id from ${chapter}
          where ${chapter.id} = ${asked} and ${chapter.courseId} = ${courseId} and ${visible}
        ), visit as (
          insert into ${courseVisit} (user_id, course_id, chapter_id)
          select ${userId}, ${courseId}::uuid, id from target
          on conflict (user_id, course_id) do update set chapter_id = excluded.chapter_id, visited_at = now()
          where ${courseVisit.chapterId} is distinct from excluded.chapter_id
        ), opened as (
          insert into ${chapterView} (user_id, chapter_id, course_id)
          select ${userId}, id, ${courseId}::uuid from target
          on conflict do nothing
        )
        select ${sharedVersionSql} as version, ${holdingsSql(userId)} as held,
          (select chapter_id from prev) as last,
          coalesce((select json_agg(chapter_id) from ${chapterProgress}
            where user_id = ${userId} and course_id = ${courseId}), '[]') as done`
      : sql`select ${sharedVersionSql} as version, ${holdingsSql(userId)} as held,
          (select chapter_id from ${courseVisit} where user_id = ${userId} and course_id = ${courseId}) as last,
          coalesce((select json_agg(chapter_id) from ${chapterProgress}
            where user_id = ${userId} and course_id = ${courseId}), '[]') as done`,
  );
  const catalogue = await catalogueAt(db, Number(row?.version ?? 0));
  const found = catalogue.byId.get(courseId);
  if (!found || !(found.published || drafts)) return undefined;
  if (!opensCourse(holdingsOf(row?.held), found.products)) {
    const locked = { unlock: unlockOf(found.products, productName) };
    return {
      course: { ...courseHead(found), chapters: [], selected: null, locked },
      lastChapterId: null,
    };
  }
  const list = drafts ? found.chapters : found.publishedChapters;
  const lastChapterId = row?.last == null ? null : String(row.last);
  const done = new Set(jsonList(row?.done).map(String));
  const has = (id: string | null): id is string => id !== null && list.some((c) => c.id === id);
  const selectedId = has(chapterId) ? chapterId : has(lastChapterId) ? lastChapterId : null;
  const selected = list.find((c) => c.id === selectedId) ?? list[0];
  return {
    course: {
      ...courseHead(found),
      locked: null,
      chapters: list.map((c) => ({ id: c.id, title: c.title, done: done.has(c.id) })),
      selected: selected
        ? {
            id: selected.id,
            title: selected.title,
            contentHtml: selected.contentHtml,
            published: selected.published,
          }
        : null,
    },
    lastChapterId,
  };
}

/** What a member page shows of a course before its chapters. */
function courseHead(c: CatalogueCourse) {
  return { id: c.id, title: c.title, description: c.description, published: c.published };
}

/**
 * A member's visit to a course (not a prefetch): readCourse, and the chapter
 * shown remembered as the one last opened. The chapter asked for is
 * remembered in the statement that reads the course; only a move writes, so a
 * visit to the same chapter leaves the database as it was
 * (page-cache.server.ts). Without one, the chapter shown (the one last
 * opened, else the first) is remembered after (recordVisit).
 */
export async function openCourse(
  db: Db,
  request: CourseRequest,
): Promise<MemberCourse | undefined> {
  if (!isUuid(request.courseId)) return undefined;
  const found = await findCourse(db, request, true);
  if (!found) return undefined;
  const { course, lastChapterId } = found;
  const selectedId = course.selected?.id;
  if (selectedId && selectedId !== lastChapterId && selectedId !== request.chapterId) {
    await recordVisit(db, request.userId, course.id, selectedId);
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
  // A chapter the member may see, of a course they open (the access rule in SQL).
  const visible = sql`${drafts ? sql`true` : sql`${chapter.published} and exists (select 1 from ${course} where ${course.id} = ${chapter.courseId} and ${course.published})`}
    and ${userOpensCourseSql(userId, chapter.courseId)}`;
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
