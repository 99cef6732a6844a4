import { data, redirect, useNavigation } from "react-router";
import { ChapterNav, ChapterView } from "~/components/members/course-view";
import { chapterDoneSchema, parseForm } from "~/lib/forms";
import { requireMember } from "~/server/auth/guards.server";
import { readCourse, setChapterDone } from "~/server/courses/read.server";
import { getDb } from "~/server/db/db.server";
import { readForm } from "~/server/forms.server";
import type { Route } from "./+types/course";
import { courseNotFoundQuery } from "./notices";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `${data?.course.selected?.title ?? data?.course.title ?? "Course"} | AI Labs` },
];

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireMember(request);
  const chapterId = new URL(request.url).searchParams.get("chapter");
  // Hover prefetches (Sec-Purpose: prefetch) must not move the member's resume point.
  const isPrefetch = /prefetch/i.test(
    request.headers.get("sec-purpose") ?? request.headers.get("purpose") ?? "",
  );
  const course = await readCourse(await getDb(), user.id, params.courseId, chapterId, !isPrefetch);
  // The dashboard says so (docs/product.md, Course viewer: 'Course not found').
  if (!course) throw redirect(`/dashboard?${courseNotFoundQuery}`);
  // The chapter shown is always the one in the URL, so that reload and Back show
  // what the address says (without ?chapter the resumed chapter would differ).
  if (course.selected && course.selected.id !== chapterId) {
    throw redirect(`/course/${course.id}?chapter=${course.selected.id}`);
  }
  return { course };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireMember(request);
  const parsed = parseForm(chapterDoneSchema, await readForm(request));
  if (!parsed.ok) {
    return data({ error: Object.values(parsed.fieldErrors)[0] ?? "Invalid input" }, 400);
  }
  const { chapterId, done } = parsed.data;
  if (!(await setChapterDone(await getDb(), user.id, chapterId, done))) {
    return data({ error: "Chapter not found" }, 404);
  }
  return { error: null };
}

export default function Course({ loaderData }: Route.ComponentProps) {
  const { course } = loaderData;
  const { selected } = course;
  const navigation = useNavigation();
  const index = selected ? course.chapters.findIndex((c) => c.id === selected.id) : -1;
  const current = index >= 0 ? course.chapters[index] : undefined;
  const next = index >= 0 ? course.chapters[index + 1] : undefined;
  const pendingDone = navigation.formData?.get("done");
  const isDone = pendingDone != null ? pendingDone === "true" : Boolean(current?.done);
  const doneCount = course.chapters.filter((c) => c.done).length;

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-8 lg:flex-row">
      <ChapterNav course={course} doneCount={doneCount} />
      <ChapterView course={course} isDone={isDone} next={next} />
    </div>
  );
}
