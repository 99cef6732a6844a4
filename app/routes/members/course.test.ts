import { describe, expect, it } from "vitest";
import { courseWith } from "~/server/courses/fixtures";
import { type MemberCourse, readCourse } from "~/server/courses/read.server";
import { getDb } from "~/server/db/db.server";
import { appRequest, createUser, redirectTarget, run } from "~/test/helpers";
import { action } from "./course";

/** The course page's action, as the Mark as complete form posts it. */
function post(cookie: string, courseId: string, form: Record<string, string>) {
  const request = appRequest(`/course/${courseId}`, { cookie, form });
  return run(() => action({ request, params: { courseId }, context: {} } as never));
}

const statusOf = (result: unknown) =>
  (result as { init?: { status?: number } | null }).init?.status ?? 200;

describe("Mark as complete on the course page", () => {
  it("marks the chapter done and moves on to the next chapter the page names", async () => {
    const member = await createUser({ paid: true });
    const c = await courseWith(["A", "B", "C"]);
    const [a, b] = c.chapters as [string, string, string];
    const result = await post(member.cookie, c.id, { chapterId: a, done: "true", next: b });
    expect(redirectTarget(result)).toBe(`/course/${c.id}?chapter=${b}`);
    const read = await readCourse(await getDb(), { userId: member.id, courseId: c.id });
    expect(read?.chapters.map((ch) => ch.done)).toEqual([true, false, false]);
  });

  it("stays on the chapter without a next one, and when undoing, answering its data request with the course as it is now", async () => {
    const member = await createUser({ paid: true });
    const c = await courseWith(["A", "B"]);
    const [a, b] = c.chapters as [string, string];
    const shown = (answer: unknown) => {
      const { fresh, course } = answer as { fresh: boolean; course: MemberCourse };
      return { fresh, selected: course.selected?.id, done: course.chapters.map((ch) => ch.done) };
    };
    // The page's address names the chapter it shows; the answer shows that chapter, marked.
    const onB = (form: Record<string, string>) =>
      run(() =>
        action({
          request: appRequest(`/course/${c.id}.data?chapter=${b}`, {
            cookie: member.cookie,
            form,
          }),
          params: { courseId: c.id },
          context: {},
        } as never),
      );
    expect(shown(await onB({ chapterId: b, done: "true" }))).toEqual({
      fresh: true,
      selected: b,
      done: [false, true],
    });
    expect(shown(await onB({ chapterId: b, done: "false", next: a }))).toEqual({
      fresh: true,
      selected: b,
      done: [false, false],
    });
    const read = await readCourse(await getDb(), { userId: member.id, courseId: c.id });
    expect(read?.chapters.map((ch) => ch.done)).toEqual([false, false]);
    // Posted as a document (no JavaScript), the page is rendered with its loaders after the
    // action: nothing is read for an answer.
    const document = await run(() =>
      action({
        request: appRequest(`/course/${c.id}?chapter=${b}`, {
          cookie: member.cookie,
          form: { chapterId: b, done: "true" },
        }),
        params: { courseId: c.id },
        context: {},
      } as never),
    );
    expect(document).toBeNull();
    const marked = await readCourse(await getDb(), { userId: member.id, courseId: c.id });
    expect(marked?.chapters.map((ch) => ch.done)).toEqual([false, true]);
  });

  it("refuses a next chapter that is not an id (400) and an unknown chapter (404)", async () => {
    const member = await createUser({ paid: true });
    const c = await courseWith(["A"]);
    const bad = await post(member.cookie, c.id, {
      chapterId: c.chapters[0] as string,
      done: "true",
      next: "https://example.com/",
    });
    expect(redirectTarget(bad)).toBeNull();
    expect(statusOf(bad)).toBe(400);
    const unknown = await post(member.cookie, c.id, {
      chapterId: crypto.randomUUID(),
      done: "true",
      next: c.chapters[0] as string,
    });
    expect(statusOf(unknown)).toBe(404);
  });

  it("is for members only", async () => {
    const visitor = await createUser({ paid: false });
    const c = await courseWith(["A", "B"]);
    const result = await post(visitor.cookie, c.id, {
      chapterId: c.chapters[0] as string,
      done: "true",
      next: c.chapters[1] as string,
    });
    expect(redirectTarget(result)).toBe("/payment-options");
  });
});
