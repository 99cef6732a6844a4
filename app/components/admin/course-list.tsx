import { Link } from "react-router";
import { confirmDeleteCourse, type EditedCourse } from "~/lib/course-authoring";
import type { EditedChapter } from "./chapter-form";
import { ChapterForm } from "./chapter-form";
import { ChapterList, type ListedChapter } from "./chapter-list";
import { CourseForm } from "./course-form";
import { DraftBadge } from "./draft-badge";
import { RowActions } from "./row-actions";

export type AdminCourse = EditedCourse & { chapters: ListedChapter[] };

/** A course in the admin panel: its header, and when open its chapters and forms. */
export function CourseItem({
  course,
  position,
  count,
  expanded,
  courseForm,
  chapterForm,
  editing,
}: {
  course: AdminCourse;
  /** Its place in the members' order (from 0), and how many courses there are. */
  position: number;
  count: number;
  expanded: string | null;
  courseForm: "new" | "edit" | null;
  chapterForm: "new" | "edit" | null;
  editing: EditedChapter | null;
}) {
  const isOpen = course.id === expanded;
  const chapters = course.chapters.length;
  return (
    <li className="rounded-xl border border-slate-200 bg-white shadow-sm">
      <div className="flex flex-wrap items-start gap-3 p-4">
        {course.coverImageUrl ? (
          <img
            src={course.coverImageUrl}
            alt=""
            className="hidden aspect-video w-24 shrink-0 rounded-md border border-slate-200 object-cover sm:block"
          />
        ) : null}
        <Link
          to={isOpen ? "/admin/courses" : `/admin/courses?course=${course.id}`}
          aria-expanded={isOpen}
          className="min-w-0 flex-1 basis-48 rounded-md text-left focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          <span className="block font-semibold">
            <span aria-hidden="true" className="mr-2">
              {isOpen ? "▾" : "▸"}
            </span>
            {course.title}{" "}
            <span className="whitespace-nowrap text-sm font-normal text-slate-600">
              ({chapters} {chapters === 1 ? "chapter" : "chapters"})
            </span>
            {course.published ? null : (
              <span className="ml-2 inline-block align-middle">
                <DraftBadge />
              </span>
            )}
          </span>
          {course.description ? (
            <span className="mt-1 block text-sm text-slate-600">{course.description}</span>
          ) : null}
        </Link>
        <RowActions
          kind="course"
          title={course.title}
          fields={{ courseId: course.id }}
          first={position === 0}
          last={position === count - 1}
          previewTo={`/course/${course.id}`}
          editTo={`/admin/courses?course=${course.id}&form=edit-course`}
          deleteFields={{ expanded: expanded ?? "" }}
          confirmMessage={confirmDeleteCourse}
        />
      </div>
      {isOpen ? (
        <div className="space-y-4 border-t border-slate-200 p-4">
          {courseForm === "edit" ? <CourseForm course={course} /> : null}
          <ChapterList
            courseId={course.id}
            chapters={course.chapters}
            editing={chapterForm === "edit" ? editing : null}
          />
          {chapterForm === "new" ? (
            <ChapterForm key="new" courseId={course.id} chapter={null} />
          ) : (
            <Link
              to={`/admin/courses?course=${course.id}&chapter=new`}
              className="inline-flex min-h-11 items-center rounded-md border border-indigo-600 px-4 py-2 font-semibold text-indigo-700 hover:bg-indigo-50"
            >
              Add chapter
            </Link>
          )}
        </div>
      ) : null}
    </li>
  );
}
