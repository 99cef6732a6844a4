import { Link } from "react-router";
import type { MemberCourse } from "~/server/courses/read.server";

/**
 * Above the course page in an admin's preview of a draft: what members do not
 * see yet. Members never reach a draft, so they never see this bar.
 */
export function DraftPreviewNotice({ course }: { course: MemberCourse }) {
  const draftCourse = !course.published;
  const draftChapter = course.selected ? !course.selected.published : false;
  if (!draftCourse && !draftChapter) return null;
  return (
    <div className="border-b border-amber-300 bg-amber-50">
      <p className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2 text-sm text-amber-900">
        <span className="rounded bg-amber-200 px-2 py-0.5 font-semibold">Preview</span>
        <span>
          {draftCourse
            ? "This course is a draft: members do not see it until you publish it."
            : "This chapter is a draft: members do not see it until you publish it."}
        </span>
        <Link to={`/admin/courses?course=${course.id}`} className="font-medium underline">
          Back to the admin panel
        </Link>
      </p>
    </div>
  );
}
