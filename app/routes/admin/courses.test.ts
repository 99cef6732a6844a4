import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it, onTestFinished } from "vitest";
import { createChapter, createCourse } from "~/server/courses/authoring.server";
import { getDb } from "~/server/db/db.server";
import { broadcast, chapter, course, emailOutbox } from "~/server/db/schema";
import { appRequest, cookieHeader, createUser, redirectTarget, run } from "~/test/helpers";
import * as admin from "./courses";

function post(form: Record<string, string>, cookie?: string) {
  return run(() =>
    admin.action({
      request: appRequest("/admin/courses", { cookie, form }),
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

type LoaderData = {
  courses: { id: string; title: string; published: boolean; chapters: { title: string }[] }[];
  notice: string | null;
};

function load(path: string, cookie: string) {
  return run(() =>
    admin.loader({ request: appRequest(path, { cookie }), params: {}, context: {} } as never),
  ) as Promise<{ data: LoaderData; init: { headers?: Headers } | null }>;
}

/** Follows an action's redirect as the browser does: what the next page says, and says only once. */
async function noticeAfter(result: unknown, cookie: string): Promise<string | null> {
  expect(result).toBeInstanceOf(Response);
  const flash = cookieHeader((result as Response).headers);
  const target = redirectTarget(result) ?? "/admin/courses";
  const page = await load(target, `${cookie}; ${flash}`);
  // The page clears the notice as it shows it.
  expect(page.init?.headers?.get("set-cookie")).toMatch(/ailabs\.admin_notice=;.*Max-Age=0/);
  return page.data.notice;
}

function failure(result: unknown) {
  const r = result as { init: { status: number }; data: { formError: string } };
  return { status: r.init.status, error: r.data.formError };
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
    { intent: "move-course", courseId: f.courseId, direction: "up" },
    { intent: "reorder-chapters", courseId: f.courseId, chapterIds: `${f.b},${f.a}` },
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
        request: appRequest("/admin/courses", { cookie: member.cookie }),
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
    const id = target.match(/^\/admin\/courses\?course=([0-9a-f-]{36})$/)?.[1] ?? "";
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
    ).toBe(`/admin/courses?course=${f.courseId}`);
    expect(
      redirectTarget(
        await post({ intent: "delete-course", courseId: f.courseId, expanded: f.courseId }, cookie),
      ),
    ).toBe("/admin/courses");
    expect(
      await (await getDb()).select().from(chapter).where(eq(chapter.courseId, f.courseId)),
    ).toHaveLength(0);
  });

  it("says what each action did, once, with the spec's chapter messages", async () => {
    const { cookie } = await createUser({ isAdmin: true });
    const f = await fixture();
    const said = async (form: Record<string, string>) =>
      noticeAfter(await post(form, cookie), cookie);
    expect(await said({ intent: "create-course", title: "Told", description: "" })).toBe(
      "Course created.",
    );
    expect(
      await said({
        intent: "update-course",
        courseId: f.courseId,
        title: "Told 2",
        description: "",
      }),
    ).toBe("Course updated.");
    expect(
      await said({
        intent: "create-chapter",
        courseId: f.courseId,
        title: " C ",
        content: "<p>c</p>",
      }),
    ).toBe("New chapter created successfully!");
    expect(
      await said({
        intent: "update-chapter",
        courseId: f.courseId,
        chapterId: f.a,
        title: "A2",
        content: "<p onclick=x>a2</p>",
      }),
    ).toBe("Chapter updated successfully!");
    const [row] = await (await getDb()).select().from(chapter).where(eq(chapter.id, f.a));
    expect(row).toMatchObject({ title: "A2", contentHtml: "<p>a2</p>" });
    expect(
      await said({ intent: "move-chapter", courseId: f.courseId, chapterId: f.b, direction: "up" }),
    ).toBe("Chapter moved.");
    expect(await said({ intent: "delete-chapter", courseId: f.courseId, chapterId: f.b })).toBe(
      "Chapter deleted.",
    );
    expect(await said({ intent: "delete-course", courseId: f.courseId })).toBe("Course deleted.");
    // Without the cookie, nothing is said.
    expect((await load("/admin/courses", cookie)).data.notice).toBeNull();
  });

  it("refuses an empty title, and a failed course action speaks of the course", async () => {
    const { cookie } = await createUser({ isAdmin: true });
    const f = await fixture();
    expect(
      failure(
        await post(
          { intent: "create-chapter", courseId: f.courseId, title: "   ", content: "" },
          cookie,
        ),
      ),
    ).toEqual({ status: 400, error: "Error saving chapter: Please enter a title for the chapter" });
    expect(
      failure(await post({ intent: "create-course", title: " ", description: "" }, cookie)),
    ).toEqual({
      status: 400,
      error: "Error saving course: Please enter a title for the course",
    });
    const gone = "00000000-0000-4000-8000-000000000000";
    expect(failure(await post({ intent: "delete-course", courseId: gone }, cookie))).toEqual({
      status: 404,
      error: "Error deleting course: Course not found",
    });
    expect(
      failure(
        await post({ intent: "delete-chapter", courseId: f.courseId, chapterId: gone }, cookie),
      ),
    ).toEqual({ status: 404, error: "Error deleting chapter: Chapter not found" });
    // The first chapter cannot go up: nothing moves, and the page says why.
    expect(
      failure(
        await post(
          { intent: "move-chapter", courseId: f.courseId, chapterId: f.a, direction: "up" },
          cookie,
        ),
      ),
    ).toEqual({ status: 409, error: "Error moving chapter: The chapter cannot move further" });
  });

  it("stores the Published switch, the cover and its description", async () => {
    const { cookie } = await createUser({ isAdmin: true });
    const cover = `/uploads/${crypto.randomUUID()}.png`;
    const created = await post(
      {
        intent: "create-course",
        title: "Drafted",
        description: "",
        published: "off",
        coverImageUrl: cover,
        coverAlt: "A laptop on a desk",
      },
      cookie,
    );
    const id = (redirectTarget(created) ?? "").split("=")[1] ?? "";
    // The cover names no stored file: on PostgreSQL the browser tests share this database.
    onTestFinished(async () => {
      await (await getDb()).delete(course).where(eq(course.id, id));
    });
    const [row] = await (await getDb()).select().from(course).where(eq(course.id, id));
    expect(row).toMatchObject({
      published: false,
      coverImageUrl: cover,
      coverAlt: "A laptop on a desk",
    });
    // The switch sends "off" then "on" when it is on: the last value wins.
    const form = new URLSearchParams({ intent: "update-course", courseId: id, title: "Drafted" });
    form.append("published", "off");
    form.append("published", "on");
    await post(Object.fromEntries(form), cookie);
    const request = appRequest("/admin/courses", { cookie });
    const published = await run(() =>
      admin.action({
        request: new Request(request.url, { method: "POST", headers: request.headers, body: form }),
        params: {},
        context: {},
      } as never),
    );
    expect(redirectTarget(published)).toBe(`/admin/courses?course=${id}`);
    const [after] = await (await getDb()).select().from(course).where(eq(course.id, id));
    expect(after).toMatchObject({ published: true, coverImageUrl: null, coverAlt: "" });

    // A cover must be one of our uploads, and described.
    expect(
      failure(
        await post(
          {
            intent: "create-course",
            title: "X",
            coverImageUrl: "https://evil.example/x.png",
            coverAlt: "x",
          },
          cookie,
        ),
      ).status,
    ).toBe(400);
    expect(
      failure(
        await post(
          { intent: "create-course", title: "X", coverImageUrl: cover, coverAlt: " " },
          cookie,
        ),
      ),
    ).toEqual({
      status: 400,
      error: "Error saving course: Please describe the cover image for people who cannot see it",
    });
  });

  it("orders courses, and reorders a course's chapters in one go", async () => {
    const { cookie } = await createUser({ isAdmin: true });
    const f = await fixture();
    const c = await createChapter(await getDb(), {
      courseId: f.courseId,
      title: "C",
      contentHtml: "",
    });
    const titles = async () =>
      (await load(`/admin/courses?course=${f.courseId}`, cookie)).data.courses
        .find((x) => x.id === f.courseId)
        ?.chapters.map((x) => x.title);
    const reorder = (ids: string[]) =>
      post({ intent: "reorder-chapters", courseId: f.courseId, chapterIds: ids.join(",") }, cookie);
    expect(await noticeAfter(await reorder([c?.id ?? "", f.a, f.b]), cookie)).toBe(
      "Chapter moved.",
    );
    expect(await titles()).toEqual(["C", "A", "B"]);
    // A list that is not exactly the course's chapters changes nothing.
    expect(failure(await reorder([f.a, f.b])).status).toBe(409);
    expect(failure(await reorder([f.a, f.a, f.b])).status).toBe(409);
    expect(await titles()).toEqual(["C", "A", "B"]);

    const g = await fixture();
    const order = async () =>
      (await load("/admin/courses", cookie)).data.courses
        .map((x) => x.id)
        .filter((x) => x === f.courseId || x === g.courseId);
    expect(await order()).toEqual([f.courseId, g.courseId]);
    expect(
      await noticeAfter(
        await post({ intent: "move-course", courseId: g.courseId, direction: "up" }, cookie),
        cookie,
      ),
    ).toBe("Course moved.");
    expect(await order()).toEqual([g.courseId, f.courseId]);
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

describe("announcing a chapter", () => {
  /** The accounts a chapter's announcement was queued to. */
  async function queuedTo(chapterId: string): Promise<string[]> {
    const rows = await (await getDb())
      .select({ userId: emailOutbox.userId })
      .from(emailOutbox)
      .innerJoin(broadcast, eq(broadcast.id, emailOutbox.broadcastId))
      .where(eq(broadcast.chapterId, chapterId));
    return rows.map((r) => r.userId ?? "");
  }

  it("e-mails the members who can open its course once, when the tick box is sent with the chapter published", async () => {
    const { cookie } = await createUser({ isAdmin: true });
    const f = await fixture();
    const paid = await createUser({ paid: true });
    const unpaid = await createUser();
    const save = (extra: Record<string, string>) =>
      post(
        {
          intent: "update-chapter",
          courseId: f.courseId,
          chapterId: f.a,
          title: "A, revised",
          content: "<p>a</p>",
          published: "on",
          ...extra,
        },
        cookie,
      );

    // Saved without the tick box: nothing is sent.
    expect(await noticeAfter(await save({}), cookie)).toBe("Chapter updated successfully!");
    expect(await queuedTo(f.a)).toEqual([]);

    const notice = await noticeAfter(await save({ announce: "on" }), cookie);
    expect(notice).toMatch(
      /^Chapter updated successfully! It is being e-mailed to the \d+ members who can open its course\.$/,
    );
    const to = await queuedTo(f.a);
    expect(to).toContain(paid.id);
    expect(to).not.toContain(unpaid.id);
    expect(notice).toContain(`the ${to.length} members`);
    const [sent] = await (await getDb())
      .select()
      .from(broadcast)
      .where(eq(broadcast.chapterId, f.a));
    expect(sent?.subject).toBe("New chapter: A, revised");
    expect(sent?.bodyHtml).toContain(`href="/course/${f.courseId}?chapter=${f.a}"`);

    // A second save with the box ticked (a resent form) sends nothing more.
    expect(await noticeAfter(await save({ announce: "on" }), cookie)).toBe(
      "Chapter updated successfully! It was announced before, so no e-mail was sent.",
    );
    expect(await queuedTo(f.a)).toHaveLength(to.length);
  });

  it("announces a new chapter as it is created", async () => {
    const { cookie } = await createUser({ isAdmin: true });
    const f = await fixture();
    const result = await post(
      {
        intent: "create-chapter",
        courseId: f.courseId,
        title: "Brand new",
        content: "<p>new</p>",
        published: "on",
        announce: "on",
      },
      cookie,
    );
    expect(await noticeAfter(result, cookie)).toMatch(
      /^New chapter created successfully! It is being e-mailed/,
    );
    const [created] = await (await getDb())
      .select({ id: chapter.id })
      .from(chapter)
      .where(and(eq(chapter.courseId, f.courseId), eq(chapter.title, "Brand new")));
    expect((await queuedTo(created?.id ?? "")).length).toBeGreaterThan(0);
  });

  it("refuses a draft chapter's announcement, and sends none for a draft course's chapter", async () => {
    const { cookie } = await createUser({ isAdmin: true });
    const f = await fixture();
    const draft = await post(
      {
        intent: "update-chapter",
        courseId: f.courseId,
        chapterId: f.a,
        title: "A",
        content: "<p>a</p>",
        published: "off",
        announce: "on",
      },
      cookie,
    );
    expect(failure(draft)).toEqual({
      status: 400,
      error: "Error saving chapter: Publish the chapter to announce it",
    });
    await (await getDb()).update(course).set({ published: false }).where(eq(course.id, f.courseId));
    const hidden = await post(
      {
        intent: "update-chapter",
        courseId: f.courseId,
        chapterId: f.b,
        title: "B",
        content: "<p>b</p>",
        published: "on",
        announce: "on",
      },
      cookie,
    );
    expect(await noticeAfter(hidden, cookie)).toBe(
      "Chapter updated successfully! Its course is a draft, so no e-mail was sent: members cannot open it yet.",
    );
    expect(await queuedTo(f.a)).toEqual([]);
    expect(await queuedTo(f.b)).toEqual([]);
  });
});
