import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createChapter, createCourse } from "~/server/courses/authoring.server";
import { getDb } from "~/server/db/db.server";
import { chapter, course } from "~/server/db/schema";
import { appRequest, createUser, redirectTarget, run } from "~/test/helpers";
import * as admin from "./admin";

function post(form: Record<string, string>, cookie?: string) {
  return run(() =>
    admin.action({
      request: appRequest("/admin", { cookie, form }),
      params: {},
      context: {},
    } as never),
  );
}

async function snapshot() {
  const db = await getDb();
  return {
    courses: await db.select().from(course).orderBy(asc(course.id)),
    chapters: await db.select().from(chapter).orderBy(asc(chapter.id)),
  };
}

async function fixture() {
  const db = await getDb();
  const { id: courseId } = await createCourse(db, { title: "Fixture", description: "d" });
  const a = await createChapter(db, { courseId, title: "A", contentHtml: "<p>a</p>" });
  const b = await createChapter(db, { courseId, title: "B", contentHtml: "<p>b</p>" });
  return { courseId, a: a?.id ?? "", b: b?.id ?? "" };
}

function everyAction(f: { courseId: string; a: string; b: string }): Record<string, string>[] {
  return [
    { intent: "create-course", title: "Hijack", description: "" },
    { intent: "update-course", courseId: f.courseId, title: "Hijacked", description: "" },
    { intent: "delete-course", courseId: f.courseId },
    { intent: "create-chapter", courseId: f.courseId, title: "Injected", content: "<p>x</p>" },
    {
      intent: "update-chapter",
      courseId: f.courseId,
      chapterId: f.a,
      title: "Hijacked",
      content: "<p>x</p>",
    },
    { intent: "delete-chapter", courseId: f.courseId, chapterId: f.a },
    { intent: "move-chapter", courseId: f.courseId, chapterId: f.b, direction: "up" },
  ];
}

describe("admin actions refuse everyone but admins", () => {
  it.each([
    ["a visitor", undefined],
    ["an unpaid user", {}],
    ["a paid member", { paid: true }],
  ] as const)("%s: every action is refused and nothing changes", async (_who, options) => {
    const f = await fixture();
    const cookie = options ? (await createUser(options)).cookie : undefined;
    const before = await snapshot();
    for (const form of everyAction(f)) {
      const result = await post(form, cookie);
      expect(redirectTarget(result), form.intent).toBe("/dashboard");
    }
    expect(await snapshot()).toEqual(before);
  });

  it("the loader refuses them too", async () => {
    const member = await createUser({ paid: true });
    const result = await run(() =>
      admin.loader({
        request: appRequest("/admin", { cookie: member.cookie }),
        params: {},
        context: {},
      } as never),
    );
    expect(redirectTarget(result)).toBe("/dashboard");
  });
});

describe("admin actions for an admin", () => {
  it("creating a course expands and selects it", async () => {
    const { cookie } = await createUser({ isAdmin: true });
    const result = await post(
      { intent: "create-course", title: "  New course  ", description: "About" },
      cookie,
    );
    const target = redirectTarget(result) ?? "";
    const id = target.match(/^\/admin\?course=([0-9a-f-]{36})$/)?.[1] ?? "";
    const [row] = await (await getDb()).select().from(course).where(eq(course.id, id));
    expect(row).toMatchObject({ title: "New course", description: "About" });
  });

  it("deleting the expanded course collapses it; deleting another keeps the expanded one open", async () => {
    const { cookie } = await createUser({ isAdmin: true });
    const f = await fixture();
    const g = await fixture();
    expect(
      redirectTarget(
        await post({ intent: "delete-course", courseId: g.courseId, expanded: f.courseId }, cookie),
      ),
    ).toBe(`/admin?course=${f.courseId}`);
    expect(
      redirectTarget(
        await post({ intent: "delete-course", courseId: f.courseId, expanded: f.courseId }, cookie),
      ),
    ).toBe("/admin");
    expect(
      await (await getDb()).select().from(chapter).where(eq(chapter.courseId, f.courseId)),
    ).toHaveLength(0);
  });

  it("saves chapters with the documented messages and refuses an empty title", async () => {
    const { cookie } = await createUser({ isAdmin: true });
    const f = await fixture();
    const created = (await post(
      { intent: "create-chapter", courseId: f.courseId, title: " C ", content: "<p>c</p>" },
      cookie,
    )) as { message: string };
    expect(created.message).toBe("New chapter created successfully!");
    const updated = (await post(
      {
        intent: "update-chapter",
        courseId: f.courseId,
        chapterId: f.a,
        title: "A2",
        content: "<p onclick=x>a2</p>",
      },
      cookie,
    )) as { message: string };
    expect(updated.message).toBe("Chapter updated successfully!");
    const [row] = await (await getDb()).select().from(chapter).where(eq(chapter.id, f.a));
    expect(row).toMatchObject({ title: "A2", contentHtml: "<p>a2</p>" });
    const empty = (await post(
      { intent: "create-chapter", courseId: f.courseId, title: "   ", content: "" },
      cookie,
    )) as {
      init: { status: number };
      data: { error: string };
    };
    expect(empty.init.status).toBe(400);
    expect(empty.data.error).toBe("Error saving chapter: Please enter a title for the chapter");
  });

  it("answers 400 for malformed input instead of failing", async () => {
    const { cookie } = await createUser({ isAdmin: true });
    const forms: Record<string, string>[] = [
      {},
      { intent: "drop-tables" },
      { intent: "move-chapter", courseId: "x", chapterId: "y", direction: "sideways" },
    ];
    for (const form of forms) {
      const result = (await post(form, cookie)) as { init: { status: number } };
      expect(result.init.status).toBe(400);
    }
  });
});
