import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createUser } from "~/test/helpers";
import {
  createChapter,
  createCourse,
  dashboardCourses,
  deleteChapter,
  deleteCourse,
  listCourses,
  listCoursesForAdmin,
  moveChapter,
  readCourse,
  setChapterDone,
  updateChapter,
  updateCourse,
} from "./courses.server";
import { openDatabase } from "./db/client.server";
import { getDb } from "./db/db.server";
import { chapter, chapterProgress, course } from "./db/schema";
import { withRetries } from "./retry.server";

async function courseWith(titles: string[]) {
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

async function order(courseId: string) {
  const db = await getDb();
  const rows = await db
    .select({ title: chapter.title, sortOrder: chapter.sortOrder })
    .from(chapter)
    .where(eq(chapter.courseId, courseId))
    .orderBy(asc(chapter.sortOrder));
  return rows.map((r) => r.title);
}

describe("courses", () => {
  it("creates, updates and lists a course", async () => {
    const db = await getDb();
    const { id } = await createCourse(db, { title: "Draft", description: "" });
    expect(await updateCourse(db, id, { title: "Launch", description: "Go live" })).toBe(true);
    const all = await listCoursesForAdmin(db);
    expect(all.find((c) => c.id === id)).toMatchObject({
      title: "Launch",
      description: "Go live",
      chapters: [],
    });
    expect(
      await updateCourse(db, "00000000-0000-4000-8000-000000000000", {
        title: "x",
        description: "",
      }),
    ).toBe(false);
  });

  it("deletes a course with its chapters", async () => {
    const db = await getDb();
    const c = await courseWith(["One", "Two"]);
    expect(await deleteCourse(db, c.id)).toBe(true);
    expect(await db.select().from(course).where(eq(course.id, c.id))).toHaveLength(0);
    expect(await db.select().from(chapter).where(eq(chapter.courseId, c.id))).toHaveLength(0);
    expect(await deleteCourse(db, c.id)).toBe(false);
  });

  it("adds chapters at max + 1", async () => {
    const c = await courseWith(["One", "Two", "Three"]);
    const db = await getDb();
    const rows = await db
      .select({ s: chapter.sortOrder })
      .from(chapter)
      .where(eq(chapter.courseId, c.id))
      .orderBy(asc(chapter.sortOrder));
    expect(rows.map((r) => r.s)).toEqual([1, 2, 3]);
  });

  it("gives two concurrent inserts different positions", async () => {
    const db = await getDb();
    const c = await courseWith(["One"]);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        createChapter(db, { courseId: c.id, title: `P${i}`, contentHtml: "" }),
      ),
    );
    const positions = results.map((r) => r?.sortOrder);
    expect(new Set(positions).size).toBe(6);
    expect([...positions].sort()).toEqual([2, 3, 4, 5, 6, 7]);
  });

  it("refuses a chapter for a missing course", async () => {
    const db = await getDb();
    expect(
      await createChapter(db, {
        courseId: "00000000-0000-4000-8000-000000000000",
        title: "x",
        contentHtml: "",
      }),
    ).toBeUndefined();
  });

  it("moves chapters up and down by swapping with the neighbour, and not past the ends", async () => {
    const db = await getDb();
    const c = await courseWith(["A", "B", "C"]);
    const [a, b, cc] = c.chapters as [string, string, string];
    expect(await moveChapter(db, cc, "up")).toBe(true);
    expect(await order(c.id)).toEqual(["A", "C", "B"]);
    expect(await moveChapter(db, a, "down")).toBe(true);
    expect(await order(c.id)).toEqual(["C", "A", "B"]);
    expect(await moveChapter(db, cc, "up")).toBe(false);
    expect(await moveChapter(db, b, "down")).toBe(false);
    expect(await order(c.id)).toEqual(["C", "A", "B"]);
  });

  it("keeps positions distinct under concurrent moves", async () => {
    const db = await getDb();
    const c = await courseWith(["A", "B", "C", "D"]);
    await Promise.all(c.chapters.map((id, i) => moveChapter(db, id, i % 2 ? "up" : "down")));
    const rows = await db
      .select({ s: chapter.sortOrder })
      .from(chapter)
      .where(eq(chapter.courseId, c.id));
    expect(new Set(rows.map((r) => r.s)).size).toBe(4);
  });

  it("sanitizes chapter content on create and update", async () => {
    const db = await getDb();
    const c = await courseWith([]);
    const created = await createChapter(db, {
      courseId: c.id,
      title: "X",
      contentHtml: '<p onclick="x()">hi</p><script>alert(1)</script>',
    });
    const [row] = await db
      .select()
      .from(chapter)
      .where(eq(chapter.id, created?.id ?? ""));
    expect(row?.contentHtml).toBe("<p>hi</p>");
    await updateChapter(db, created?.id ?? "", {
      title: "Y",
      contentHtml: '<img src=x onerror=alert(1)><a href="javascript:alert(1)">l</a>',
    });
    const [updated] = await db
      .select()
      .from(chapter)
      .where(eq(chapter.id, created?.id ?? ""));
    expect(updated?.title).toBe("Y");
    expect(updated?.contentHtml).toBe('<a rel="noopener noreferrer">l</a>');
  });

  it("deletes a chapter", async () => {
    const db = await getDb();
    const c = await courseWith(["A", "B"]);
    expect(await deleteChapter(db, c.chapters[0] ?? "")).toBe(true);
    expect(await order(c.id)).toEqual(["B"]);
  });
});

