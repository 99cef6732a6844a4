import { Form, Link } from "react-router";
import { ChapterForm } from "./chapter-form";
import { CourseForm } from "./course-form";
import { IconButton, IconLink, type IconName } from "./icons";

export type AdminCourse = {
  id: string;
  title: string;
  description: string;
  chapters: { id: string; title: string }[];
};

type EditedChapter = { id: string; title: string; contentHtml: string };

const confirmDeleteCourse =
  "Are you sure you want to delete this course? This will also delete all chapters within it. This action cannot be undone.";
const confirmDeleteChapter =
  "Are you sure you want to delete this chapter? This action cannot be undone.";

function confirmSubmit(message: string) {
  return (event: React.FormEvent) => {
    if (!window.confirm(message)) event.preventDefault();
  };
}

/** One icon button posting the admin action `fields` (hidden inputs, in order). */
function ActionButton({
  fields,
  label,
  icon,
  disabled,
  confirm,
}: {
  fields: Record<string, string>;
  label: string;
  icon: IconName;
  disabled?: boolean;
  confirm?: string;
}) {
  return (
    <Form
      method="post"
      preventScrollReset={confirm ? undefined : true}
      onSubmit={confirm ? confirmSubmit(confirm) : undefined}
    >
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <IconButton label={label} icon={icon} disabled={disabled} />
    </Form>
  );
}

/** A course in the admin panel: its header, and when open its chapters and forms. */
export function CourseItem({
  course,
  expanded,
  courseForm,
  chapterForm,
  editing,
}: {
  course: AdminCourse;
  expanded: string | null;
  courseForm: "new" | "edit" | null;
  chapterForm: "new" | "edit" | null;
  editing: EditedChapter | null;
}) {
  const isOpen = course.id === expanded;
  return (
    <li className="rounded-xl border border-slate-200 bg-white shadow-sm">
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
              ({course.chapters.length} {course.chapters.length === 1 ? "chapter" : "chapters"})
            </span>
          </span>
          {course.description ? (
            <span className="mt-1 block text-sm text-slate-600">{course.description}</span>
          ) : null}
        </Link>
        <IconLink
          to={`/admin?course=${course.id}&form=edit-course`}
          label={`Edit course: ${course.title}`}
          icon="edit"
        />
        <ActionButton
          fields={{ intent: "delete-course", courseId: course.id, expanded: expanded ?? "" }}
          label={`Delete course: ${course.title}`}
          icon="delete"
          confirm={confirmDeleteCourse}
        />
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
}

function ChapterList({ course }: { course: AdminCourse }) {
  if (course.chapters.length === 0) {
    return (
      <p className="text-slate-600">No chapters yet. Add your first chapter to get started.</p>
    );
  }
  const last = course.chapters.length - 1;
  return (
    <ol className="divide-y divide-slate-100 rounded-lg border border-slate-200">
      {course.chapters.map((chapter, i) => {
        const ids = { courseId: course.id, chapterId: chapter.id };
        return (
          <li key={chapter.id} className="flex flex-wrap items-center gap-x-2 gap-y-1 px-3 py-2">
            <span className="w-6 text-sm text-slate-500">{i + 1}.</span>
            <span className="min-w-0 flex-1 basis-40 break-words">{chapter.title}</span>
            <span className="ml-auto flex items-center gap-1">
              {(["up", "down"] as const).map((direction) => (
                <ActionButton
                  key={direction}
                  fields={{ intent: "move-chapter", ...ids, direction }}
                  label={`Move chapter ${direction}: ${chapter.title}`}
                  icon={direction}
                  disabled={direction === "up" ? i === 0 : i === last}
                />
              ))}
              <IconLink
                to={`/admin?course=${course.id}&chapter=${chapter.id}`}
                label={`Edit chapter: ${chapter.title}`}
                icon="edit"
              />
              <ActionButton
                fields={{ intent: "delete-chapter", ...ids }}
                label={`Delete chapter: ${chapter.title}`}
                icon="delete"
                confirm={confirmDeleteChapter}
              />
            </span>
          </li>
        );
      })}
    </ol>
  );
}
