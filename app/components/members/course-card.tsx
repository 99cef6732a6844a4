import { useId } from "react";
import { Link } from "react-router";
import type { CourseCard as Course } from "~/server/courses/read.server";

// A course on the dashboard (/dashboard): its cover, title, description, the
// member's progress and the button that takes them on.

/** What the card's button offers, and where it goes. Null for a course without chapters. */
export function nextStep(
  course: Course,
): { label: "Start course" | "Continue" | "Review"; href: string } | null {
  if (course.totalChapters === 0) return null;
  const at = (chapterId: string | null) =>
    chapterId ? `/course/${course.id}?chapter=${chapterId}` : `/course/${course.id}`;
  if (course.doneChapters >= course.totalChapters) {
    return { label: "Review", href: at(course.firstChapterId) };
  }
  if (course.visited || course.doneChapters > 0) {
    // The course page falls back to the first chapter when the last one opened is gone.
    return { label: "Continue", href: at(course.lastChapterId) };
  }
  return { label: "Start course", href: at(course.firstChapterId) };
}

// Covers for courses without an image: one of a few calm gradients, picked by the course id
// so that a course keeps its colour.
const fallbackGradients = [
  "from-indigo-500 to-sky-400",
  "from-violet-500 to-fuchsia-400",
  "from-emerald-500 to-teal-400",
  "from-amber-500 to-orange-400",
  "from-rose-500 to-pink-400",
  "from-cyan-600 to-blue-500",
] as const;

function gradientFor(id: string): string {
  let hash = 0;
  for (const ch of id) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return fallbackGradients[hash % fallbackGradients.length] as string;
}

function Cover({ course }: { course: Course }) {
  if (course.coverImageUrl) {
    return (
      <img
        src={course.coverImageUrl}
        // An empty alt marks the cover as decorative: the title is right below it.
        alt={course.coverAlt}
        loading="lazy"
        decoding="async"
        width={640}
        height={360}
        className="aspect-video w-full bg-slate-100 object-cover"
      />
    );
  }
  return (
    <div
      aria-hidden="true"
      data-testid="cover-fallback"
      className={`relative flex aspect-video w-full items-center justify-center overflow-hidden bg-gradient-to-br ${gradientFor(course.id)}`}
    >
      <span className="absolute -right-4 -bottom-10 text-[10rem] leading-none font-black text-white/15 select-none">
        {course.title.trim().charAt(0).toUpperCase()}
      </span>
      <svg
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        className="relative h-14 w-14 text-white/90"
      >
        <path d="M2 4.5A1.5 1.5 0 0 1 3.5 3H9a3 3 0 0 1 3 3v14a2.5 2.5 0 0 0-2.5-2.5h-6A1.5 1.5 0 0 1 2 16Z" />
        <path d="M22 4.5A1.5 1.5 0 0 0 20.5 3H15a3 3 0 0 0-3 3v14a2.5 2.5 0 0 1 2.5-2.5h6A1.5 1.5 0 0 0 22 16Z" />
      </svg>
    </div>
  );
}

/**
 * A course of a product the member does not hold: its cover dimmed, title and
 * description, the product that opens it and a link to that product's offer.
 */
