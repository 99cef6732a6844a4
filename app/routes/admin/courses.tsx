import { useEffect, useRef } from "react";
import { data, Link, useLocation } from "react-router";
import type { EditedChapter } from "~/components/admin/chapter-form";
import { CourseForm } from "~/components/admin/course-form";
import { CourseItem } from "~/components/admin/course-list";
import { FormError, Notice } from "~/components/form-answer";
import { adminNotices, failureMessage } from "~/lib/course-authoring";
import { adminActionSchema, type FieldErrors } from "~/lib/forms";
import { adminActor } from "~/server/admin/audit.server";
import { applyAdminAction } from "~/server/admin/course-actions.server";
import { requireAdmin } from "~/server/auth/guards.server";
import { findChapterForEdit, listCoursesForAdmin } from "~/server/courses/authoring.server";
import { isUuid } from "~/server/courses/read.server";
import { getDb } from "~/server/db/db.server";
import { checkForm, readForm, redirectWithNotice, takeNotice } from "~/server/forms.server";
import { logError } from "~/server/log-error.server";
import type { Route } from "./+types/courses";

export const meta: Route.MetaFunction = () => [{ title: "Courses | AI Labs" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const db = await getDb();
  const courses = await listCoursesForAdmin(db);
  const expandedParam = url.searchParams.get("course");
  const expanded = courses.find((c) => c.id === expandedParam)?.id ?? null;
  const chapterParam = url.searchParams.get("chapter");
  const form = url.searchParams.get("form");
  let editing: EditedChapter | null = null;
  if (expanded && isUuid(chapterParam)) {
    const found = await findChapterForEdit(db, chapterParam);
    if (found?.courseId === expanded) editing = found;
  }
  // What the last action did, said once.
  const { notice, headers } = takeNotice(request);
  return data(
    {
      courses,
      expanded,
      courseForm: formShown(form === "new-course", form === "edit-course" && expanded),
      chapterForm: formShown(expanded && chapterParam === "new", editing),
      editing,
      notice,
    },
    { headers },
  );
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  const intent = form.get("intent");
  const checked = checkForm(form, adminActionSchema);
  const failed = (status: number, reason: string, fieldErrors?: FieldErrors) =>
    checked.refuse(status, { formError: failureMessage(intent, reason), fieldErrors });
  if (!checked.ok) {
    return failed(
      400,
      Object.values(checked.fieldErrors)[0] ?? "Invalid input",
      checked.fieldErrors,
    );
  }
  try {
    const result = await applyAdminAction(await getDb(), adminActor(admin), checked.data);
    if (result.kind === "failed") return failed(result.status, result.reason);
    const said = adminNotices[result.notice];
    return redirectWithNotice(result.to, result.also ? `${said} ${result.also}` : said);
  } catch (error) {
    // The details (SQL, parameters) go to the log, not to the page.
    logError(error, `admin action ${checked.data.intent} failed`);
    return failed(500, "Unknown error");
  }
}

/** Which form of a kind is open: a new one, an edit of an existing one, or none. */
function formShown(isNew: unknown, isEdit: unknown): "new" | "edit" | null {
  return isNew ? "new" : isEdit ? "edit" : null;
}

export default function Admin({ loaderData, actionData }: Route.ComponentProps) {
  const { courses, expanded, courseForm, chapterForm, editing, notice } = loaderData;
  // Each navigation renders the notice anew, so that a repeated message is announced again.
  const { key } = useLocation();
  const heading = useRef<HTMLHeadingElement>(null);
  // After an action whose button is gone (a delete), focus would be lost: it goes to the heading,
  // just above the notice that says what happened.
  // biome-ignore lint/correctness/useExhaustiveDependencies: each navigation (key) can drop focus, even with the same notice.
  useEffect(() => {
    if (notice && (!document.activeElement || document.activeElement === document.body)) {
      heading.current?.focus();
    }
  }, [key, notice]);
  return (
    <main className="mx-auto max-w-5xl px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1
          ref={heading}
          tabIndex={-1}
          className="text-3xl font-bold tracking-tight focus:outline-none"
        >
          Courses
        </h1>
        <Link
          to="/admin/courses?form=new-course"
          className="inline-flex min-h-11 items-center rounded-md bg-indigo-600 px-4 py-2 font-semibold text-white hover:bg-indigo-700"
        >
          New course
        </Link>
      </div>
      <Notice notice={notice} />
      <div className="mt-4 empty:hidden">
        <FormError answer={actionData} />
      </div>
      {courseForm === "new" ? <CourseForm course={null} /> : null}
      {courses.length === 0 ? (
        <p className="mt-8 rounded-lg border border-dashed border-slate-300 p-8 text-center text-slate-600">
          No courses yet. Create your first course to get started.
        </p>
      ) : (
        <ul className="mt-6 space-y-4">
          {courses.map((course, i) => (
            <CourseItem
              key={course.id}
              course={course}
              position={i}
              count={courses.length}
              expanded={expanded}
              courseForm={courseForm}
              chapterForm={chapterForm}
              editing={editing}
            />
          ))}
        </ul>
      )}
    </main>
  );
}
