import { Form, Link } from "react-router";
import type { MemberCourse } from "~/server/courses/read.server";

// The course page (/course/:courseId): the chapter list beside the chapter being read.

/** The course's title, progress and chapters; the selected one is marked as the current page. */
export function ChapterNav({ course, doneCount }: { course: MemberCourse; doneCount: number }) {
  const { selected } = course;
  return (
    <aside className="lg:w-80 lg:shrink-0" aria-label="Course chapters">
      <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm lg:sticky lg:top-20">
        <Link to="/dashboard" className="text-sm text-indigo-700 underline">
          ← All courses
        </Link>
        <h1 className="mt-3 text-xl font-bold">{course.title}</h1>
        <p className="mt-2 text-sm text-slate-600">{course.description}</p>
        {course.chapters.length > 0 ? (
          <p className="mt-3 text-xs text-slate-500">
            {doneCount} of {course.chapters.length} chapters done
          </p>
        ) : null}
        <nav className="mt-4">
          <ol className="space-y-1">
            {course.chapters.map((c, i) => {
              const active = c.id === selected?.id;
              return (
                <li key={c.id}>
                  <Link
                    to={`?chapter=${c.id}`}
                    preventScrollReset={false}
                    aria-current={active ? "page" : undefined}
                    className={`flex w-full items-start gap-2 rounded-md px-3 py-2 text-left text-sm ${
                      active ? "bg-indigo-600 text-white" : "text-slate-700 hover:bg-slate-100"
                    }`}
                  >
                    <span aria-hidden="true" className={`mt-0.5 w-4 ${c.done ? "" : "opacity-50"}`}>
                      {c.done ? "✓" : `${i + 1}.`}
                    </span>
                    <span className="flex-1">{c.title}</span>
                    {c.done ? <span className="sr-only">(completed)</span> : null}
                  </Link>
                </li>
              );
            })}
          </ol>
        </nav>
      </div>
    </aside>
  );
}

/** The selected chapter, its Mark as complete button and the link to the next one. */
export function ChapterView({
  course,
  isDone,
  next,
}: {
  course: MemberCourse;
  isDone: boolean;
  next: { id: string; title: string } | undefined;
}) {
  const { selected } = course;
  return (
    <main className="min-w-0 flex-1">
      <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8">
        {course.chapters.length === 0 ? (
          <p className="text-slate-600">No content available yet. Check back soon!</p>
        ) : !selected ? (
          <p className="text-slate-600">Select a chapter from the sidebar to start learning</p>
        ) : (
          <article>
            <h2 className="text-2xl font-bold">{selected.title}</h2>
            {selected.contentHtml ? (
              <div
                className="chapter-content mt-6"
                // Stored HTML is sanitized when saved (app/server/content/sanitize.server.ts).
                // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized at write.
                dangerouslySetInnerHTML={{ __html: selected.contentHtml }}
              />
            ) : (
              <p className="mt-6 text-slate-600">No content available for this chapter yet.</p>
            )}
            <div className="mt-10 flex flex-col gap-3 border-t border-slate-200 pt-6 sm:flex-row sm:items-center sm:justify-between">
              <Form method="post" preventScrollReset>
                <input type="hidden" name="chapterId" value={selected.id} />
                <input type="hidden" name="done" value={isDone ? "false" : "true"} />
                <button
                  type="submit"
                  aria-pressed={isDone}
                  className={`rounded-md px-4 py-2 font-semibold ${
                    isDone
                      ? "border border-green-600 bg-green-50 text-green-800"
                      : "bg-green-600 text-white hover:bg-green-700"
                  }`}
                >
                  {isDone ? "✓ Completed (undo)" : "Mark as complete"}
                </button>
              </Form>
              {next ? (
                <Link
                  to={`?chapter=${next.id}`}
                  className="font-semibold text-indigo-700 underline"
                >
                  Next: {next.title} →
                </Link>
              ) : null}
            </div>
          </article>
        )}
      </div>
    </main>
  );
}
