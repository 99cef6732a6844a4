import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { action as courseAction, loader as courseLoader } from "~/routes/members/course";
import { loader as dashboardLoader } from "~/routes/members/dashboard";
import { courseNotFoundQuery } from "~/routes/members/notices";
import { createUser, origin, type TestUser, withEnv } from "~/test/helpers";
import { respond } from "~/test/page-cache";
import { readSessionToken } from "../auth/session.server";
import { closeDatabase, getDb } from "../db/db.server";
import { readPageStamps } from "../db/page-version.server";
import { chapter, course } from "../db/schema";
import { getEnv } from "../env.server";
import { createPageCache } from "../http/page-cache.server";
import {
  createChapter,
  createCourse,
  moveCourse,
  updateChapter,
  updateCourse,
} from "./authoring.server";
import { listCourses, readCourse, setChapterDone } from "./read.server";

// The status rules (issue 13): a draft course or chapter is never in a member's
// dashboard, course page, prefetch or cached page; an admin previews it.

afterAll(closeDatabase);

/** Where a member asking for a course that is not there (or a draft) is sent. */
const notFound = `/dashboard?${courseNotFoundQuery}`;

const draft = { published: false };

async function courseOf(
  title: string,
  chapters: { title: string; published?: boolean }[],
  published = true,
) {
  const db = await getDb();
  const { id } = await createCourse(db, { title, description: "", published });
  const ids: string[] = [];
  for (const c of chapters) {
    const made = await createChapter(db, {
      courseId: id,
      title: c.title,
      contentHtml: `<p>${c.title} body</p>`,
      published: c.published,
    });
    ids.push(made?.id ?? "");
  }
  return { id, chapters: ids };
}

function get(path: string, who: TestUser, prefetch = false) {
  const headers = new Headers({ cookie: who.cookie, origin });
  if (prefetch) headers.set("sec-purpose", "prefetch");
  return new Request(`${origin}${path}`, { headers });
}

/** What the course page answers: its data, or where it redirects. */
async function coursePage(who: TestUser, courseId: string, query = "", prefetch = false) {
  try {
    const data = await courseLoader({
      request: get(`/course/${courseId}${query}`, who, prefetch),
      params: { courseId },
      context: {},
    } as never);
    return { data: data.course, redirect: null };
  } catch (thrown) {
    if (thrown instanceof Response) return { data: null, redirect: thrown.headers.get("location") };
    throw thrown;
  }
}

async function dashboardTitles(who: TestUser) {
  const result = (await dashboardLoader({
    request: get("/dashboard", who),
    params: {},
    context: {},
  } as never)) as {
    courses: { title: string }[];
  };
  return result.courses.map((c) => c.title);
}

describe("a draft course", () => {
  it("is on no member's dashboard, and its page, a prefetch and its chapters are out of reach", async () => {
    const db = await getDb();
    const member = await createUser({ paid: true });
    const title = `Draft ${crypto.randomUUID()}`;
    const c = await courseOf(title, [{ title: "One" }, { title: "Two" }], false);

    expect(await dashboardTitles(member)).not.toContain(title);
    expect((await listCourses(db, member.id)).map((x) => x.id)).not.toContain(c.id);
    expect(await coursePage(member, c.id)).toEqual({ data: null, redirect: notFound });
    expect(await coursePage(member, c.id, `?chapter=${c.chapters[0]}`)).toEqual({
      data: null,
      redirect: notFound,
    });
    expect(await coursePage(member, c.id, `?chapter=${c.chapters[0]}`, true)).toEqual({
      data: null,
      redirect: notFound,
    });
    expect(await readCourse(db, { userId: member.id, courseId: c.id })).toBeUndefined();

    // Marking one of its chapters done is refused as for a chapter that does not exist.
    expect(await setChapterDone(db, member.id, c.chapters[0] ?? "", true)).toBe(false);
    const request = new Request(`${origin}/course/${c.id}`, {
      method: "POST",
      headers: { cookie: member.cookie, origin },
      body: new URLSearchParams({ chapterId: c.chapters[0] ?? "", done: "true" }),
    });
    const answer = (await courseAction({
      request,
      params: { courseId: c.id },
      context: {},
    } as never)) as {
      init: { status: number };
    };
    expect(answer.init.status).toBe(404);

    // Published, it is there.
    await updateCourse(db, c.id, { title, description: "" });
    expect(await dashboardTitles(member)).toContain(title);
    expect((await coursePage(member, c.id, `?chapter=${c.chapters[0]}`)).data?.title).toBe(title);
  });

  it("is previewed by an admin exactly as members will read it, and still not listed on the admin's dashboard", async () => {
    const admin = await createUser({ isAdmin: true });
    const title = `Preview ${crypto.randomUUID()}`;
    const c = await courseOf(title, [{ title: "One" }, { title: "Two", ...draft }], false);
    const page = await coursePage(admin, c.id, `?chapter=${c.chapters[1]}`);
    expect(page.data).toMatchObject({
      title,
      published: false,
      chapters: [{ title: "One" }, { title: "Two" }],
      selected: { title: "Two", published: false, contentHtml: "<p>Two body</p>" },
    });
    expect(await dashboardTitles(admin)).not.toContain(title);
  });

  it("is not previewed by an admin who must turn two-factor on first", async () => {
    const admin = await createUser({ isAdmin: true });
    const c = await courseOf(`Held ${crypto.randomUUID()}`, [{ title: "One" }], false);
    await withEnv({ requireAdminTwoFactor: true }, async () => {
      expect((await coursePage(admin, c.id)).redirect).toBe(`/dashboard?${courseNotFoundQuery}`);
    });
    expect((await coursePage(admin, c.id)).redirect).toBe(
      `/course/${c.id}?chapter=${c.chapters[0]}`,
    );
  });
});

