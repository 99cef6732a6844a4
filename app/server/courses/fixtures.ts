// Test fixtures for the course modules' tests.
import { asc, eq } from "drizzle-orm";
import { getDb } from "../db/db.server";
import { chapter } from "../db/schema";
import { createChapter, createCourse } from "./authoring.server";

/** A new course with one chapter per title, in order. */
export async function courseWith(titles: string[]) {
  const db = await getDb();
  const { id } = await createCourse(db, {
    title: `Course ${crypto.randomUUID()}`,
    description: "About it",
  });
  const chapters = [];
  for (const title of titles)
    chapters.push(await createChapter(db, { courseId: id, title, contentHtml: `<p>${title}</p>` }));
  return { id, chapters: chapters.map((c) => c?.id ?? "") };
}

/** The chapter titles of a course in their order. */
export async function order(courseId: string) {
  const db = await getDb();
  const rows = await db
    .select({ title: chapter.title, sortOrder: chapter.sortOrder })
    .from(chapter)
    .where(eq(chapter.courseId, courseId))
    .orderBy(asc(chapter.sortOrder));
  return rows.map((r) => r.title);
}

/** A chapter's row as stored, or undefined. */
export async function chapterRow(id: string) {
  const [row] = await (await getDb()).select().from(chapter).where(eq(chapter.id, id));
  return row;
}
