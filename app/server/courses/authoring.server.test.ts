import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../db/db.server";
import { chapter, course } from "../db/schema";
import * as authoring from "./authoring.server";
import { chapterRow, courseWith, order } from "./fixtures";

describe("courses", () => {
  it("creates, updates and lists a course", async () => {
    const db = await getDb();
    const { id } = await authoring.createCourse(db, { title: "Draft", description: "" });
    expect(await authoring.updateCourse(db, id, { title: "Launch", description: "Go live" })).toBe(
      true,
    );
    const all = await authoring.listCoursesForAdmin(db);
    expect(all.find((c) => c.id === id)).toMatchObject({
      title: "Launch",
      description: "Go live",
      chapters: [],
    });
    expect(
      await authoring.updateCourse(db, "00000000-0000-4000-8000-000000000000", {
        title: "x",
        description: "",
      }),
    ).toBe(false);
  });

  it("deletes a course with its chapters", async () => {
    const db = await getDb();
    const c = await courseWith(["One", "Two"]);
    expect(await authoring.deleteCourse(db, c.id)).toBe(true);
    expect(await db.select().from(course).where(eq(course.id, c.id))).toHaveLength(0);
    expect(await db.select().from(chapter).where(eq(chapter.courseId, c.id))).toHaveLength(0);
    expect(await authoring.deleteCourse(db, c.id)).toBe(false);
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
        authoring.createChapter(db, { courseId: c.id, title: `P${i}`, contentHtml: "" }),
      ),
    );
    const positions = results.map((r) => r?.sortOrder);
    expect(new Set(positions).size).toBe(6);
    expect([...positions].sort()).toEqual([2, 3, 4, 5, 6, 7]);
  });

  it("refuses a chapter for a missing course", async () => {
    const db = await getDb();
    expect(
      await authoring.createChapter(db, {
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
    expect(await authoring.moveChapter(db, cc, "up")).toBe(true);
    expect(await order(c.id)).toEqual(["A", "C", "B"]);
    expect(await authoring.moveChapter(db, a, "down")).toBe(true);
    expect(await order(c.id)).toEqual(["C", "A", "B"]);
    expect(await authoring.moveChapter(db, cc, "up")).toBe(false);
    expect(await authoring.moveChapter(db, b, "down")).toBe(false);
    expect(await order(c.id)).toEqual(["C", "A", "B"]);
  });

  it("keeps positions distinct under concurrent moves", async () => {
    const db = await getDb();
    const c = await courseWith(["A", "B", "C", "D"]);
    await Promise.all(
      c.chapters.map((id, i) => authoring.moveChapter(db, id, i % 2 ? "up" : "down")),
    );
    const rows = await db
      .select({ s: chapter.sortOrder })
      .from(chapter)
      .where(eq(chapter.courseId, c.id));
    expect(new Set(rows.map((r) => r.s)).size).toBe(4);
  });

  it("sanitizes chapter content on create and update", async () => {
    const db = await getDb();
    const c = await courseWith([]);
    const created = await authoring.createChapter(db, {
      courseId: c.id,
      title: "X",
      contentHtml: '<p onclick="x()">hi</p><script>alert(1)</script>',
    });
    const row = await chapterRow(created?.id ?? "");
    expect(row?.contentHtml).toBe("<p>hi</p>");
    await authoring.updateChapter(db, created?.id ?? "", {
      title: "Y",
      contentHtml: '<img src=x onerror=alert(1)><a href="javascript:alert(1)">l</a>',
    });
    const updated = await chapterRow(created?.id ?? "");
    expect(updated?.title).toBe("Y");
    expect(updated?.contentHtml).toBe('<a rel="noopener noreferrer">l</a>');
  });

  it("deletes a chapter", async () => {
    const db = await getDb();
    const c = await courseWith(["A", "B"]);
    expect(await authoring.deleteChapter(db, c.chapters[0] ?? "")).toBe(true);
    expect(await order(c.id)).toEqual(["B"]);
  });
});