describe("member reading and progress", () => {
  it("opens the first chapter, then the one asked for, and resumes at the last one viewed", async () => {
    const db = await getDb();
    const u = await createUser({ paid: true });
    const c = await courseWith(["A", "B", "C"]);
    expect((await readCourse(db, u.id, c.id, null))?.selected?.title).toBe("A");
    expect((await readCourse(db, u.id, c.id, c.chapters[1] ?? ""))?.selected?.title).toBe("B");
    expect((await readCourse(db, u.id, c.id, null))?.selected?.title).toBe("B");
    // An id from another course is ignored.
    const other = await courseWith(["Z"]);
    expect((await readCourse(db, u.id, c.id, other.chapters[0] ?? ""))?.selected?.title).toBe("B");
  });

  it("answers undefined for a malformed or unknown course", async () => {
    const db = await getDb();
    const u = await createUser({ paid: true });
    expect(await readCourse(db, u.id, "nope", null)).toBeUndefined();
    expect(
      await readCourse(db, u.id, "00000000-0000-4000-8000-000000000000", null),
    ).toBeUndefined();
  });

  it("marks chapters done and undone, per user, and counts them on the dashboard", async () => {
    const db = await getDb();
    const u = await createUser({ paid: true });
    const other = await createUser({ paid: true });
    const c = await courseWith(["A", "B", "C"]);
    expect(await setChapterDone(db, u.id, c.chapters[0] ?? "", true)).toBe(true);
    expect(await setChapterDone(db, u.id, c.chapters[0] ?? "", true)).toBe(true);
    expect(await setChapterDone(db, u.id, c.chapters[2] ?? "", true)).toBe(true);
    const read = await readCourse(db, u.id, c.id, null);
    expect(read?.chapters.map((ch) => ch.done)).toEqual([true, false, true]);
    expect((await listCourses(db, u.id)).find((x) => x.id === c.id)).toMatchObject({
      totalChapters: 3,
      doneChapters: 2,
    });
    expect((await listCourses(db, other.id)).find((x) => x.id === c.id)).toMatchObject({
      doneChapters: 0,
    });
    await setChapterDone(db, u.id, c.chapters[0] ?? "", false);
    expect((await listCourses(db, u.id)).find((x) => x.id === c.id)?.doneChapters).toBe(1);
    expect(await setChapterDone(db, u.id, "00000000-0000-4000-8000-000000000000", true)).toBe(
      false,
    );
    const rows = await db.select().from(chapterProgress).where(eq(chapterProgress.userId, u.id));
    expect(rows).toHaveLength(1);
  });
});

describe("the dashboard's course list", () => {
  it("is tried three times before it fails", async () => {
    let calls = 0;
    const flaky = () => {
      calls += 1;
      return calls < 3 ? Promise.reject(new Error(`try ${calls}`)) : Promise.resolve("listed");
    };
    expect(await withRetries(flaky, 2, "test")).toBe("listed");
    expect(calls).toBe(3);

    calls = 0;
    const broken = () => {
      calls += 1;
      return Promise.reject(new Error(`try ${calls}`));
    };
    await expect(withRetries(broken, 2, "test")).rejects.toThrow("try 3");
    expect(calls).toBe(3);
  });

  it("says it failed when the database is down, and lists when it is up", async () => {
    const member = await createUser({ paid: true });
    const { id } = await courseWith(["One", "Two"]);
    const listed = await dashboardCourses(await getDb(), member.id);
    expect(listed.failed).toBe(false);
    expect(listed.courses.find((c) => c.id === id)?.totalChapters).toBe(2);

    // A database that has been shut down: every query fails, as when the server is gone.
    const down = await openDatabase({ dataDir: "memory://", databaseUrl: undefined });
    await down.close();
    expect(await dashboardCourses(down.db, member.id)).toEqual({ courses: [], failed: true });
  });
});
