// The admin panel's words (/admin): what each action says when it is done, the
// questions asked before a delete or before leaving unsaved work, and how a
// failed action names itself. Shared by the page and its action.

import type { AdminAction } from "./forms";

/** What the panel says after each action; the chapter messages are the spec's. */
export const adminNotices = {
  "course-created": "Course created.",
  "course-updated": "Course updated.",
  "course-deleted": "Course deleted.",
  "course-moved": "Course moved.",
  "chapter-created": "New chapter created successfully!",
  "chapter-updated": "Chapter updated successfully!",
  "chapter-deleted": "Chapter deleted.",
  "chapter-moved": "Chapter moved.",
} as const;

export type AdminNotice = keyof typeof adminNotices;

/** The spec's questions (docs/product.md, Validation rules). */
export const confirmDeleteCourse =
  "Are you sure you want to delete this course? This will also delete all chapters within it. This action cannot be undone.";
export const confirmDeleteChapter =
  "Are you sure you want to delete this chapter? This action cannot be undone.";
export const confirmLeaveUnsaved = "You have unsaved changes. Leave without saving them?";

/** How a failed action begins its message: a course action speaks of the course. */
const failurePrefix: Record<AdminAction["intent"], string> = {
  "create-course": "Error saving course",
  "update-course": "Error saving course",
  "delete-course": "Error deleting course",
  "move-course": "Error moving course",
  "create-chapter": "Error saving chapter",
  "update-chapter": "Error saving chapter",
  "delete-chapter": "Error deleting chapter",
  "move-chapter": "Error moving chapter",
  "reorder-chapters": "Error moving chapter",
};

/** "Error deleting course: Course not found"; an unknown intent is an unknown action. */
export function failureMessage(intent: unknown, reason: string): string {
  const prefix =
    typeof intent === "string" && Object.hasOwn(failurePrefix, intent)
      ? failurePrefix[intent as AdminAction["intent"]]
      : "Error";
  return `${prefix}: ${reason}`;
}

/** A course as its edit form shows it. */
export type EditedCourse = {
  id: string;
  title: string;
  description: string;
  published: boolean;
  coverImageUrl: string | null;
  coverAlt: string;
};

/** A course in the admin list, with its chapters in order. */
export type AdminCourse = EditedCourse & {
  chapters: { id: string; title: string; sortOrder: number; published: boolean }[];
};
