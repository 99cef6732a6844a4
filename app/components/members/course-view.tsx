import { useEffect, useRef } from "react";
import { Form, Link } from "react-router";
import type { MemberCourse } from "~/server/courses/read.server";

// The course page (/course/:courseId). On a wide screen the chapter list sits
// beside the chapter being read; on a phone the lesson comes first: the list
// is a disclosure above it and Previous / Next stay at the bottom of the screen.

type Chapter = MemberCourse["chapters"][number];

/** The chapters in order; the selected one is marked as the current page, done ones ticked. */
function ChapterList({ chapters, selectedId }: { chapters: Chapter[]; selectedId?: string }) {
  return (
    <ol className="space-y-1">
      {chapters.map((c, i) => {
        const active = c.id === selectedId;
        return (
          <li key={c.id}>
            <Link
              to={`?chapter=${c.id}`}
              preventScrollReset={false}
              aria-current={active ? "page" : undefined}
              className={`flex min-h-11 w-full items-start gap-2 rounded-md px-3 py-2 text-left text-sm ${
                active ? "bg-indigo-600 text-white" : "text-slate-700 hover:bg-slate-100"
              }`}
            >
              <span
                aria-hidden="true"
                className={`mt-0.5 w-5 shrink-0 ${
                  active ? "text-indigo-100" : c.done ? "text-green-700" : "text-slate-500"
                }`}
              >
                {c.done ? "✓" : `${i + 1}.`}
              </span>
              <span className="flex-1">{c.title}</span>
              {c.done ? <span className="sr-only">(completed)</span> : null}
            </Link>
          </li>
        );
      })}
    </ol>
  );
}