function LockedCard({ course, locked }: { course: Course; locked: NonNullable<Course["locked"]> }) {
  const titleId = useId();
  const unlock = locked.unlock;
  return (
    <article className="flex h-full flex-col overflow-hidden rounded-xl border border-dashed border-slate-300 bg-slate-50">
      <div className="relative opacity-60 grayscale">
        <Cover course={course} />
      </div>
      <div className="flex flex-1 flex-col p-5">
        <p className="inline-flex items-center gap-1.5 text-xs font-semibold tracking-wide text-slate-600 uppercase">
          <svg
            viewBox="0 0 20 20"
            fill="currentColor"
            aria-hidden="true"
            className="h-4 w-4 text-slate-500"
          >
            <path
              fillRule="evenodd"
              d="M10 1a4.5 4.5 0 0 0-4.5 4.5V9H5a2 2 0 0 0-2 2v6a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-6a2 2 0 0 0-2-2h-.5V5.5A4.5 4.5 0 0 0 10 1Zm3 8V5.5a3 3 0 1 0-6 0V9h6Z"
              clipRule="evenodd"
            />
          </svg>
          Locked
        </p>
        <h2 id={titleId} className="mt-2 text-lg font-semibold text-slate-800">
          {course.title}
        </h2>
        <div className="flex-1">
          <p className="mt-2 line-clamp-2 text-slate-600">{course.description}</p>
        </div>
        {unlock?.href ? (
          <>
            <p className="mt-4 text-sm text-slate-600">Included in the {unlock.name}.</p>
            <Link
              to={unlock.href}
              aria-describedby={titleId}
              className="mt-4 inline-flex min-h-11 items-center justify-center rounded-md border border-indigo-600 px-4 py-2 font-semibold text-indigo-700 hover:bg-indigo-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2"
            >
              Unlock
            </Link>
          </>
        ) : (
          <p className="mt-4 text-sm text-slate-600">
            {unlock
              ? `Comes with the ${unlock.name}, offered at checkout with Lifetime Access.`
              : "Not open to members yet."}
          </p>
        )}
      </div>
    </article>
  );
}

/** One course card: cover, title (a link to the course), description, progress, next step. */
export function CourseCard({ course }: { course: Course }) {
  if (course.locked) return <LockedCard course={course} locked={course.locked} />;
  return <OpenCard course={course} />;
}

function OpenCard({ course }: { course: Course }) {
  const titleId = useId();
  const step = nextStep(course);
  const percent =
    course.totalChapters === 0 ? 0 : Math.round((course.doneChapters / course.totalChapters) * 100);
  const complete = course.totalChapters > 0 && course.doneChapters >= course.totalChapters;
  return (
    <article className="flex h-full flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm transition hover:border-indigo-300 hover:shadow-md">
      <Cover course={course} />
      <div className="flex flex-1 flex-col p-5">
        <Link
          to={`/course/${course.id}`}
          prefetch="intent"
          className="rounded-sm hover:text-indigo-700 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          <h2 id={titleId} className="text-lg font-semibold">
            {course.title}
          </h2>
        </Link>
        <div className="flex-1">
          <p className="mt-2 line-clamp-2 text-slate-600">{course.description}</p>
        </div>
        {course.totalChapters > 0 ? (
          <div className="mt-4">
            <div className="flex justify-between text-xs text-slate-600">
              <span>{complete ? "Completed" : "Progress"}</span>
              <span>
                {course.doneChapters} / {course.totalChapters}{" "}
                {course.totalChapters === 1 ? "chapter" : "chapters"}
              </span>
            </div>
            <div
              role="progressbar"
              aria-label={`${course.title} progress`}
              aria-valuemin={0}
              aria-valuemax={course.totalChapters}
              aria-valuenow={course.doneChapters}
              aria-valuetext={`${course.doneChapters} of ${course.totalChapters} chapters done`}
              className="mt-1 h-2 overflow-hidden rounded-full bg-slate-100"
            >
              <div className="h-full rounded-full bg-green-500" style={{ width: `${percent}%` }} />
            </div>
          </div>
        ) : (
          <p className="mt-4 text-sm text-slate-500">Chapters are on their way.</p>
        )}
        {step ? (
          <Link
            to={step.href}
            prefetch="intent"
            // Several cards have the same button: the course's title tells them apart.
            aria-describedby={titleId}
            className={`mt-5 inline-flex min-h-11 items-center justify-center rounded-md px-4 py-2 font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 ${
              step.label === "Review"
                ? "border border-indigo-600 text-indigo-700 hover:bg-indigo-50"
                : "bg-indigo-600 text-white hover:bg-indigo-700"
            }`}
          >
            {step.label}
          </Link>
        ) : null}
      </div>
    </article>
  );
}