describe("a draft chapter of a published course", () => {
  it("is not listed, counted, opened by its address, resumed or prefetched for a member", async () => {
    const db = await getDb();
    const member = await createUser({ paid: true });
    const c = await courseOf(`Mixed ${crypto.randomUUID()}`, [
      { title: "One" },
      { title: "Two" },
      { title: "Three", ...draft },
    ]);
    const [one, two, three] = c.chapters as [string, string, string];

    const card = (await listCourses(db, member.id)).find((x) => x.id === c.id);
    expect(card?.totalChapters).toBe(2);
    const page = await coursePage(member, c.id, `?chapter=${one}`);
    expect(page.data?.chapters.map((x) => x.title)).toEqual(["One", "Two"]);
    // Its address leads to the chapter the member would otherwise see; a prefetch likewise.
    expect((await coursePage(member, c.id, `?chapter=${three}`)).redirect).toBe(
      `/course/${c.id}?chapter=${one}`,
    );
    expect((await coursePage(member, c.id, `?chapter=${three}`, true)).redirect).toBe(
      `/course/${c.id}?chapter=${one}`,
    );
    expect(await setChapterDone(db, member.id, three, true)).toBe(false);

    // A member resumed at a chapter that becomes a draft starts at the first one again.
    await coursePage(member, c.id, `?chapter=${two}`);
    expect((await readCourse(db, { userId: member.id, courseId: c.id }))?.selected?.title).toBe(
      "Two",
    );
    await updateChapter(db, two, {
      title: "Two",
      contentHtml: "<p>Two body</p>",
      published: false,
    });
    expect((await readCourse(db, { userId: member.id, courseId: c.id }))?.selected?.title).toBe(
      "One",
    );
    // The dashboard's Continue does not point at it either.
    expect((await listCourses(db, member.id)).find((x) => x.id === c.id)?.lastChapterId).toBeNull();
    // Chapters a member finished before one became a draft count only while published.
    await setChapterDone(db, member.id, one, true);
    expect((await listCourses(db, member.id)).find((x) => x.id === c.id)).toMatchObject({
      totalChapters: 1,
      doneChapters: 1,
    });
  });
});

describe("the member page cache", () => {
  it("never answers a member with a page showing a course or chapter that has become a draft", async () => {
    const db = await getDb();
    const env = getEnv();
    let renders = 0;
    const cache = createPageCache({
      readStamps: (tokens) => readPageStamps(db, tokens),
      sessionKey: (cookie) => readSessionToken(cookie ?? null, env.authSecret),
    });
    const open = async (who: TestUser, path: string) => {
      const courseId = /^\/course\/([^/?]+)/.exec(path)?.[1];
      const response = await respond(cache, get(path, who), async () => {
        renders += 1;
        try {
          const data = courseId
            ? await courseLoader({
                request: get(path, who),
                params: { courseId },
                context: {},
              } as never)
            : await dashboardLoader({ request: get(path, who), params: {}, context: {} } as never);
          return new Response(`<!doctype html><main>${JSON.stringify(data)}</main>`, {
            headers: { "content-type": "text/html; charset=utf-8" },
          });
        } catch (thrown) {
          if (thrown instanceof Response) return thrown;
          throw thrown;
        }
      });
      return response.headers.get("location")
        ? `redirect ${response.headers.get("location")}`
        : response.text();
    };

    const member = await createUser({ paid: true });
    const admin = await createUser({ isAdmin: true });
    const title = `Cached ${crypto.randomUUID()}`;
    const c = await courseOf(title, [{ title: "Open chapter" }, { title: "Soon hidden" }]);
    const first = `/course/${c.id}?chapter=${c.chapters[0]}`;
    await open(member, first); // the first visit writes the resume point
    const page = await open(member, first);
    expect(page).toContain("Soon hidden");
    expect(await open(member, "/dashboard")).toContain(title);
    const before = renders;
    expect(await open(member, first)).toBe(page);
    expect(renders).toBe(before);

    // A chapter turned into a draft leaves the member's kept course page at once.
    await db
      .update(chapter)
      .set({ published: false })
      .where(eq(chapter.id, c.chapters[1] ?? ""));
    expect(await open(member, first)).not.toContain("Soon hidden");

    // The admin's preview of a draft course is kept for the admin's session only.
    await db.update(course).set({ published: false }).where(eq(course.id, c.id));
    await open(admin, first);
    expect(await open(admin, first)).toContain("Soon hidden");
    expect(await open(member, first)).toBe(`redirect ${notFound}`);
    expect(await open(member, "/dashboard")).not.toContain(title);
  });
});

describe("the order members see courses in", () => {
  it("is the admin's, then the oldest first", async () => {
    const db = await getDb();
    const member = await createUser({ paid: true });
    const a = await courseOf(`Order A ${crypto.randomUUID()}`, []);
    const b = await courseOf(`Order B ${crypto.randomUUID()}`, []);
    const mine = async () =>
      (await listCourses(db, member.id))
        .map((x) => x.id)
        .filter((id) => id === a.id || id === b.id);
    expect(await mine()).toEqual([a.id, b.id]);
    expect(await moveCourse(db, b.id, "up")).toBe(true);
    expect(await mine()).toEqual([b.id, a.id]);
  });
});
