import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createUser } from "~/test/helpers";
import { createChapter, createCourse } from "../courses/authoring.server";
import { openCourse, readCourse, setChapterDone } from "../courses/read.server";
import { getDb } from "../db/db.server";
import { chapter, chapterView } from "../db/schema";
import { learningReport, recentLearningReport } from "./learning.server";

describe("the learning figures", () => {
  it("counts who started and finished each course, who opened and finished each chapter", async () => {
    const db = await getDb();
    const tag = randomUUID().slice(0, 8);
    const { id: courseId } = await createCourse(db, { title: `Learning ${tag}`, description: "" });
    const { id: emptyId } = await createCourse(db, { title: `Empty ${tag}`, description: "" });
    const chapters = [];
    for (const title of ["One", "Two", "Three"]) {
      const made = await createChapter(db, { courseId, title, contentHtml: `<p>${title}</p>` });
      if (!made) throw new Error("chapter not made");
      chapters.push(made.id);
    }
    const [c1, c2, c3] = chapters as [string, string, string];
    // One after another: the hashing queue answers "busy" past one sign-up waiting.
    const u1 = await createUser({ paid: true });
    const u2 = await createUser({ paid: true });
    const u3 = await createUser({ paid: true });
    const u4 = await createUser({ paid: true });

    // u1 opens the course (the first chapter), then Two, Two again, back to One;
    // marks all three done (Three without opening it: recorded as opened with it).
    await openCourse(db, { userId: u1.id, courseId });
    await openCourse(db, { userId: u1.id, courseId, chapterId: c2 });
    await openCourse(db, { userId: u1.id, courseId, chapterId: c2 });
    await openCourse(db, { userId: u1.id, courseId, chapterId: c1 });
    for (const id of chapters) await setChapterDone(db, u1.id, id, true);
    // u2 opens One and marks it done; a hover prefetch of Two is no opening.
    await openCourse(db, { userId: u2.id, courseId, chapterId: c1 });
    await setChapterDone(db, u2.id, c1, true);
    await readCourse(db, { userId: u2.id, courseId, chapterId: c2 });
    // u3 marks Two done without the page (a form post): the opening is recorded with it.
    await setChapterDone(db, u3.id, c2, true);
    // u4 opens the course without chapters: nothing to record.
    await openCourse(db, { userId: u4.id, courseId: emptyId });

    const views = async (userId: string) =>
      (await db.select().from(chapterView).where(eq(chapterView.userId, userId)))
        .map((v) => v.chapterId)
        .sort();
    expect(await views(u1.id)).toEqual([c1, c2, c3].sort());
    expect(await views(u2.id)).toEqual([c1]);
    expect(await views(u3.id)).toEqual([c2]);
    expect(await views(u4.id)).toEqual([]);

    const report = await learningReport(db);
    const mine = report.filter((c) => c.id === courseId || c.id === emptyId);
    expect(mine).toEqual([
      {
        id: courseId,
        title: `Learning ${tag}`,
        started: 3,
        finished: 1,
        completionRate: 1 / 3,
        chapters: [
          { id: c1, title: "One", published: true, opened: 2, done: 2 },
          { id: c2, title: "Two", published: true, opened: 2, done: 2 },
          { id: c3, title: "Three", published: true, opened: 1, done: 1 },
        ],
      },
      {
        id: emptyId,
        title: `Empty ${tag}`,
        started: 0,
        finished: 0,
        completionRate: 0,
        chapters: [],
      },
    ]);
    // Counted a few accounts a statement, the sums are the same.
    for (const chunkAccounts of [2, 3]) {
      expect(await learningReport(db, { chunkAccounts })).toEqual(report);
    }

    // A new chapter: nobody has finished the course any more.
    await createChapter(db, { courseId, title: "Four", contentHtml: "<p>4</p>" });
    const after = (await learningReport(db)).find((c) => c.id === courseId);
    expect(after).toMatchObject({ started: 3, finished: 0, completionRate: 0 });
    expect(after?.chapters.at(-1)).toMatchObject({ title: "Four", opened: 0, done: 0 });

    // Four as a draft: members cannot read it, so u1 has finished the course again. An
    // admin previewing the course (opening One, marking the draft done) is no student:
    // nothing of theirs is counted.
    const fourOnly = and(eq(chapter.courseId, courseId), eq(chapter.title, "Four"));
    await db.update(chapter).set({ published: false }).where(fourOnly);
    const admin = await createUser({ isAdmin: true });
    const [four] = await db.select().from(chapter).where(fourOnly);
    await openCourse(db, { userId: admin.id, courseId, chapterId: c1 });
    await setChapterDone(db, admin.id, four?.id ?? "", true, true);
    const drafted = (await learningReport(db)).find((c) => c.id === courseId);
    expect(drafted).toMatchObject({ started: 3, finished: 1 });
    expect(drafted?.chapters[0]).toMatchObject({ title: "One", opened: 2, done: 2 });
    expect(drafted?.chapters.at(-1)).toMatchObject({
      title: "Four",
      published: false,
      opened: 0,
      done: 0,
    });
  });

  it("counts again after a minute, or at once when asked to", async () => {
    const db = await getDb();
    const { id: courseId } = await createCourse(db, {
      title: `Kept ${randomUUID()}`,
      description: "",
    });
    const chaptersOf = async (options: { fresh?: boolean; now: number }) => {
      const report = await recentLearningReport(db, options);
      return {
        at: report.at,
        chapters: report.courses.find((c) => c.id === courseId)?.chapters.length,
      };
    };
    const t = 1_000_000_000_000;
    expect(await chaptersOf({ now: t, fresh: true })).toEqual({ at: t, chapters: 0 });
    await createChapter(db, { courseId, title: "One", contentHtml: "<p>1</p>" });
    expect(await chaptersOf({ now: t + 59_999 })).toEqual({ at: t, chapters: 0 });
    expect(await chaptersOf({ now: t + 60_000 })).toEqual({ at: t + 60_000, chapters: 1 });
    await createChapter(db, { courseId, title: "Two", contentHtml: "<p>2</p>" });
    expect(await chaptersOf({ now: t + 60_001, fresh: true })).toEqual({
      at: t + 60_001,
      chapters: 2,
    });
  });
});
