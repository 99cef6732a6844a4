import { useEffect, useRef } from "react";
import { data, Link, redirect, useLocation } from "react-router";
import { CourseForm } from "~/components/admin/course-form";
import { CourseItem } from "~/components/admin/course-list";
import { adminNotices, failureMessage, isAdminNotice } from "~/lib/course-authoring";
import { adminActionSchema, type FieldErrors, parseForm } from "~/lib/forms";
import { adminActor } from "~/server/admin/audit.server";
import { applyAdminAction } from "~/server/admin/course-actions.server";
import {
  adminNoticeCookie,
  clearCookie,
  cookieKeys,
  readSignedCookie,
  setSignedCookie,
} from "~/server/auth/cookies.server";
import { requireAdmin } from "~/server/auth/guards.server";
import { findChapterForEdit, listCoursesForAdmin } from "~/server/courses/authoring.server";
import { isUuid } from "~/server/courses/read.server";
import { getDb } from "~/server/db/db.server";
import { readForm } from "~/server/forms.server";
import { logError } from "~/server/log-error.server";
import type { Route } from "./+types/admin";

export const meta: Route.MetaFunction = () => [{ title: "Admin Panel | AI Labs" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const db = await getDb();
  const courses = await listCoursesForAdmin(db);
  const expandedParam = url.searchParams.get("course");
  const expanded = courses.find((c) => c.id === expandedParam)?.id ?? null;
  const chapterParam = url.searchParams.get("chapter");
  const form = url.searchParams.get("form");
  let editing: { id: string; title: string; contentHtml: string; published: boolean } | null = null;
  if (expanded && isUuid(chapterParam)) {
    const found = await findChapterForEdit(db, chapterParam);
    if (found?.courseId === expanded) editing = found;
  }
  // What the last action did, said once: the cookie is cleared as it is read.
  const keys = cookieKeys();
  const noticeKey = readSignedCookie(request.headers.get("cookie"), adminNoticeCookie, keys.secret);
  const notice = isAdminNotice(noticeKey) ? adminNotices[noticeKey] : null;
  return data(
    {
      courses,
      expanded,
      courseForm: formShown(form === "new-course", form === "edit-course" && expanded),
      chapterForm: formShown(expanded && chapterParam === "new", editing),
      editing,
      notice,
    },
    noticeKey ? { headers: clearCookie(new Headers(), adminNoticeCookie, keys) } : undefined,
  );
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  const intent = form.get("intent");
  const parsed = parseForm(adminActionSchema, form);
  if (!parsed.ok) {
    const reason = Object.values(parsed.fieldErrors)[0] ?? "Invalid input";
    return failed(failureMessage(intent, reason), 400, parsed.fieldErrors);
  }
  try {
    const result = await applyAdminAction(await getDb(), adminActor(admin), parsed.data);
    if (result.kind === "failed")
      return failed(failureMessage(intent, result.reason), result.status);
    const headers = setSignedCookie(new Headers(), adminNoticeCookie, result.notice, 60);
    return redirect(result.to, { headers });
  } catch (error) {
    // The details (SQL, parameters) go to the log, not to the page.
    logError(error, `admin action ${parsed.data.intent} failed`);
    return failed(failureMessage(intent, "Unknown error"), 500);
  }
}

/** Which form of a kind is open: a new one, an edit of an existing one, or none. */
function formShown(isNew: unknown, isEdit: unknown): "new" | "edit" | null {
  return isNew ? "new" : isEdit ? "edit" : null;
}

function failed(error: string, status: number, fieldErrors: FieldErrors = {}) {
  return data({ ok: false as const, error, fieldErrors }, status);
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
          Admin Panel
        </h1>
        <Link
          to="/admin?form=new-course"
          className="inline-flex min-h-11 items-center rounded-md bg-indigo-600 px-4 py-2 font-semibold text-white hover:bg-indigo-700"
        >
          New course
        </Link>
      </div>
      <div role="status" aria-live="polite" className="mt-4">
        {notice ? (
          <p
            key={key}
            className="rounded-md border border-green-300 bg-green-50 p-3 text-green-800"
          >
            {notice}
          </p>
        ) : null}
      </div>
      {actionData && !actionData.ok ? (
        <p
          role="alert"
          className="mt-4 rounded-md border border-red-300 bg-red-50 p-3 text-red-800"
        >
          {actionData.error}
        </p>
      ) : null}
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
