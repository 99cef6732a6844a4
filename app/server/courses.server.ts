import { and, asc, count, countDistinct, desc, eq, gt, lt, max, sql } from "drizzle-orm";
import { sanitizeChapterHtml } from "./content/sanitize.server";
import type { Db, Tx } from "./db/client.server";
import { chapter, chapterProgress, course, courseVisit } from "./db/schema";
import { logger } from "./logger.server";
import { withRetries } from "./retry.server";

export type CourseCard = {
  id: string;
  title: string;
  description: string;
  totalChapters: number;
  doneChapters: number;
};

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string | null | undefined): value is string {
  return typeof value === "string" && uuidPattern.test(value);
}

/** Every course, oldest first, with this member's progress: one query. */
export async function listCourses(db: Db, userId: string): Promise<CourseCard[]> {
  const rows = await db
    .select({
      id: course.id,
      title: course.title,
      description: course.description,
      totalChapters: countDistinct(chapter.id),
      doneChapters: countDistinct(chapterProgress.chapterId),
    })
    .from(course)
    .leftJoin(chapter, eq(chapter.courseId, course.id))
    .leftJoin(
      chapterProgress,
      and(eq(chapterProgress.chapterId, chapter.id), eq(chapterProgress.userId, userId)),
    )
    .groupBy(course.id)
    .orderBy(asc(course.createdAt), asc(course.id));
  return rows.map((r) => ({
    ...r,
    totalChapters: Number(r.totalChapters),
    doneChapters: Number(r.doneChapters),
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
  chapters: { id: string; title: string; done: boolean }[];
  selected: { id: string; title: string; contentHtml: string } | null;
};

/**
 * A course as a member reads it: the chapter list with their progress and
 * the selected chapter (the one asked for, else the one last opened, else the
 * first). Undefined for an unknown or malformed id. Four queries, whatever
 * the number of chapters.
 */
export async function readCourse(
  db: Db,
  userId: string,
  courseId: string,
  chapterId: string | null,
  /** False for a prefetch: only a real visit moves the resume point. */
  remember = true,
): Promise<MemberCourse | undefined> {
  if (!isUuid(courseId)) return undefined;
  const [found] = await db
    .select({
      id: course.id,
      title: course.title,
      description: course.description,
      lastChapterId: courseVisit.chapterId,
    })
    .from(course)
    .leftJoin(courseVisit, and(eq(courseVisit.courseId, course.id), eq(courseVisit.userId, userId)))
    .where(eq(course.id, courseId))
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
    .where(eq(chapter.courseId, courseId))
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
      .select({ id: chapter.id, title: chapter.title, contentHtml: chapter.contentHtml })
      .from(chapter)
      .where(eq(chapter.id, selectedId))
      .limit(1);
    selected = row ?? null;
    // Only a move writes: reading a course leaves the database as it was (page-cache.server.ts).
    if (remember && selectedId !== found.lastChapterId) {
      await recordVisit(db, userId, courseId, selectedId);
    }
  }
  return {
    id: found.id,
    title: found.title,
    description: found.description,
    chapters: list.map((c) => ({ ...c, done: Boolean(c.done) })),
    selected,
  };
}

/** Remembers the chapter a member opened last in a course, and when it moved there. Idempotent upsert. */
export async function recordVisit(
  db: Db | Tx,
  userId: string,
  courseId: string,
  chapterId: string,
) {
  await db
    .insert(courseVisit)
    .values({ userId, courseId, chapterId })
    .onConflictDoUpdate({
      target: [courseVisit.userId, courseVisit.courseId],
      set: { chapterId, visitedAt: new Date() },
    });
}

/** Marks a chapter done or not done for a member. Idempotent; false for an unknown chapter. */
export async function setChapterDone(
  db: Db,
  userId: string,
  chapterId: string,
  done: boolean,
): Promise<boolean> {
  if (!isUuid(chapterId)) return false;
  if (!done) {
    await db
      .delete(chapterProgress)
      .where(and(eq(chapterProgress.userId, userId), eq(chapterProgress.chapterId, chapterId)));
    return true;
  }
  const inserted = await db.execute(sql`
    insert into ${chapterProgress} (user_id, chapter_id, course_id)
    select ${userId}, ${chapter.id}, ${chapter.courseId} from ${chapter} where ${chapter.id} = ${chapterId}
    on conflict do nothing
    returning 1`);
  if (rowCount(inserted) > 0) return true;
  const [exists] = await db
    .select({ id: chapter.id })
    .from(chapter)
    .where(eq(chapter.id, chapterId));
  return Boolean(exists);
}

function rowCount(result: unknown): number {
  const r = result as { rows?: unknown[]; rowCount?: number | null; affectedRows?: number };
  return r.rows?.length ?? r.rowCount ?? r.affectedRows ?? 0;
}

// ---- Admin -------------------------------------------------------------------------------

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

export async function findChapterForEdit(db: Db, chapterId: string) {
  if (!isUuid(chapterId)) return undefined;
  const [row] = await db
    .select({
      id: chapter.id,
      courseId: chapter.courseId,
      title: chapter.title,
      contentHtml: chapter.contentHtml,
    })
    .from(chapter)
    .where(eq(chapter.id, chapterId))
    .limit(1);
  return row;
}

export async function createCourse(db: Db, input: { title: string; description: string }) {
  const [row] = await db
    .insert(course)
    .values({ title: input.title, description: input.description })
    .returning({ id: course.id });
  if (!row) throw new Error("course insert returned nothing");
  return row;
}

/** Updates a course; false when it does not exist. */
export async function updateCourse(
  db: Db,
  id: string,
  input: { title: string; description: string },
) {
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

/**
 * Adds a chapter at the end (sort_order = max + 1) inside one transaction
 * that holds the course row, so concurrent adds never share a position.
 * Content is sanitized here. Undefined when the course does not exist.
 */
export async function createChapter(
  db: Db,
  input: { courseId: string; title: string; contentHtml: string },
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
      .values({
        courseId: input.courseId,
        title: input.title,
        contentHtml: sanitizeChapterHtml(input.contentHtml),
        sortOrder,
      })
      .returning({ id: chapter.id, sortOrder: chapter.sortOrder });
    return row;
  });
}

/** Updates title and (sanitized) content in one statement; false when the chapter does not exist. */
export async function updateChapter(
  db: Db,
  id: string,
  input: { title: string; contentHtml: string },
): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db
    .update(chapter)
    .set({
      title: input.title,
      contentHtml: sanitizeChapterHtml(input.contentHtml),
      updatedAt: new Date(),
    })
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