/** The course's progress as a bar with its words: "N of M chapters done". */
function CourseProgress({ done, total }: { done: number; total: number }) {
  const percent = total === 0 ? 0 : Math.round((done / total) * 100);
  const complete = total > 0 && done >= total;
  return (
    <div className="mt-4">
      <div className="flex items-baseline justify-between gap-2 text-xs text-slate-600">
        <span>
          {done} of {total} chapters done
        </span>
        {complete ? (
          <span className="font-semibold text-green-700">Course complete</span>
        ) : (
          <span aria-hidden="true">{percent}%</span>
        )}
      </div>
      <div
        role="progressbar"
        aria-label="Course progress"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={`${done} of ${total} chapters done`}
        className="mt-1.5 h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className="h-full rounded-full bg-green-500 transition-[width]"
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}

/**
 * The course's title and progress and its chapters: a column beside the lesson on a wide
 * screen; on a phone the title and progress, then the chapters folded in a disclosure.
 */
export function ChapterNav({ course, chapters }: { course: MemberCourse; chapters: Chapter[] }) {
  const { selected } = course;
  const doneCount = chapters.filter((c) => c.done).length;
  return (
    <aside className="lg:w-80 lg:shrink-0" aria-label="Course chapters">
      <div className="lg:sticky lg:top-20 lg:rounded-xl lg:border lg:border-slate-200 lg:bg-white lg:p-5 lg:shadow-sm">
        <Link to="/dashboard" className="text-sm text-indigo-700 underline">
          ← All courses
        </Link>
        <h1 className="mt-2 text-xl font-bold lg:mt-3">{course.title}</h1>
        <p className="mt-2 hidden text-sm text-slate-600 lg:block">{course.description}</p>
        {chapters.length > 0 ? <CourseProgress done={doneCount} total={chapters.length} /> : null}
        {/* Wide screens: the list, always open. */}
        <nav aria-label="Chapters" className="mt-4 hidden lg:block">
          <ChapterList chapters={chapters} selectedId={selected?.id} />
        </nav>
        {/* Phones: folded, closed again when another chapter opens (keyed by it). */}
        {chapters.length > 0 ? (
          <details
            key={selected?.id}
            className="group mt-4 rounded-lg border border-slate-200 bg-white lg:hidden"
          >
            <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-2 px-4 py-2 font-semibold text-slate-800 [&::-webkit-details-marker]:hidden">
              <span>Chapters ({chapters.length})</span>
              <span aria-hidden="true" className="text-slate-500 transition group-open:rotate-180">
                ▾
              </span>
            </summary>
            <div className="border-t border-slate-200 p-2">
              <nav aria-label="Chapters">
                <ChapterList chapters={chapters} selectedId={selected?.id} />
              </nav>
            </div>
          </details>
        ) : null}
      </div>
    </aside>
  );
}

/** Previous and Next: below the lesson on a wide screen, held at the bottom of a phone's screen. */
function PreviousNext({ previous, next }: { previous?: Chapter; next?: Chapter }) {
  const link =
    "flex min-h-11 min-w-0 items-center gap-2 rounded-md px-3 py-1.5 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500";
  return (
    <nav
      aria-label="Previous and next chapter"
      className="sticky bottom-0 z-10 -mx-5 mt-8 grid grid-cols-2 gap-2 rounded-b-xl border-t border-slate-200 bg-white px-3 py-2 pb-[max(0.5rem,env(safe-area-inset-bottom))] shadow-[0_-4px_12px_rgba(15,23,42,0.06)] sm:-mx-8 lg:static lg:mx-0 lg:mt-6 lg:rounded-none lg:border-t-0 lg:bg-transparent lg:px-0 lg:py-0 lg:shadow-none"
    >
      {previous ? (
        <Link
          to={`?chapter=${previous.id}`}
          rel="prev"
          aria-label={`Previous: ${previous.title}`}
          className={`${link} text-slate-700 hover:bg-slate-100 lg:justify-self-start`}
        >
          <span aria-hidden="true">←</span>
          <span className="flex min-w-0 flex-col">
            <span className="text-sm font-semibold">Previous</span>
            <span className="truncate text-xs text-slate-600">{previous.title}</span>
          </span>
        </Link>
      ) : (
        <span />
      )}
      {next ? (
        <Link
          to={`?chapter=${next.id}`}
          rel="next"
          aria-label={`Next: ${next.title}`}
          className={`${link} justify-end bg-indigo-600 text-right text-white hover:bg-indigo-700 lg:min-w-56 lg:justify-self-end lg:px-4`}
        >
          <span className="flex min-w-0 flex-col">
            <span className="text-sm font-semibold">Next</span>
            <span className="truncate text-xs text-indigo-100">{next.title}</span>
          </span>
          <span aria-hidden="true">→</span>
        </Link>
      ) : null}
    </nav>
  );
}

/** Shown once every chapter is done: the course is complete. */
function CourseComplete({ course, total }: { course: MemberCourse; total: number }) {
  const first = course.chapters[0];
  return (
    <div className="mt-6 rounded-lg border border-green-200 bg-green-50 p-5">
      <h3 className="flex items-center gap-2 text-lg font-bold text-green-900">
        <svg
          viewBox="0 0 24 24"
          aria-hidden="true"
          className="h-6 w-6 shrink-0 rounded-full bg-green-700 p-1 text-white"
          fill="none"
          stroke="currentColor"
          strokeWidth="3"
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          <path d="m5 12.5 4.5 4.5L19 7.5" />
        </svg>
        Course complete!
      </h3>
      <p className="mt-1 text-green-900">
        You have finished all {total} {total === 1 ? "chapter" : "chapters"} of {course.title}.
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        <Link
          to="/dashboard"
          className="inline-flex min-h-11 items-center rounded-md bg-green-700 px-4 py-2 font-semibold text-white hover:bg-green-800"
        >
          Back to all courses
        </Link>
        {first && first.id !== course.selected?.id ? (
          <Link
            to={`?chapter=${first.id}`}
            className="inline-flex min-h-11 items-center rounded-md border border-green-700 px-4 py-2 font-semibold text-green-800 hover:bg-green-100"
          >
            Review from the start
          </Link>
        ) : null}
      </div>
    </div>
  );
}

/**
 * The selected chapter, its Mark as complete button (which moves on to the next chapter),
 * Previous and Next, and the course's completion once every chapter is done.
 */
export function ChapterView({
  course,
  chapters,
  isDone,
  markError,
}: {
  course: MemberCourse;
  /** The chapters with their done state as the member sees it (a pending mark included). */
  chapters: Chapter[];
  isDone: boolean;
  /** Why the last mark (or undo) was not saved, when it was not. */
  markError?: string;
}) {
  const { selected } = course;
  const index = selected ? chapters.findIndex((c) => c.id === selected.id) : -1;
  const previous = index > 0 ? chapters[index - 1] : undefined;
  const next = index >= 0 ? chapters[index + 1] : undefined;
  const total = chapters.length;
  const doneCount = chapters.filter((c) => c.done).length;
  const complete = total > 0 && doneCount >= total;
  // Marking the chapter done moves on, unless it is the last or it finishes the course
  // (which is then shown here). Decided on the state shown, a pending mark or undo
  // included: Mark as complete clicked while an undo is on its way still moves on.
  const othersDone = chapters.every((c) => c.done || c.id === selected?.id);
  const movesOn = !isDone && next !== undefined && !othersDone;
  // Done with the last chapter but not the course: where the rest is.
  const firstLeft = !complete && isDone && !next ? chapters.find((c) => !c.done) : undefined;

  // A new chapter's heading takes the focus, as a new page's would (not on the first render).
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = useRef(selected?.id);
  useEffect(() => {
    if (shown.current === selected?.id) return;
    shown.current = selected?.id;
    heading.current?.focus({ preventScroll: true });
  }, [selected?.id]);

  return (
    <main className="min-w-0 flex-1">
      {/* With Previous / Next (held at the bottom on phones), the card ends with that bar. */}
      <div
        className={`rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8 ${
          selected && total > 0 ? "pb-0 sm:pb-0 lg:pb-8" : ""
        }`}
      >
        {total === 0 ? (
          <p className="text-slate-600">No content available yet. Check back soon!</p>
        ) : !selected ? (
          <p className="text-slate-600">Select a chapter from the sidebar to start learning</p>
        ) : (
          <>
            <article>
              <p className="text-sm font-medium text-slate-500">
                Chapter {index + 1} of {total}
              </p>
              <h2
                ref={heading}
                tabIndex={-1}
                className="mt-1 text-2xl font-bold focus:outline-none"
              >
                {selected.title}
              </h2>
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
              <div className="mt-10 border-t border-slate-200 pt-6">
                <Form method="post" preventScrollReset={!movesOn}>
                  <input type="hidden" name="chapterId" value={selected.id} />
                  <input type="hidden" name="done" value={isDone ? "false" : "true"} />
                  {movesOn ? <input type="hidden" name="next" value={next.id} /> : null}
                  <button
                    type="submit"
                    aria-pressed={isDone}
                    className={`min-h-11 rounded-md px-4 py-2 font-semibold ${
                      isDone
                        ? "border border-green-600 bg-green-50 text-green-800"
                        : "bg-green-700 text-white hover:bg-green-800"
                    }`}
                  >
                    {isDone ? "✓ Completed (undo)" : "Mark as complete"}
                  </button>
                  {markError ? (
                    <p role="alert" className="mt-2 text-sm text-red-700">
                      Your progress was not saved: {markError}
                    </p>
                  ) : null}
                </Form>
              </div>
              {/* A live region, so that finishing the course is announced. */}
              <div role="status">
                {complete ? <CourseComplete course={course} total={total} /> : null}
                {firstLeft ? (
                  <p className="mt-4 text-slate-700">
                    {total - doneCount} {total - doneCount === 1 ? "chapter is" : "chapters are"}{" "}
                    still to do.{" "}
                    <Link
                      to={`?chapter=${firstLeft.id}`}
                      className="font-semibold text-indigo-700 underline"
                    >
                      Go to {firstLeft.title}
                    </Link>
                  </p>
                ) : null}
              </div>
            </article>
            <PreviousNext previous={previous} next={next} />
          </>
        )}
      </div>
    </main>
  );
}
