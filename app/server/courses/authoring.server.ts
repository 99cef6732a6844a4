// Courses and chapters as admins write them: create, edit, reorder, delete.
// Chapter content is sanitized on the way in. Members' reading is in read.server.ts.

import { and, asc, count, desc, eq, gt, lt, max, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import { accessProduct } from "~/config/site";
import type { AdminCourse } from "~/lib/course-authoring";
import { sanitizeChapterHtml } from "../content/sanitize.server";
import type { Db, Tx } from "../db/client.server";
import { broadcast, chapter, course, productCourse } from "../db/schema";
import { courseOrder, isUuid } from "./read.server";

/** Every course, drafts included, in the members' order, with its chapter titles in order: two queries. */
export async function listCoursesForAdmin(db: Db): Promise<AdminCourse[]> {
  const courses = await db
    .select({
      id: course.id,
      title: course.title,
      description: course.description,
      published: course.published,
      coverImageUrl: course.coverImageUrl,
      coverAlt: course.coverAlt,
    })
    .from(course)
    .orderBy(...courseOrder);
  const chapters = await db
    .select({
      id: chapter.id,
      courseId: chapter.courseId,
      title: chapter.title,
      sortOrder: chapter.sortOrder,
      published: chapter.published,
    })
    .from(chapter)
    .orderBy(asc(chapter.courseId), asc(chapter.sortOrder));
  const byCourse = new Map<string, AdminCourse["chapters"]>();
  for (const { courseId, ...c } of chapters) {
    const list = byCourse.get(courseId) ?? [];
    list.push(c);
    byCourse.set(courseId, list);
  }
  return courses.map((c) => ({ ...c, chapters: byCourse.get(c.id) ?? [] }));
}

/** What the chapter editor shows. */
const chapterForEdit = {
  id: chapter.id,
  courseId: chapter.courseId,
  title: chapter.title,
  contentHtml: chapter.contentHtml,
  published: chapter.published,
  /** When it was announced to the course's members by e-mail; null: never. */
  // Qualified by hand: Drizzle leaves a one-table select's columns unqualified.
  announcedAt: sql<Date | null>`(select b.created_at from ${broadcast} b
    where b.chapter_id = "chapter"."id")`.mapWith((v) => (v === null ? null : new Date(v))),
};

/** A chapter with its course, title and (stored, sanitized) content; undefined when there is none. */
export async function findChapterForEdit(db: Db, chapterId: string) {
  if (!isUuid(chapterId)) return undefined;
  const where = eq(chapter.id, chapterId);
  const [row] = await db.select(chapterForEdit).from(chapter).where(where).limit(1);
  return row;
}

/** A course as the admin writes it; a course is published and has no cover unless told. */
type CourseInput = {
  title: string;
  description: string;
  published?: boolean;
  /** An /uploads/ address, or "" for none. */
  coverImageUrl?: string;
  coverAlt?: string;
};

const storedCourse = (input: CourseInput) => ({
  title: input.title,
  description: input.description,
  published: input.published ?? true,
  coverImageUrl: input.coverImageUrl || null,
  coverAlt: input.coverImageUrl ? (input.coverAlt ?? "") : "",
});

/** Adds a course after the others (sort_order = max + 1): one statement. */
export async function createCourse(db: Db, input: CourseInput) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(course)
      .values({
        ...storedCourse(input),
        sortOrder: sql`(select coalesce(max(${course.sortOrder}), -1) + 1 from ${course})`,
      })
      .returning({ id: course.id });
    if (!row) throw new Error("course insert returned nothing");
    // A new course is for members: Lifetime Access opens it (the owner changes that on /admin/products).
    await tx.insert(productCourse).values({ product: accessProduct, courseId: row.id });
    return row;
  });
}

/**
 * Writes `values` and a new updated_at to the course or chapter `id`, in one
 * statement; false when it does not exist.
 */
async function updateById<T extends typeof course | typeof chapter>(
  db: Db,
  table: T,
  id: string,
  values: PgUpdateSetSource<T>,
): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db
    .update(table)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(table.id, id))
    .returning({ id: table.id });
  return rows.length > 0;
}

/** Updates a course; false when it does not exist. */
export async function updateCourse(db: Db, id: string, input: CourseInput) {
  return updateById(db, course, id, storedCourse(input));
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

/** A chapter as the admin writes it; published unless told. */
type ChapterText = { title: string; contentHtml: string; published?: boolean };

/** The chapter as stored: the content sanitized. */
const storedChapterText = (input: ChapterText) => ({
  title: input.title,
  contentHtml: sanitizeChapterHtml(input.contentHtml),
  published: input.published ?? true,
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
  return updateById(db, chapter, id, storedChapterText(input));
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

/**
 * Puts a course's chapters in the given order (every chapter of the course,
 * each once), in one transaction holding the course row: one statement
 * renumbers them 1..n. False when the course does not exist or the list is
 * not exactly its chapters (another admin added or deleted one meanwhile).
 */
export async function reorderChapters(
  db: Db,
  courseId: string,
  chapterIds: string[],
): Promise<boolean> {
  if (!isUuid(courseId) || !chapterIds.every(isUuid)) return false;
  return db.transaction(async (tx) => {
    if (!(await lockCourse(tx, courseId))) return false;
    const rows = await tx
      .select({ id: chapter.id })
      .from(chapter)
      .where(eq(chapter.courseId, courseId));
    const current = new Set(rows.map((r) => r.id));
    const wanted = new Set(chapterIds);
    if (
      wanted.size !== chapterIds.length ||
      wanted.size !== current.size ||
      !chapterIds.every((id) => current.has(id))
    ) {
      return false;
    }
    // The (course_id, sort_order) constraint is checked at commit, so the rows may pass
    // through duplicates while they are renumbered.
    await tx.execute(sql`
      update ${chapter} set sort_order = o.n
      from unnest(string_to_array(${chapterIds.join(",")}, ',')::uuid[]) with ordinality as o(id, n)
      where ${chapter.id} = o.id and ${chapter.courseId} = ${courseId}`);
    return true;
  });
}

/**
 * Moves a course one place up or down in the order members see, in one
 * transaction that locks every course row and renumbers them 0..n-1 (older
 * rows may share a sort_order). No-op (false) at either end or for an
 * unknown course.
 */
export async function moveCourse(db: Db, id: string, direction: "up" | "down"): Promise<boolean> {
  if (!isUuid(id)) return false;
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: course.id })
      .from(course)
      .orderBy(...courseOrder)
      .for("update");
    const ids = rows.map((r) => r.id);
    const from = ids.indexOf(id);
    const to = direction === "up" ? from - 1 : from + 1;
    if (from < 0 || to < 0 || to >= ids.length) return false;
    [ids[from], ids[to]] = [ids[to] as string, ids[from] as string];
    await tx.execute(sql`
      update ${course} set sort_order = o.n - 1
      from unnest(string_to_array(${ids.join(",")}, ',')::uuid[]) with ordinality as o(id, n)
      where ${course.id} = o.id and ${course.sortOrder} <> o.n - 1`);
    return true;
  });
}

export async function countChapters(db: Db, courseId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(chapter).where(eq(chapter.courseId, courseId));
  return row?.n ?? 0;
}
