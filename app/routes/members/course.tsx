import {
  isRouteErrorResponse,
  redirect,
  type ShouldRevalidateFunctionArgs,
  useNavigation,
} from "react-router";
import { DraftPreviewNotice } from "~/components/course/draft-preview-notice";
import { ChapterNav, ChapterView } from "~/components/members/course-view";
import { busyTryAgain } from "~/lib/busy";
import { chapterDoneSchema } from "~/lib/forms";
import { freshAnswer, isFreshAnswer, useFresh, wantsFreshAnswer } from "~/lib/fresh-answer";
import { isPrefetch } from "~/route-policies";
import { requireMember, seesDrafts } from "~/server/auth/guards.server";
import { openCourse, readCourse, setChapterDone } from "~/server/courses/read.server";
import { getDb } from "~/server/db/db.server";
import { firstError, readCheckedForm } from "~/server/forms.server";
import type { Route } from "./+types/course";
import { courseLockedQuery, courseNotFoundQuery } from "./notices";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `${data?.course.selected?.title ?? data?.course.title ?? "Course"} | AI Labs` },
];

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireMember(request);
  const chapterId = new URL(request.url).searchParams.get("chapter");
  // An admin also reaches drafts, to preview them as members will see them.
  const asked = { userId: user.id, courseId: params.courseId, chapterId, drafts: seesDrafts(user) };
  // Hover prefetches and prerenders must not move the member's resume point.
  const course = await (isPrefetch(request.headers) ? readCourse : openCourse)(
    await getDb(),
    asked,
  );
  // The dashboard says so (docs/product.md, Course viewer: 'Course not found').
  if (!course) throw redirect(`/dashboard?${courseNotFoundQuery}`);
  // A course of a product the member does not hold: that product's offer, if it has a page.
  if (course.locked)
    throw redirect(course.locked.unlock?.href ?? `/dashboard?${courseLockedQuery}`);
  // The chapter shown is always the one in the URL, so that reload and Back show
  // what the address says (without ?chapter the resumed chapter would differ).
  if (course.selected && course.selected.id !== chapterId) {
    throw redirect(`/course/${course.id}?chapter=${course.selected.id}`);
  }
  return { course };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireMember(request);
  const form = await readCheckedForm(request, chapterDoneSchema);
  if (!form.ok) return form.refuse(400, firstError(form.fieldErrors));
  const { chapterId, done, next } = form.data;
  const db = await getDb();
  const drafts = seesDrafts(user);
  if (!(await setChapterDone(db, user.id, chapterId, done, drafts))) {
    return form.refuse(404, { formError: "Chapter not found" });
  }
  // "Mark as complete" moves on to the next chapter (the page names it; an unknown one
  // falls back like any other ?chapter=).
  if (done && next) {
    throw redirect(`/course/${encodeURIComponent(params.courseId)}?chapter=${next}`);
  }
  // The course as it is now, on the chapter the address shows: the page shows the mark
  // without reading its data again (decision 051). A course the member no longer opens
  // is left to the loader, which sends them on, as is a document POST's page.
  if (!wantsFreshAnswer(request)) return null;
  const course = await readCourse(db, {
    userId: user.id,
    courseId: params.courseId,
    chapterId: new URL(request.url).searchParams.get("chapter"),
    drafts,
  });
  return course && !course.locked ? freshAnswer({ course }) : null;
}

/**
 * A mark turned away busy (503 past the server's capacity, decision 030) says
 * so beside its button, nothing having been saved, instead of leaving the page.
 */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  try {
    return await serverAction();
  } catch (error) {
    if (isRouteErrorResponse(error) && error.status === 503) return { formError: busyTryAgain };
    throw error;
  }
}

/**
 * Nothing to read again when a mark was turned away busy (nothing changed), nor
 * when it was answered with the course as it is now.
 */
export function shouldRevalidate({
  actionResult,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (actionResult?.formError === busyTryAgain || isFreshAnswer(actionResult)) return false;
  return defaultShouldRevalidate;
}

export default function Course({ loaderData, actionData }: Route.ComponentProps) {
  const course = useFresh(
    loaderData.course,
    actionData && "course" in actionData ? actionData.course : undefined,
  );
  const { selected } = course;
  const navigation = useNavigation();
  // While a mark is on its way, the page shows it already.
  const pending = navigation.formData;
  const pendingId = pending?.get("chapterId");
  const pendingDone = pending?.get("done");
  const chapters = course.chapters.map((c) =>
    c.id === pendingId && pendingDone != null ? { ...c, done: pendingDone === "true" } : c,
  );
  const isDone = Boolean(chapters.find((c) => c.id === selected?.id)?.done);
  const refused = actionData && "formError" in actionData ? actionData.formError : null;
  const markError = (navigation.state === "idle" && refused) || undefined;

  return (
    <>
      <DraftPreviewNotice course={course} />
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-6 lg:flex-row lg:gap-6 lg:py-8">
        <ChapterNav course={course} chapters={chapters} />
        <ChapterView course={course} chapters={chapters} isDone={isDone} markError={markError} />
      </div>
    </>
  );
}
