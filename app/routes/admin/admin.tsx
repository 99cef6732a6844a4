import { useState } from "react";
import { data, Form, Link, redirect, useLocation, useNavigation } from "react-router";
import { ChapterForm } from "~/components/admin/chapter-form";
import { adminActionSchema, parseForm } from "~/lib/forms";
import { useHydrated } from "~/lib/use-hydrated";
import { applyAdminAction } from "~/server/admin-actions.server";
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
  let editing: { id: string; title: string; contentHtml: string } | null = null;
  if (expanded && isUuid(chapterParam)) {
    const found = await findChapterForEdit(db, chapterParam);
    if (found?.courseId === expanded) editing = found;
  }
  return {
    courses,
    expanded,
    courseForm: form === "new-course" ? "new" : form === "edit-course" && expanded ? "edit" : null,
    chapterForm: expanded && chapterParam === "new" ? "new" : editing ? "edit" : null,
    editing,
  };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const parsed = parseForm(adminActionSchema, await readForm(request));
  if (!parsed.ok) {
    const message = Object.values(parsed.fieldErrors)[0] ?? "Invalid input";
    return data(
      {
        ok: false as const,
        error: `Error saving chapter: ${message}`,
        fieldErrors: parsed.fieldErrors,
      },
      400,
    );
  }
  try {
    const result = await applyAdminAction(await getDb(), parsed.data);
    if (result.kind === "redirect") return redirect(result.to);
    if (result.kind === "saved") return { ok: true as const, message: result.message };
    return data(
      { ok: false as const, error: "Error saving chapter: Not found", fieldErrors: {} },
      404,
    );
  } catch (error) {
    // The details (SQL, parameters) go to the log, not to the page.
    logError(error, `admin action ${parsed.data.intent} failed`);
    return data(
      {
        ok: false as const,
        error: "Error saving chapter: Unknown error",
        fieldErrors: {},
      },
      500,
    );
  }
}

const confirmDeleteCourse =
  "Are you sure you want to delete this course? This will also delete all chapters within it. This action cannot be undone.";
const confirmDeleteChapter =
  "Are you sure you want to delete this chapter? This action cannot be undone.";

function confirmSubmit(message: string) {
  return (event: React.FormEvent) => {
    if (!window.confirm(message)) event.preventDefault();
  };
}

