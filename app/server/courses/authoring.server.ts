// Courses and chapters as admins write them: create, edit, reorder, delete.
// Chapter content is sanitized on the way in. Members' reading is in read.server.ts.
import { and, asc, count, desc, eq, gt, lt, max } from "drizzle-orm";
import { sanitizeChapterHtml } from "../content/sanitize.server";
import type { Db, Tx } from "../db/client.server";
import { chapter, course } from "../db/schema";
import { isUuid } from "./read.server";

export type AdminCourse = {
  id: string;
  title: string;
  description: string;
  chapters: { id: string; title: string; sortOrder: number }[];
};

/** Every course with its chapter titles in order: two queries. */
export async function listCoursesForAdmin(db: Db): Promise<AdminCourse[]> {
  const courses = await db
    .select({ id: course.id, title: course.title, description: course.description })
    .from(course)
    .orderBy(asc(course.createdAt), asc(course.id));
  const chapters = await db
    .select({
      id: chapter.id,
      courseId: chapter.courseId,
      title: chapter.title,
      sortOrder: chapter.sortOrder,
    })
    .from(chapter)
    .orderBy(asc(chapter.courseId), asc(chapter.sortOrder));
  const byCourse = new Map<string, AdminCourse["chapters"]>();
  for (const c of chapters) {
    const list = byCourse.get(c.courseId) ?? [];
    list.push({ id: c.id, title: c.title, sortOrder: c.sortOrder });
    byCourse.set(c.courseId, list);
  }
  return courses.map((c) => ({ ...c, chapters: byCourse.get(c.id) ?? [] }));
}

/** What the chapter editor shows. */
const chapterForEdit = {
  id: chapter.id,
  courseId: chapter.courseId,
  title: chapter.title,
  contentHtml: chapter.contentHtml,
};

/** A chapter with its course, title and (stored, sanitized) content; undefined when there is none. */
export async function findChapterForEdit(db: Db, chapterId: string) {
  if (!isUuid(chapterId)) return undefined;
  const where = eq(chapter.id, chapterId);
  const [row] = await db.select(chapterForEdit).from(chapter).where(where).limit(1);
  return row;
}

/** A course's text, as the admin writes it. */
type CourseText = { title: string; description: string };

export async function createCourse(db: Db, input: CourseText) {
  const [row] = await db
    .insert(course)
    .values({ title: input.title, description: input.description })
    .returning({ id: course.id });
  if (!row) throw new Error("course insert returned nothing");
  return row;
}

/** Updates a course; false when it does not exist. */
export async function updateCourse(db: Db, id: string, input: CourseText) {
  if (!isUuid(id)) return false;
  const rows = await db
    .update(course)
    .set({ ...input, updatedAt: new Date() })
    .where(eq(course.id, id))
    .returning({ id: course.id });
  return rows.length > 0;
}

/** Deletes a course and its chapters in one transaction; false when it does not exist. */
export async function deleteCourse(db: Db, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  return db.transaction(async (tx) => {
    await tx.delete(chapter).where(eq(chapter.courseId, id));
    const rows = await tx.delete(course).where(eq(course.id, id)).returning({ id: course.id });
    return rows.length > 0;
  });
}

/** Locks the course row, so that inserts and reorders of one course run one after another. */
async function lockCourse(tx: Tx, courseId: string): Promise<boolean> {
  const rows = await tx
    .select({ id: course.id })
    .from(course)
    .where(eq(course.id, courseId))
    .for("update");
  return rows.length > 0;
}

/** A chapter's title and content, as the admin writes them. */
type ChapterText = { title: string; contentHtml: string };

/** The chapter's text as stored: the content sanitized. */
const storedChapterText = (input: ChapterText) => ({
  title: input.title,
  contentHtml: sanitizeChapterHtml(input.contentHtml),
});

/**
 * Adds a chapter at the end (sort_order = max + 1) inside one transaction
 * that holds the course row, so concurrent adds never share a position.
 * Content is sanitized here. Undefined when the course does not exist.
 */
export async function createChapter(
  db: Db,
  input: ChapterText & { courseId: string },
): Promise<{ id: string; sortOrder: number } | undefined> {
  if (!isUuid(input.courseId)) return undefined;
  return db.transaction(async (tx) => {
    if (!(await lockCourse(tx, input.courseId))) return undefined;
    const [top] = await tx
      .select({ value: max(chapter.sortOrder) })
      .from(chapter)
      .where(eq(chapter.courseId, input.courseId));
    const sortOrder = (top?.value ?? 0) + 1;
    const [row] = await tx
      .insert(chapter)
      .values({ courseId: input.courseId, ...storedChapterText(input), sortOrder })
      .returning({ id: chapter.id, sortOrder: chapter.sortOrder });
    return row;
  });
}

/** Updates title and (sanitized) content in one statement; false when the chapter does not exist. */
export async function updateChapter(db: Db, id: string, input: ChapterText): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db
    .update(chapter)
    .set({ ...storedChapterText(input), updatedAt: new Date() })
    .where(eq(chapter.id, id))
    .returning({ id: chapter.id });
  return rows.length > 0;
}

export async function deleteChapter(db: Db, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db.delete(chapter).where(eq(chapter.id, id)).returning({ id: chapter.id });
  return rows.length > 0;
}

/**
 * Swaps a chapter's sort_order with its neighbour above or below, inside one
 * transaction holding the course row. No-op (false) at either end.
 */
export async function moveChapter(db: Db, id: string, direction: "up" | "down"): Promise<boolean> {
  if (!isUuid(id)) return false;
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ id: chapter.id, courseId: chapter.courseId })
      .from(chapter)
      .where(eq(chapter.id, id));
    if (!current || !(await lockCourse(tx, current.courseId))) return false;
    // Re-read under the lock: another reorder may have moved it meanwhile.
    const [me] = await tx
      .select({ id: chapter.id, sortOrder: chapter.sortOrder })
      .from(chapter)
      .where(eq(chapter.id, id));
    if (!me) return false;
    const [neighbour] = await tx
      .select({ id: chapter.id, sortOrder: chapter.sortOrder })
      .from(chapter)
      .where(
        and(
          eq(chapter.courseId, current.courseId),
          direction === "up"
            ? lt(chapter.sortOrder, me.sortOrder)
            : gt(chapter.sortOrder, me.sortOrder),
        ),
      )
      .orderBy(direction === "up" ? desc(chapter.sortOrder) : asc(chapter.sortOrder))
      .limit(1);
    if (!neighbour) return false;
    await tx.update(chapter).set({ sortOrder: neighbour.sortOrder }).where(eq(chapter.id, me.id));
    await tx.update(chapter).set({ sortOrder: me.sortOrder }).where(eq(chapter.id, neighbour.id));
    return true;
  });
}

export async function countChapters(db: Db, courseId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(chapter).where(eq(chapter.courseId, courseId));
  return row?.n ?? 0;
}
