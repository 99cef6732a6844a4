import { eq } from "drizzle-orm";
import { describe, expect, it, onTestFinished } from "vitest";
import { createUser } from "~/test/helpers";
import { openDatabase } from "../db/client.server";
import { getDb } from "../db/db.server";
import { chapter, chapterProgress, course, courseVisit } from "../db/schema";
import { withRetries } from "../retry.server";
import { courseWith } from "./fixtures";
import {
  dashboardCourses,
  listCourses,
  openCourse,
  readCourse,
  setChapterDone,
} from "./read.server";

describe("member reading and progress", () => {
  it("opens the first chapter, then the one asked for, and resumes at the last one viewed", async () => {
    const db = await getDb();
    const u = await createUser({ paid: true });
    const c = await courseWith(["A", "B", "C"]);
    expect((await openCourse(db, { userId: u.id, courseId: c.id }))?.selected?.title).toBe("A");
    expect(
      (await openCourse(db, { userId: u.id, courseId: c.id, chapterId: c.chapters[1] ?? "" }))
        ?.selected?.title,
    ).toBe("B");
    expect((await openCourse(db, { userId: u.id, courseId: c.id }))?.selected?.title).toBe("B");
    // An id from another course is ignored.
    const other = await courseWith(["Z"]);
    expect(
      (await openCourse(db, { userId: u.id, courseId: c.id, chapterId: other.chapters[0] ?? "" }))
        ?.selected?.title,
    ).toBe("B");
  });

  it("answers undefined for a malformed or unknown course", async () => {
    const db = await getDb();
    const u = await createUser({ paid: true });
    expect(await readCourse(db, { userId: u.id, courseId: "nope" })).toBeUndefined();
    expect(await openCourse(db, { userId: u.id, courseId: "nope" })).toBeUndefined();
    expect(
      await openCourse(db, { userId: u.id, courseId: "00000000-0000-4000-8000-000000000000" }),
    ).toBeUndefined();
  });

  it("reading (a prefetch) writes nothing: only opening moves the resume point", async () => {
    const db = await getDb();
    const u = await createUser({ paid: true });
    const c = await courseWith(["A", "B"]);
    const b = c.chapters[1] ?? "";
    expect(
      (await readCourse(db, { userId: u.id, courseId: c.id, chapterId: b }))?.selected?.title,
    ).toBe("B");
    const visits = () => db.select().from(courseVisit).where(eq(courseVisit.userId, u.id));
    expect(await visits()).toEqual([]);
    expect((await readCourse(db, { userId: u.id, courseId: c.id }))?.selected?.title).toBe("A");
    await openCourse(db, { userId: u.id, courseId: c.id, chapterId: b });
    expect(await visits()).toMatchObject([{ courseId: c.id, chapterId: b }]);
    expect((await readCourse(db, { userId: u.id, courseId: c.id }))?.selected?.title).toBe("B");
  });

  it("marks chapters done and undone, per user, and counts them on the dashboard", async () => {
    const db = await getDb();
    const u = await createUser({ paid: true });
    const other = await createUser({ paid: true });
    const c = await courseWith(["A", "B", "C"]);
    expect(await setChapterDone(db, u.id, c.chapters[0] ?? "", true)).toBe(true);
    expect(await setChapterDone(db, u.id, c.chapters[0] ?? "", true)).toBe(true);
    expect(await setChapterDone(db, u.id, c.chapters[2] ?? "", true)).toBe(true);
    const read = await openCourse(db, { userId: u.id, courseId: c.id });
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
  it("gives each course its cover, first chapter and the member's resume point", async () => {
    const db = await getDb();
    const u = await createUser({ paid: true });
    const other = await createUser({ paid: true });
    const c = await courseWith(["A", "B", "C"]);
    await db
      .update(course)
      .set({ coverImageUrl: "/uploads/cover.png", coverAlt: "A desk" })
      .where(eq(course.id, c.id));
    // The cover names no stored file: on PostgreSQL the browser tests share this database.
    onTestFinished(async () => {
      await db.delete(course).where(eq(course.id, c.id));
    });
    const empty = await courseWith([]);
    const cardOf = async (userId: string, id: string) =>
      (await listCourses(db, userId)).find((x) => x.id === id);

    expect(await cardOf(u.id, c.id)).toMatchObject({
      coverImageUrl: "/uploads/cover.png",
      coverAlt: "A desk",
      totalChapters: 3,
      doneChapters: 0,
      firstChapterId: c.chapters[0],
      visited: false,
      lastChapterId: null,
    });
    expect(await cardOf(u.id, empty.id)).toMatchObject({
      coverImageUrl: null,
      coverAlt: "",
      totalChapters: 0,
      firstChapterId: null,
      visited: false,
    });

    await openCourse(db, { userId: u.id, courseId: c.id, chapterId: c.chapters[1] ?? "" });
    await setChapterDone(db, u.id, c.chapters[0] ?? "", true);
    expect(await cardOf(u.id, c.id)).toMatchObject({
      doneChapters: 1,
      firstChapterId: c.chapters[0],
      visited: true,
      lastChapterId: c.chapters[1],
    });
    // Another member's visit and progress are theirs alone.
    expect(await cardOf(other.id, c.id)).toMatchObject({
      doneChapters: 0,
      visited: false,
      lastChapterId: null,
    });
    // A deleted resume chapter leaves the visit, without a chapter.
    await db.delete(chapter).where(eq(chapter.id, c.chapters[1] ?? ""));
    expect(await cardOf(u.id, c.id)).toMatchObject({
      totalChapters: 2,
      visited: true,
      lastChapterId: null,
    });
    // One row per course, whatever the number of members who visited it.
    const ids = (await listCourses(db, u.id)).map((x) => x.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

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
    expect(await dashboardCourses(down.db, member.id)).toEqual({
      courses: [],
      failed: true,
      products: [],
    });
  });
});