export default function Admin({ loaderData, actionData }: Route.ComponentProps) {
  const { courses, expanded, courseForm, chapterForm, editing } = loaderData;
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  return (
    <main className="mx-auto max-w-5xl px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold tracking-tight">Admin Panel</h1>
        <Link
          to="/admin?form=new-course"
          className="rounded-md bg-indigo-600 px-4 py-2 font-semibold text-white hover:bg-indigo-700"
        >
          New course
        </Link>
      </div>
      <div aria-live="polite" className="mt-4">
        {notice ? (
          <p className="rounded-md border border-green-300 bg-green-50 p-3 text-green-800">
            {notice}
          </p>
        ) : null}
        {actionData && !actionData.ok ? (
          <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-red-800">
            {actionData.error}
          </p>
        ) : null}
      </div>
      {courseForm === "new" ? <CourseForm course={null} /> : null}
      {courses.length === 0 ? (
        <p className="mt-8 rounded-lg border border-dashed border-slate-300 p-8 text-center text-slate-600">
          No courses yet. Create your first course to get started.
        </p>
      ) : (
        <ul className="mt-6 space-y-4">
          {courses.map((course) => {
            const isOpen = course.id === expanded;
            return (
              <li key={course.id} className="rounded-xl border border-slate-200 bg-white shadow-sm">
                <div className="flex items-start gap-3 p-4">
                  <Link
                    to={isOpen ? "/admin" : `/admin?course=${course.id}`}
                    aria-expanded={isOpen}
                    className="flex-1 rounded-md text-left focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
                  >
                    <span className="flex flex-wrap items-center gap-x-2 font-semibold">
                      <span aria-hidden="true">{isOpen ? "▾" : "▸"}</span>
                      {course.title}
                      <span className="whitespace-nowrap text-sm font-normal text-slate-500">
                        ({course.chapters.length}{" "}
                        {course.chapters.length === 1 ? "chapter" : "chapters"})
                      </span>
                    </span>
                    {course.description ? (
                      <span className="mt-1 block text-sm text-slate-600">
                        {course.description}
                      </span>
                    ) : null}
                  </Link>
                  <IconLink
                    to={`/admin?course=${course.id}&form=edit-course`}
                    label={`Edit course: ${course.title}`}
                    icon="edit"
                  />
                  <Form method="post" onSubmit={confirmSubmit(confirmDeleteCourse)}>
                    <input type="hidden" name="intent" value="delete-course" />
                    <input type="hidden" name="courseId" value={course.id} />
                    <input type="hidden" name="expanded" value={expanded ?? ""} />
                    <IconButton label={`Delete course: ${course.title}`} icon="delete" />
                  </Form>
                </div>
                {isOpen ? (
                  <div className="space-y-4 border-t border-slate-200 p-4">
                    {courseForm === "edit" ? <CourseForm course={course} /> : null}
                    <ChapterList course={course} />
                    {chapterForm ? (
                      <ChapterForm
                        key={editing?.id ?? "new"}
                        courseId={course.id}
                        chapter={chapterForm === "edit" ? editing : null}
                      />
                    ) : (
                      <Link
                        to={`/admin?course=${course.id}&chapter=new`}
                        className="inline-block rounded-md border border-indigo-600 px-4 py-2 font-semibold text-indigo-700 hover:bg-indigo-50"
                      >
                        Add chapter
                      </Link>
                    )}
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </main>
  );
}

type AdminCourse = Route.ComponentProps["loaderData"]["courses"][number];

function ChapterList({ course }: { course: AdminCourse }) {
  if (course.chapters.length === 0) {
    return (
      <p className="text-slate-600">No chapters yet. Add your first chapter to get started.</p>
    );
  }
  const last = course.chapters.length - 1;
  return (
    <ol className="divide-y divide-slate-100 rounded-lg border border-slate-200">
      {course.chapters.map((chapter, i) => (
        <li key={chapter.id} className="flex flex-wrap items-center gap-x-2 gap-y-1 px-3 py-2">
          <span className="w-6 text-sm text-slate-500">{i + 1}.</span>
          <span className="min-w-0 flex-1 basis-40 break-words">{chapter.title}</span>
          <span className="ml-auto flex items-center gap-1">
            <MoveForm
              courseId={course.id}
              chapterId={chapter.id}
              direction="up"
              title={chapter.title}
              disabled={i === 0}
            />
            <MoveForm
              courseId={course.id}
              chapterId={chapter.id}
              direction="down"
              title={chapter.title}
              disabled={i === last}
            />
            <IconLink
              to={`/admin?course=${course.id}&chapter=${chapter.id}`}
              label={`Edit chapter: ${chapter.title}`}
              icon="edit"
            />
            <Form method="post" onSubmit={confirmSubmit(confirmDeleteChapter)}>
              <input type="hidden" name="intent" value="delete-chapter" />
              <input type="hidden" name="courseId" value={course.id} />
              <input type="hidden" name="chapterId" value={chapter.id} />
              <IconButton label={`Delete chapter: ${chapter.title}`} icon="delete" />
            </Form>
          </span>
        </li>
      ))}
    </ol>
  );
}

function MoveForm(props: {
  courseId: string;
  chapterId: string;
  direction: "up" | "down";
  title: string;
  disabled: boolean;
}) {
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value="move-chapter" />
      <input type="hidden" name="courseId" value={props.courseId} />
      <input type="hidden" name="chapterId" value={props.chapterId} />
      <input type="hidden" name="direction" value={props.direction} />
      <IconButton
        label={`Move chapter ${props.direction}: ${props.title}`}
        icon={props.direction}
        disabled={props.disabled}
      />
    </Form>
  );
}

function CourseForm({
  course,
}: {
  course: { id: string; title: string; description: string } | null;
}) {
  const [title, setTitle] = useState(course?.title ?? "");
  const busy = useNavigation().state === "submitting";
  const prefix = course ? `edit-${course.id}` : "new";
  return (
    <Form
      method="post"
      className="mt-6 space-y-4 rounded-lg border border-indigo-200 bg-indigo-50/40 p-4"
    >
      <h2 className="font-semibold">{course ? "Edit course" : "New course"}</h2>
      <input type="hidden" name="intent" value={course ? "update-course" : "create-course"} />
      {course ? <input type="hidden" name="courseId" value={course.id} /> : null}
      <div>
        <label htmlFor={`${prefix}-title`} className="block text-sm font-medium text-slate-700">
          Course title
        </label>
        <input
          id={`${prefix}-title`}
          name="title"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          required
          maxLength={200}
          className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2"
        />
      </div>
      <div>
        <label
          htmlFor={`${prefix}-description`}
          className="block text-sm font-medium text-slate-700"
        >
          Description
        </label>
        <textarea
          id={`${prefix}-description`}
          name="description"
          defaultValue={course?.description ?? ""}
          rows={3}
          maxLength={5000}
          className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2"
        />
      </div>
      <div className="flex gap-3">
        <button
          type="submit"
          disabled={busy || title.trim() === ""}
          className="rounded-md bg-indigo-600 px-4 py-2 font-semibold text-white hover:bg-indigo-700 disabled:opacity-50"
        >
          {busy ? "Saving..." : "Save course"}
        </button>
        <Link
          to={course ? `/admin?course=${course.id}` : "/admin"}
          className="rounded-md border border-slate-300 bg-white px-4 py-2"
        >
          Cancel
        </Link>
      </div>
    </Form>
  );
}

const icons = {
  edit: "M4 20h4L19 9l-4-4L4 16v4zM14 6l4 4",
  delete: "M5 7h14M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3",
  up: "M12 19V5M5 12l7-7 7 7",
  down: "M12 5v14M5 12l7 7 7-7",
} as const;

function Icon({ name }: { name: keyof typeof icons }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="h-5 w-5"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={icons[name]} />
    </svg>
  );
}

const iconClass =
  "inline-flex h-9 w-9 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:cursor-not-allowed disabled:opacity-30";

function IconButton({
  label,
  icon,
  disabled,
}: {
  label: string;
  icon: keyof typeof icons;
  disabled?: boolean;
}) {
  // Before hydration a delete form would post without its confirm().
  const hydrated = useHydrated();
  return (
    <button
      type="submit"
      aria-label={label}
      title={label}
      disabled={disabled || (icon === "delete" && !hydrated)}
      className={`${iconClass} ${icon === "delete" ? "hover:text-red-700" : ""}`}
    >
      <Icon name={icon} />
    </button>
  );
}

function IconLink({ to, label, icon }: { to: string; label: string; icon: keyof typeof icons }) {
  return (
    <Link to={to} aria-label={label} title={label} className={iconClass}>
      <Icon name={icon} />
    </Link>
  );
}
